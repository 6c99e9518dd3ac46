import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostError, readConfigFile } from '@airlock/core';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { DEFAULT_PORT, loadConsoleConfig, redactUrl } from './console-config.js';
import { ConsoleClient, consoleRequest } from './testing/console-client.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
/** Writes a config file (JSON unless `json` is text already) into the temp dir and returns its path. */
async function configFile(json: unknown): Promise<string> {
  const path = join(dir, `airlock-${++files}.config.json`);
  await writeFile(path, typeof json === 'string' ? json : JSON.stringify(json, null, 2));
  return path;
}

/** A config file with no servers and the given console keys. */
const withKeys = (keys: Record<string, unknown>) => configFile({ mcpServers: {}, ...keys });

/** The error loadConsoleConfig throws for `path`: a config_invalid HostError. */
function loadError(path: string, env: NodeJS.ProcessEnv = {}): HostError {
  try {
    loadConsoleConfig({ config: path, store: ':memory:' }, env);
  } catch (error) {
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe('config_invalid');
    return error as HostError;
  }
  throw new Error(`${path} was accepted`);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Runs `fn` with an empty directory as the working directory, so no ./airlock.config.json is found. */
async function inEmptyDirectory<T>(fn: (cwd: string) => T | Promise<T>): Promise<T> {
  const cwd = await mkdtemp(join(dir, 'cwd-'));
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    return await fn(cwd);
  } finally {
    process.chdir(previous);
  }
}

