// Issue 39, item 1: a model chosen in the page from the configured providers, with the key kept in the vault. A
// model with keyFrom "user" takes each user's own API key, entered in the page and sealed in the store; the page only
// learns that one is kept. A fake OpenAI-compatible endpoint (the one edge the console does not own) shows which key
// each turn sends.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_KEY_ENV, TokenVault } from '@airlock/core';
import { scratchDir } from '@airlock/core/testing';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { ConsoleClient, rawConsoleRequest } from '../../apps/console/src/testing/console-client.js';
import { startMockOpenAI } from './mock-openai.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ANA_KEY = 'sk-ana-0123456789abcdef';
const ENV_KEY = 'sk-environment-key';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
let dir: string;
let running: RunningConsole | undefined;

/**
 * The config: the default model at the mock with the environment's key and keyFrom "user"; "Own" at the mock by
 * another host name (another endpoint), which takes only users' keys; "Plain", which takes none of theirs.
 */
function start(): Promise<RunningConsole> {
  const localhost = mock.baseURL.replace('127.0.0.1', 'localhost');
  const path = join(dir, 'airlock.config.json');
  writeFileSync(
    path,
    JSON.stringify({
      model: {
        baseURL: mock.baseURL,
        model: 'mock-model',
        keyFrom: 'user',
        choices: [
          { label: 'Own', model: 'own-model', baseURL: localhost, keyFrom: 'user' },
          { label: 'Plain', model: 'plain-model', baseURL: localhost },
        ],
      },
      console: {
        auth: 'token',
        users: [
          { id: 'ana', tokenSha256: sha256('ana-token') },
          { id: 'bob', tokenSha256: sha256('bob-token') },
        ],
      },
    }),
  );
  const config = loadConsoleConfig(
    { config: path, store: join(dir, 'history.db') },
    { AIRLOCK_MODEL_API_KEY: ENV_KEY },
  );
  return startConsole({ ...config, port: 0 });
}

/** Sends a message with model `model` and waits for its turn to end; the Authorization header the model received. */
async function turn(client: ConsoleClient, model: string): Promise<string | undefined> {
  const asked = mock.requests.length;
  const sent = await client.post('/api/chat', { message: 'Hello', model });
  expect(sent.status).toBe(202);
  await expect.poll(() => mock.requests.length).toBe(asked + 1);
  await expect.poll(async () => ((await client.get('/api/chat')).body as { busy: boolean }).busy).toBe(false);
  return mock.authorizations[asked];
}

beforeAll(async () => {
  mock = await startMockOpenAI([]);
  dir = scratchDir('airlock-model-keys-');
  running = await start();
}, 60_000);

afterAll(async () => {
  await running?.close();
  await mock?.close();
});

describe("a user's own model key", () => {
  it('lists the models that take one, saying whether a key is kept and never the key', async () => {
    const ana = await ConsoleClient.signIn(running!.url, { token: 'ana-token' });
    expect((await ana.get('/api/model-keys')).body).toEqual({
      models: [
        { id: '0', label: 'mock-model', endpoint: new URL(mock.baseURL).host, kept: false, fromEnvironment: true },
        {
          id: '1',
          label: 'Own',
          endpoint: expect.stringMatching(/^localhost:/) as unknown,
          kept: false,
          fromEnvironment: false,
        },
      ],
    });
  });

  it("is sent by that user's turns in place of the environment's; another user's turns send the environment's", async () => {
    const ana = await ConsoleClient.signIn(running!.url, { token: 'ana-token' });
    const bob = await ConsoleClient.signIn(running!.url, { token: 'bob-token' });
    expect(await turn(ana, '0')).toBe(`Bearer ${ENV_KEY}`);

    const kept = await ana.request('PUT', '/api/model-keys/0', { key: `${ANA_KEY}\n` });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      models: [
        { id: '0', kept: true },
        { id: '1', kept: false },
      ],
    });
    expect(JSON.stringify(kept.body)).not.toContain(ANA_KEY);

    expect(await turn(ana, '0')).toBe(`Bearer ${ANA_KEY}`);
    expect(await turn(bob, '0')).toBe(`Bearer ${ENV_KEY}`);
    expect((await bob.get('/api/model-keys')).body).toMatchObject({ models: [{ id: '0', kept: false }, {}] });
  });

  it('is needed for a model whose endpoint has no key from the environment, with an error that says where', async () => {
    const bob = await ConsoleClient.signIn(running!.url, { token: 'bob-token' });
    const asked = mock.requests.length;
    const refused = await bob.post('/api/chat', { message: 'Hello', model: '1' });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'model_key_missing' } } });
    expect((refused.body as { error: { message: string } }).error.message).toMatch(
      /model "1" \(Own\) needs your API key/,
    );
    expect(mock.requests.length).toBe(asked);

    expect((await bob.request('PUT', '/api/model-keys/1', { key: 'sk-bob-own' })).status).toBe(200);
    expect(await turn(bob, '1')).toBe('Bearer sk-bob-own');
    // Ana's key is for the other endpoint: it is never sent here.
    const ana = await ConsoleClient.signIn(running!.url, { token: 'ana-token' });
    expect((await ana.post('/api/chat', { message: 'Hello', model: '1' })).status).toBe(409);
  });

  it('refuses an empty key, a key with spaces, an unknown model and a model that takes no user key, naming each', async () => {
    const ana = await ConsoleClient.signIn(running!.url, { token: 'ana-token' });
    const answers = await Promise.all([
      ana.request('PUT', '/api/model-keys/0', { key: '  ' }),
      ana.request('PUT', '/api/model-keys/0', {}),
      ana.request('PUT', '/api/model-keys/0', { key: 'two words' }),
      ana.request('PUT', '/api/model-keys/9', { key: 'sk-x' }),
      ana.request('PUT', '/api/model-keys/2', { key: 'sk-x' }),
      ana.delete('/api/model-keys/nine'),
    ]);
    expect(answers.map((a) => [a.status, (a.body as { error: { message: string } }).error.message])).toEqual([
      [400, 'key must be the API key as text (it is empty)'],
      [400, 'key must be the API key as text (it is empty)'],
      [400, 'key must be one word of 1 to 8192 printable characters (no spaces or line breaks)'],
      [404, `model "9" is not one of the chat's models`],
      [400, 'model "2" (Plain) takes no key of yours: its config has no keyFrom "user"'],
      [404, `model "nine" is not one of the chat's models`],
    ]);
  });

  it('is not kept or forgotten from another origin (the session cookie alone is not enough)', async () => {
    const bob = await ConsoleClient.signIn(running!.url, { token: 'bob-token' });
    for (const method of ['PUT', 'DELETE']) {
      const refused = await rawConsoleRequest(running!.url, {
        method,
        path: '/api/model-keys/1',
        headers: { origin: 'https://evil.example', cookie: bob.cookie },
        ...(method === 'PUT' ? { body: { key: 'sk-from-elsewhere' } } : {}),
      });
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'forbidden_origin' } } });
    }
    // Bob's key of the turn before is still his.
    expect(await turn(bob, '1')).toBe('Bearer sk-bob-own');
  });

  it('is kept sealed in the SQLite file across a restart, audited without the key, and forgotten on request', async () => {
    await running!.close();
    running = undefined;
    const files = readdirSync(dir).filter((name) => name.startsWith('history.db'));
    expect(files).toContain('history.db');
    // The files searched do hold the keys, sealed with the console's vault (its key file beside the history).
    const secret = process.env[SECRET_KEY_ENV] ?? readFileSync(join(dir, 'secret.key'), 'utf8');
    const sealed = Buffer.from(`v1.${TokenVault.fromKey(secret).keyId}.`);
    expect(files.some((name) => readFileSync(join(dir, name)).includes(sealed))).toBe(true);
    for (const name of files) {
      const bytes = readFileSync(join(dir, name));
      expect(bytes.includes(Buffer.from(ANA_KEY)), `${name} holds the key in clear`).toBe(false);
      expect(bytes.includes(Buffer.from('sk-bob-own')), `${name} holds the key in clear`).toBe(false);
    }

    running = await start();
    const ana = await ConsoleClient.signIn(running.url, { token: 'ana-token' });
    expect((await ana.get('/api/model-keys')).body).toMatchObject({ models: [{ id: '0', kept: true }, {}] });
    expect(await turn(ana, '0')).toBe(`Bearer ${ANA_KEY}`);

    const forgotten = await ana.delete('/api/model-keys/0');
    expect(forgotten.body).toMatchObject({ models: [{ id: '0', kept: false }, {}] });
    expect(await turn(ana, '0')).toBe(`Bearer ${ENV_KEY}`);

    const events = (await running.host.audit.query({ scope: { userId: 'ana', workspaceId: 'default' } })).filter(
      (event) => event.type === 'model.key',
    );
    expect(events.map((event) => event.data)).toEqual([
      { action: 'kept', model: 'mock-model', endpoint: new URL(mock.baseURL).host },
      { action: 'forgotten', model: 'mock-model', endpoint: new URL(mock.baseURL).host },
    ]);
    expect(JSON.stringify(events)).not.toContain(ANA_KEY);
    // The audit page filters by every type the log keeps, this one included.
    const filtered = await ana.get('/api/audit?type=model.key');
    expect(filtered.status).toBe(200);
    expect((filtered.body as { type: string }[]).map((event) => event.type)).toEqual(['model.key', 'model.key']);
  });
});