describe('loadConsoleConfig', () => {
  it('without a file: the embedded demo server, port 7410 on loopback, local sign-in, no model', async () => {
    const dataHome = join(dir, 'data-home');
    const config = await inEmptyDirectory(() => loadConsoleConfig({}, { XDG_DATA_HOME: dataHome }));
    expect(DEFAULT_PORT).toBe(7410);
    expect(config).toEqual({
      source: 'embedded default',
      servers: [
        {
          id: 'demo',
          transport: 'stdio',
          command: process.execPath,
          args: [expect.stringMatching(/packages[/\\]demo-server[/\\]dist[/\\]bin\.js$/)],
          env: {},
          trusted: false,
          disabled: false,
        },
      ],
      rules: [],
      limits: {},
      storePath: join(dataHome, 'airlock', 'airlock.db'), // the CLI's default file too
      host: '127.0.0.1',
      port: 7410,
      auth: 'local',
      users: [],
      retention: { results: 7, history: 90, audit: 400, conversations: null, expiredDecisions: 30 },
    });
    const demo = config.servers[0];
    expect(demo?.transport === 'stdio' && existsSync(demo.args[0] ?? '')).toBe(true);
    // The history file's directory is made, so SQLite can create the file.
    expect(existsSync(join(dataHome, 'airlock'))).toBe(true);
  });

  it('takes --port and --store over the defaults, and AIRLOCK_STORE over the file', async () => {
    const flags = await inEmptyDirectory(() => loadConsoleConfig({ port: 0, store: ':memory:' }, {}));
    expect(flags).toMatchObject({ port: 0, storePath: ':memory:', source: 'embedded default' });
    const path = await withKeys({ console: { port: 9000 }, store: { path: ':memory:' } });
    expect(loadConsoleConfig({ config: path }, {})).toMatchObject({ port: 9000, storePath: ':memory:' });
    expect(loadConsoleConfig({ config: path, port: 0 }, {})).toMatchObject({ port: 0 });
    const fromEnv = join(dir, 'env-store', 'history.db');
    expect(loadConsoleConfig({ config: path }, { AIRLOCK_STORE: fromEnv }).storePath).toBe(fromEnv);
  });

  it('takes a PostgreSQL URL from --store, AIRLOCK_DATABASE_URL or store.url, in that order, and SQLite otherwise', async () => {
    const url = 'postgres://airlock@db.internal/airlock';
    const path = await withKeys({ store: { url } });
    expect(loadConsoleConfig({ config: path }, {})).toMatchObject({ storeUrl: url, storePath: '' });
    const fromEnv = 'postgresql://other@db2/airlock';
    expect(loadConsoleConfig({ config: path }, { AIRLOCK_DATABASE_URL: fromEnv }).storeUrl).toBe(fromEnv);
    const flag = 'postgres://flag@db3/airlock';
    expect(loadConsoleConfig({ config: path, store: flag }, { AIRLOCK_DATABASE_URL: fromEnv }).storeUrl).toBe(flag);
    const sqlite = loadConsoleConfig({ config: path, store: ':memory:' }, { AIRLOCK_DATABASE_URL: fromEnv });
    expect(sqlite.storePath).toBe(':memory:');
    expect(sqlite).not.toHaveProperty('storeUrl');
    expect(redactUrl('postgres://airlock:s3cret@db/airlock')).toBe('postgres://airlock:***@db/airlock');
  });

  it.each([
    [{ url: 'mysql://db/airlock' }, 'store.url must be a PostgreSQL URL'],
    [{ url: 'postgres://db/airlock', path: 'a.db' }, 'store has both path and url'],
  ])('refuses the store section %j, naming the key', async (store, message) => {
    const path = await withKeys({ store });
    expect(() => loadConsoleConfig({ config: path }, {})).toThrow(message);
  });

  it('reads ./airlock.config.json when no file is named', async () => {
    await inEmptyDirectory(async (cwd) => {
      await writeFile(join(cwd, 'airlock.config.json'), JSON.stringify({ mcpServers: {}, console: { port: 8123 } }));
      const config = loadConsoleConfig({ store: ':memory:' }, {});
      expect(config).toMatchObject({ source: join(cwd, 'airlock.config.json'), servers: [], port: 8123 });
    });
  });

  it('names the file when it is not JSON, or cannot be read', async () => {
    const path = await configFile('{ "mcpServers": {}, ');
    expect(loadError(path).message).toMatch(new RegExp(`^${literal(path)}:1:\\d+: not valid JSON: expected`));
    const missing = join(dir, 'no-such.config.json');
    expect(loadError(missing).message).toContain(`cannot read config file ${missing}`);
    expect(loadError(await configFile('[1, 2]')).message).toMatch(/must hold a JSON object$/);
  });

  it('names console.port when it is not a port number', async () => {
    for (const port of ['x', '7410', -1, 65536, 1.5, true, null]) {
      const path = await withKeys({ console: { port } });
      expect(loadError(path).message).toBe(`${path}: console.port must be a port number (0 picks a free one)`);
    }
  });

  it("reads the views' sandbox proxy keys (console.viewProxyPort, console.viewProxyUrl) as known keys", async () => {
    const path = await withKeys({
      console: {
        publicUrl: 'https://airlock.example.com',
        viewProxyPort: 7411,
        viewProxyUrl: 'https://views.airlock.example.com/',
      },
    });
    expect(readConfigFile(path).warnings).toEqual([]);
    expect(loadConsoleConfig({ config: path }, {})).toMatchObject({
      publicUrl: 'https://airlock.example.com',
      viewProxyPort: 7411,
      viewProxyUrl: 'https://views.airlock.example.com',
    });
    const absent = loadConsoleConfig({ config: await withKeys({}) }, {});
    expect('viewProxyPort' in absent || 'viewProxyUrl' in absent).toBe(false);
  });

  it('reads console.metrics as a known key, and names it when it is wrong', async () => {
    const tokenSha256 = 'a'.repeat(64);
    const path = await withKeys({ console: { metrics: { prometheus: true, tokenSha256 } } });
    expect(readConfigFile(path).warnings).toEqual([]);
    expect(loadConsoleConfig({ config: path }, {}).metrics).toEqual({ prometheus: true, tokenSha256 });
    expect(loadConsoleConfig({ config: await withKeys({}) }, {}).metrics).toBeUndefined();
    const notBoolean = await withKeys({ console: { metrics: { prometheus: 'yes' } } });
    expect(loadError(notBoolean).message).toBe(`${notBoolean}: console.metrics.prometheus must be true or false`);
    const badToken = await withKeys({ console: { metrics: { prometheus: true, tokenSha256: 'secret' } } });
    expect(loadError(badToken).message).toContain('console.metrics.tokenSha256 must be the sha256 of the token');
  });

  it('names console.viewProxyPort and console.viewProxyUrl when they are wrong', async () => {
    for (const viewProxyPort of ['x', -1, 65536, 1.5]) {
      const path = await withKeys({ console: { viewProxyPort } });
      expect(loadError(path).message).toBe(`${path}: console.viewProxyPort must be a port number (0 picks a free one)`);
    }
    const same = await withKeys({ console: { port: 7500, viewProxyPort: 7500 } });
    expect(loadError(same).message).toContain("console.viewProxyPort is the console's own port 7500");
    for (const viewProxyUrl of ['views.example.com', 'ftp://views.example.com', 'https://views.example.com/app', 3]) {
      const path = await withKeys({ console: { viewProxyUrl } });
      expect(loadError(path).message).toBe(
        `${path}: console.viewProxyUrl must be an http or https origin, e.g. "https://views.airlock.example.com"`,
      );
    }
    const own = await withKeys({
      console: { publicUrl: 'https://airlock.example.com', viewProxyUrl: 'https://airlock.example.com' },
    });
    expect(loadError(own).message).toContain("console.viewProxyUrl is the console's own origin");
    const mixed = await withKeys({
      console: { publicUrl: 'https://airlock.example.com', viewProxyUrl: 'http://views.example.com' },
    });
    expect(loadError(mixed).message).toContain('console.viewProxyUrl must be https when publicUrl is');
  });

  it('runs a file of settings only on the embedded demo server, and a file with servers on those', async () => {
    const settingsOnly = await configFile({ console: { port: 8124 }, store: { path: ':memory:' } });
    const config = loadConsoleConfig({ config: settingsOnly }, {});
    expect(config.servers.map((s) => s.id)).toEqual(['demo']);
    expect(config.port).toBe(8124);
    const none = await withKeys({});
    expect(loadConsoleConfig({ config: none, store: ':memory:' }, {}).servers).toEqual([]);
  });

  it('names console.auth and console.users when token sign-in has no users, or auth is unknown', async () => {
    const noUsers = await withKeys({ console: { auth: 'token' } });
    expect(loadError(noUsers).message).toBe(
      `${noUsers}: console.users must list at least one user when auth is "token"`,
    );
    const emptyUsers = await withKeys({ console: { auth: 'token', users: [] } });
    expect(loadError(emptyUsers).message).toContain('console.users must list at least one user');
    const unknown = await withKeys({ console: { auth: 'password' } });
    expect(loadError(unknown).message).toBe(`${unknown}: console.auth must be "local" or "token"`);
  });

  it('refuses local sign-in off loopback, and token users whose id is not a name', async () => {
    const open = await withKeys({ console: { host: '0.0.0.0' } });
    expect(loadError(open).message).toContain('console.host is "0.0.0.0", which other machines can reach');
    const served = await withKeys({
      console: {
        host: '0.0.0.0',
        auth: 'token',
        users: [{ id: 'ana', tokenSha256: sha256('t') }],
        allowedHosts: ['airlock.lan:7410'],
      },
    });
    expect(loadConsoleConfig({ config: served, store: ':memory:' }, {})).toMatchObject({
      host: '0.0.0.0',
      auth: 'token',
      allowedHosts: ['airlock.lan:7410'],
    });
    const badId = await withKeys({ console: { auth: 'token', users: [{ id: 'a\u0000b', tokenSha256: sha256('t') }] } });
    expect(loadError(badId).message).toContain('console.users[0].id must be 1-64 letters');
  });

  it("names the user's field when a token hash is not 64 lowercase hex digits", async () => {
    for (const tokenSha256 of ['abc', sha256('t').toUpperCase(), `${sha256('t')}0`, 42, undefined]) {
      const path = await withKeys({ console: { auth: 'token', users: [{ id: 'alice', tokenSha256 }] } });
      expect(loadError(path).message).toBe(
        `${path}: console.users[0].tokenSha256 must be the sha256 of the token, 64 lowercase hex digits`,
      );
    }
    const second = await withKeys({
      console: {
        auth: 'token',
        users: [
          { id: 'alice', tokenSha256: sha256('a') },
          { id: 'bob', tokenSha256: 'not-a-hash' },
        ],
      },
    });
    expect(loadError(second).message).toContain('console.users[1].tokenSha256');
    const noId = await withKeys({ console: { auth: 'token', users: [{ tokenSha256: sha256('a') }] } });
    expect(loadError(noId).message).toContain('console.users[0].id must be 1-64 letters');
  });

  it('reads which token users are administrators, and names the field when admin is not true or false', async () => {
    const path = await withKeys({
      console: {
        auth: 'token',
        users: [
          { id: 'root', tokenSha256: sha256('r'), admin: true },
          { id: 'ana', tokenSha256: sha256('a'), admin: false },
          { id: 'bia', tokenSha256: sha256('b') },
        ],
      },
    });
    const users = loadConsoleConfig({ config: path, store: ':memory:' }, {}).users;
    expect(users.map((u) => [u.id, u.admin === true])).toEqual([
      ['root', true],
      ['ana', false],
      ['bia', false],
    ]);
    const bad = await withKeys({
      console: { auth: 'token', users: [{ id: 'ana', tokenSha256: sha256('a'), admin: 'yes' }] },
    });
    expect(loadError(bad).message).toBe(`${bad}: console.users[0].admin must be true or false`);
  });

  it('refuses model.apiKey in the file, without repeating the key', async () => {
    const secret = 'sk-do-not-keep-me-in-files';
    const path = await withKeys({ model: { baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: secret } });
    const error = loadError(path);
    expect(error.message).toMatch(new RegExp(`^${literal(path)}:\\d+:\\d+: model\\.apiKey is not read from the file`));
    expect(error.message).not.toContain(secret);
    // Refused even when no model is configured, and when the endpoint comes from the environment.
    const keyOnly = await withKeys({ model: { apiKey: secret } });
    expect(loadError(keyOnly).message).toContain('model.apiKey is not read from the file');
    expect(
      loadError(keyOnly, { AIRLOCK_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1', AIRLOCK_MODEL: 'llama3' }).message,
    ).toContain('model.apiKey');
  });

  it('reads the model from AIRLOCK_MODEL_BASE_URL, AIRLOCK_MODEL and AIRLOCK_MODEL_API_KEY', async () => {
    const env = {
      AIRLOCK_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1',
      AIRLOCK_MODEL: 'llama3.2',
      AIRLOCK_MODEL_API_KEY: 'sk-from-env',
    };
    const fromEnv = await inEmptyDirectory(() => loadConsoleConfig({ store: ':memory:' }, env));
    expect(fromEnv.model).toEqual({ baseURL: env.AIRLOCK_MODEL_BASE_URL, model: 'llama3.2', apiKey: 'sk-from-env' });

    // The environment wins over the file; the key comes from the variable the file names.
    const path = await withKeys({
      model: { baseURL: 'https://api.example.com/v1', model: 'from-file', apiKeyEnv: 'MY_MODEL_KEY' },
    });
    expect(loadConsoleConfig({ config: path, store: ':memory:' }, { MY_MODEL_KEY: 'sk-mine' }).model).toEqual({
      baseURL: 'https://api.example.com/v1',
      model: 'from-file',
      apiKey: 'sk-mine',
    });
    expect(loadConsoleConfig({ config: path, store: ':memory:' }, env).model).toEqual({
      baseURL: env.AIRLOCK_MODEL_BASE_URL,
      model: 'llama3.2',
    });
    // No key at all (a local model) is fine; no endpoint at all means no model.
    const noKey = { AIRLOCK_MODEL_BASE_URL: env.AIRLOCK_MODEL_BASE_URL, AIRLOCK_MODEL: 'llama3.2' };
    expect(loadConsoleConfig({ config: await withKeys({}), store: ':memory:' }, noKey).model).toEqual({
      baseURL: env.AIRLOCK_MODEL_BASE_URL,
      model: 'llama3.2',
    });
    expect(loadConsoleConfig({ config: await withKeys({}), store: ':memory:' }, {}).model).toBeUndefined();
  });

  it('reads model.choices: each takes the default endpoint and key unless it names its own', async () => {
    const path = await withKeys({
      model: {
        baseURL: 'https://api.example.com/v1',
        model: 'big',
        apiKeyEnv: 'MAIN_KEY',
        choices: [
          { label: 'Small', model: 'small' },
          { model: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1' },
          { label: 'Other', model: 'other', baseURL: 'https://other.example/v1', apiKeyEnv: 'OTHER_KEY' },
        ],
      },
    });
    const config = loadConsoleConfig({ config: path, store: ':memory:' }, { MAIN_KEY: 'sk-main', OTHER_KEY: 'sk-o' });
    expect(config.model).toEqual({ baseURL: 'https://api.example.com/v1', model: 'big', apiKey: 'sk-main' });
    expect(config.modelChoices).toEqual([
      { label: 'Small', baseURL: 'https://api.example.com/v1', model: 'small', apiKey: 'sk-main' },
      { label: 'llama3.2', baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2' },
      { label: 'Other', baseURL: 'https://other.example/v1', model: 'other', apiKey: 'sk-o' },
    ]);
  });

  it('reads keyFrom "user": a choice on the default endpoint takes the default\'s, one of its own names its own', async () => {
    const path = await withKeys({
      model: {
        baseURL: 'https://api.example.com/v1',
        model: 'big',
        keyFrom: 'user',
        choices: [
          { label: 'Small', model: 'small' },
          { label: 'Env only', model: 'env-only', keyFrom: 'env' },
          { label: 'Other', model: 'other', baseURL: 'https://other.example/v1' },
          { label: 'Mine', model: 'mine', baseURL: 'https://mine.example/v1', keyFrom: 'user' },
        ],
      },
    });
    const config = loadConsoleConfig({ config: path, store: ':memory:' }, {});
    expect(config.model).toEqual({ baseURL: 'https://api.example.com/v1', model: 'big', keyFrom: 'user' });
    expect(config.modelChoices?.map((choice) => [choice.label, choice.keyFrom])).toEqual([
      ['Small', 'user'],
      ['Env only', undefined],
      ['Other', undefined],
      ['Mine', 'user'],
    ]);
    const wrong = await withKeys({ model: { baseURL: 'https://api.example.com/v1', model: 'big', keyFrom: 'file' } });
    expect(loadError(wrong).message).toContain('model.keyFrom');
    const wrongChoice = await withKeys({
      model: { baseURL: 'https://api.example.com/v1', model: 'big', choices: [{ model: 'm', keyFrom: 'me' }] },
    });
    expect(loadError(wrongChoice).message).toContain('model.choices[0].keyFrom');
  });

  it('names the choice at fault in model.choices', async () => {
    const model = { baseURL: 'https://api.example.com/v1', model: 'big' };
    const refused = async (choices: unknown, env: NodeJS.ProcessEnv = {}) =>
      loadError(await withKeys({ model: { ...model, choices } }), env).message;
    expect(await refused({})).toContain('model.choices must be a list');
    expect(await refused([{ label: 'x' }])).toContain('model.choices[0].model must name a model');
    expect(await refused([{ model: 'm', baseURL: 'ftp://x' }])).toContain(
      'model.choices[0].baseURL must be an http(s) URL',
    );
    expect(await refused([{ model: 'big' }])).toContain('model.choices[0].label repeats "big"');
    expect(await refused([{ model: 'm', apiKey: 'sk-secret' }])).toContain(
      'model.choices[0].apiKey is not read from the file',
    );
    expect(await refused([{ model: 'm', apiKey: 'sk-secret' }])).not.toContain('sk-secret');
    expect(loadError(await withKeys({ model: { choices: [] } })).message).toContain(
      'model.choices needs model.baseURL and model.model first',
    );
  });

  it('names model.baseURL and model.model when one is missing or wrong', async () => {
    const empty = await withKeys({});
    expect(loadError(empty, { AIRLOCK_MODEL: 'llama3' }).message).toContain('model.baseURL must be an http(s) URL');
    expect(loadError(empty, { AIRLOCK_MODEL_BASE_URL: 'ftp://example.com', AIRLOCK_MODEL: 'm' }).message).toContain(
      'model.baseURL',
    );
    expect(loadError(empty, { AIRLOCK_MODEL_BASE_URL: 'http://127.0.0.1:1/v1' }).message).toContain(
      'model.model must name a model',
    );
  });

  it('names the limit at fault', async () => {
    const path = await withKeys({ limits: { timeoutMs: -1 } });
    expect(loadError(path).message).toBe(`${path}: limits.timeoutMs must be a number > 0, not -1`);
    const text = await withKeys({ limits: { maxTotalMs: '5s' } });
    expect(loadError(text).message).toContain('limits.maxTotalMs must be a number > 0');
    const unknown = await withKeys({ limits: { idleTimeoutMs: 5 } });
    expect(loadError(unknown).message).toContain('limits.idleTimeoutMs is not a limit; known: modelChars');
    const media = await withKeys({ limits: { modelMedia: 'yes' } });
    expect(loadError(media).message).toContain('limits.modelMedia must be true or false');
    const tools = await withKeys({ limits: { tools: [] } });
    expect(loadError(tools).message).toContain('limits.tools must be an object');
    const good = await withKeys({ limits: { timeoutMs: 60_000, tools: { demo__echo: { timeoutMs: 5 } } } });
    expect(loadConsoleConfig({ config: good, store: ':memory:' }, {}).limits).toEqual({
      timeoutMs: 60_000,
      tools: { demo__echo: { timeoutMs: 5 } },
    });
  });
});

describe('retention: the console owns its history file, so it sweeps by default', () => {
  it('applies the default windows when the config says nothing; null keeps forever; audit anchoring is read', async () => {
    const none = loadConsoleConfig({ config: await withKeys({}), store: ':memory:' }, {});
    expect(none.retention).toEqual({ results: 7, history: 90, audit: 400, conversations: null, expiredDecisions: 30 });
    expect(none.audit).toBeUndefined();
    const forever = loadConsoleConfig({ config: await withKeys({ retention: null }), store: ':memory:' }, {});
    expect(forever.retention).toEqual({
      results: null,
      history: null,
      audit: null,
      conversations: null,
      expiredDecisions: null,
    });
    const anchors = join(dir, 'anchors.ndjson');
    const some = loadConsoleConfig(
      {
        config: await withKeys({ retention: { results: null, audit: 30 }, audit: { anchorFile: anchors } }),
        store: ':memory:',
      },
      {},
    );
    expect(some.retention).toEqual({ results: null, audit: 30 });
    expect(some.audit).toEqual({ anchorFile: anchors });
    const bad = await withKeys({ retention: { history: 0 } });
    expect(loadError(bad).message).toBe(
      `${bad}: retention.history must be a number of days above 0, or null to keep forever`,
    );
  });

  it('a console started without retention in its config sweeps at start', async () => {
    const running = await startConsole(loadConsoleConfig({ port: 0, store: ':memory:' }, {}));
    try {
      // A sweep ran at start (undefined: none ever ran); nothing had aged out yet.
      expect(await running.host.retention.sweeping()).toEqual({
        dryRun: false,
        results: 0,
        invocations: 0,
        auditEvents: 0,
        conversations: 0,
        expiredDecisions: 0,
        capped: false,
      });
    } finally {
      await running.close();
    }
  });
});

describe('token sign-in through the running console', () => {
  const aliceToken = 'alice-correct-horse-battery-staple';
  const bobToken = 'bob-token-2';
  let running: RunningConsole;

  beforeAll(async () => {
    const path = await withKeys({
      console: {
        auth: 'token',
        users: [
          { id: 'alice', tokenSha256: sha256(aliceToken), workspaces: ['default', 'w2'] },
          { id: 'bob', tokenSha256: sha256(bobToken) },
        ],
      },
    });
    const config = loadConsoleConfig({ config: path, port: 0, store: ':memory:' }, {});
    expect(config).toMatchObject({ auth: 'token', users: [{ id: 'alice' }, { id: 'bob' }] });
    running = await startConsole(config);
  });
  afterAll(async () => {
    await running.close();
  });

  it('says it wants a token', async () => {
    expect((await consoleRequest(running.url, 'GET', '/api/auth')).body).toEqual({ mode: 'token', signedIn: false });
  });

  it('refuses a wrong, missing or mismatched token with 401 and sets no cookie', async () => {
    for (const body of [
      { token: 'wrong' },
      { token: '' },
      {},
      { userId: 'alice' },
      { token: sha256(aliceToken) },
      { token: aliceToken, userId: 'bob' },
    ]) {
      const answer = await consoleRequest(running.url, 'POST', '/api/session', { body });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 401,
        body: { error: { code: 'unauthorized', message: expect.any(String) } },
      });
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it("signs in with the right token as that token's user", async () => {
    const alice = await ConsoleClient.signIn(running.url, { token: aliceToken });
    expect(alice.userId).toBe('alice');
    expect((await alice.get('/api/session')).body).toEqual({
      userId: 'alice',
      workspaceId: 'default',
      admin: false,
      model: false,
    });
    const named = await ConsoleClient.signIn(running.url, { token: aliceToken, userId: 'alice', workspaceId: 'w2' });
    expect((await named.get('/api/session')).body).toEqual({
      userId: 'alice',
      workspaceId: 'w2',
      admin: false,
      model: false,
    });
    const bob = await ConsoleClient.signIn(running.url, { token: bobToken });
    expect((await bob.get('/api/session')).body).toMatchObject({ userId: 'bob' });
    // Signing out ends that session only.
    expect((await alice.delete('/api/session')).status).toBe(200);
    expect((await alice.get('/api/session')).status).toBe(401);
    expect((await named.get('/api/session')).status).toBe(200);
  });
});

/** `text` as a literal in a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a console whose history file cannot be opened', () => {
  it('names the file and starts nothing', async () => {
    // A directory where the SQLite file should be: the store worker cannot open it.
    const notAFile = await mkdtemp(join(tmpdir(), 'airlock-not-a-db-'));
    await expect(startConsole(loadConsoleConfig({ port: 0, store: notAFile }, {}))).rejects.toThrow(
      new RegExp(`^the console cannot open its history file ${literal(notAFile)}: \\S`),
    );
    await rm(notAFile, { recursive: true, force: true });
  });
});

describe('a console that cannot listen', () => {
  /** This process's live children (zombies left out): the MCP servers its hosts started. */
  const children = () =>
    execFileSync('ps', ['-o', 'pid=,stat=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.trim().split(/\s+/)[1]?.startsWith('Z')).length;

  it('says which address is taken and leaves nothing running', async () => {
    const first = await startConsole(loadConsoleConfig({ port: 0, store: ':memory:' }, {}));
    await first.host.servers.settled();
    const before = children();
    const port = Number(new URL(first.url).port);
    await expect(startConsole(loadConsoleConfig({ port, store: ':memory:' }, {}))).rejects.toThrow(
      `the console cannot listen on 127.0.0.1:${port}`,
    );
    // The host it started is closed: its server process is told to stop and goes away.
    await expect.poll(children, { timeout: 10_000 }).toBe(before);
    await first.close();
  });
});

describe('the gateway section', () => {
  it('reads gateway.users by name with their workspace, and enabled', async () => {
    const path = await withKeys({
      gateway: { enabled: true, users: { grace: { tokenSha256: sha256('g'), workspace: 'lab' } } },
    });
    const config = loadConsoleConfig({ config: path, store: ':memory:' }, {});
    expect(config.gateway).toEqual({
      enabled: true,
      users: [{ tokenSha256: sha256('g'), userId: 'grace', workspaceId: 'lab' }],
    });
  });

  it('refuses gateway.enabled with no users, and a token two users share, naming the field', async () => {
    expect(loadError(await withKeys({ gateway: { enabled: true } })).message).toMatch(
      /gateway\.users must name at least one user when gateway\.enabled is true/,
    );
    const shared = { tokenSha256: sha256('same') };
    const error = loadError(await withKeys({ gateway: { users: { grace: shared, hopper: shared } } }));
    expect(error.message).toMatch(/:\d+:\d+: gateway\.users\.hopper\.tokenSha256 is also grace's/);
  });

  it('takes gateway.enabled with an authorization server and no static users', async () => {
    const oauth = { issuer: 'https://auth.example.com', scopes: ['mcp:tools'], workspace: 'lab' };
    const path = await withKeys({ gateway: { enabled: true, oauth } });
    expect(loadConsoleConfig({ config: path, store: ':memory:' }, {}).gateway).toEqual({
      enabled: true,
      users: [],
      oauth,
    });
  });
});
