import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import type { Surface } from '../host/surface.js';
import type { PermissionDecision } from '../permissions/permission-request.js';
import { nextEvent, SCOPE } from '../testing/demo-fixture.js';

/** The reference server of the MCP project: resources, templates with completion, subscriptions, prompts. */
const EVERYTHING: ServerConfig = {
  id: 'everything',
  transport: 'stdio',
  command: process.execPath,
  args: [resolve(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  env: {},
  trusted: false,
  disabled: false,
};

const allow: Surface = { askPermission: (): Promise<PermissionDecision> => Promise.resolve('allow_once') };

let host: Host;
beforeAll(async () => {
  host = createHost({ servers: [EVERYTHING], surface: allow, limits: { connectTimeoutMs: 20_000 } });
  await host.servers.settled();
  expect(host.servers.list()[0]?.state).toBe('ready');
}, 30_000);
afterAll(async () => {
  await host.close();
});

describe('resources of server-everything over stdio', () => {
  it('lists every resource and template with the server that offers it', async () => {
    const { items, failures } = await host.resources.list({ scope: SCOPE });
    expect(failures).toEqual([]);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((r) => r.serverId === 'everything')).toBe(true);
    expect(items.map((r) => r.uri)).toContain('demo://resource/static/document/architecture.md');
    const templates = await host.resources.templates({ scope: SCOPE, serverId: 'everything' });
    expect(templates.items.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        'demo://resource/dynamic/text/{resourceId}',
        'demo://resource/dynamic/blob/{resourceId}',
      ]),
    );
  });

  it('reads a text resource bounded for the model and the screen, and audits it with the URI hashed', async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const read = await host.resources.read({ scope: SCOPE, serverId: 'everything', uri, full: true });
    expect(read.model.text).toMatch(
      /^\[untrusted data: resource "demo:\/\/resource\/static\/document\/architecture.md"/,
    );
    expect(read.screen[0]).toMatchObject({ kind: 'text', mimeType: 'text/markdown', truncated: false });
    expect(read.contents?.[0]).toMatchObject({ uri });
    const small = await createHostRead(uri, 1000);
    expect(small.totalChars).toBeGreaterThan(1000);
    expect(small.model.text.length).toBeLessThanOrEqual(1000);
    expect(small.model.text).toMatch(/cut \d+ characters from the middle/);
    expect(small.model.truncation).toMatchObject({ totalChars: small.totalChars });
    const events = await host.audit.query({ scope: SCOPE });
    const audit = events.find((e) => e.type === 'resource.read');
    expect(audit).toMatchObject({ serverId: 'everything', data: { caller: 'user', outcome: 'success' } });
    expect(JSON.stringify(audit)).not.toContain('architecture.md');
  });

  it('expands a template from values, with completion of its variable; a value that does not fit is refused', async () => {
    const template = 'demo://resource/dynamic/text/{resourceId}';
    const done = await host.resources.complete({
      scope: SCOPE,
      serverId: 'everything',
      ref: { type: 'ref/resource', uri: template },
      argument: { name: 'resourceId', value: '7' },
    });
    expect(done.values).toEqual(['7']);
    const read = await host.resources.read({
      scope: SCOPE,
      serverId: 'everything',
      template,
      values: { resourceId: '7' },
    });
    expect(read.uri).toBe('demo://resource/dynamic/text/7');
    expect(read.screen[0]).toMatchObject({ kind: 'text' });
    expect((read.screen[0] as { text: string }).text).toMatch(/^Resource 7: /);
    await expect(
      host.resources.read({ scope: SCOPE, serverId: 'everything', template, values: { id: '7' } }),
    ).rejects.toThrow(/has no variable "id"/);
    await expect(
      host.resources.read({ scope: SCOPE, serverId: 'everything', template, values: { resourceId: '' } }),
    ).rejects.toThrow(/needs a value for "resourceId"/);
    // A value the server has no resource for: encoded into the URI (never a path), and the server's refusal named.
    await expect(
      host.resources.read({ scope: SCOPE, serverId: 'everything', template, values: { resourceId: 'a/b' } }),
    ).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('resource "demo://resource/dynamic/text/a%2Fb"'),
    });
  });

  it('describes a binary of a type not safe to render, and carries a safe one', async () => {
    const blob = await host.resources.read({
      scope: SCOPE,
      serverId: 'everything',
      uri: 'demo://resource/dynamic/blob/3',
    });
    const content = blob.screen[0];
    expect(content?.kind).toBe('binary');
    if (content?.kind === 'binary') {
      expect(content.render).toBe(content.mimeType?.startsWith('image/png') ? 'inline' : 'described');
      if (content.render === 'described') expect(content.data).toBeUndefined();
    }
    expect(blob.model.text).toMatch(/bytes, not shown\]/);
  });

  it('names the server and the URI when the resource is unknown', async () => {
    await expect(
      host.resources.read({ scope: SCOPE, serverId: 'everything', uri: 'demo://resource/nothing/here' }),
    ).rejects.toMatchObject({
      code: expect.stringMatching(/^(not_found|invalid_arguments)$/),
      message: expect.stringMatching(
        /server "everything" answered the read of resource "demo:\/\/resource\/nothing\/here"/,
      ),
    });
    const events = await host.audit.query({ scope: SCOPE });
    expect(events.filter((e) => e.type === 'resource.read').at(-1)?.data['outcome']).not.toBe('success');
  });

  it("reads on the model's behalf once the user allows it through the surface", async () => {
    const uri = 'demo://resource/static/document/architecture.md';
    const read = await host.resources.read({ scope: SCOPE, serverId: 'everything', uri, caller: 'model' });
    expect(read.model.text).toContain(uri);
    const events = await host.audit.query({ scope: SCOPE });
    expect(events.filter((e) => e.type === 'permission.decision').at(-1)).toMatchObject({
      tool: 'everything__resources/read',
      data: { decision: 'allow_once', origin: 'user_prompt' },
    });
    expect(events.filter((e) => e.type === 'resource.read').at(-1)).toMatchObject({ data: { caller: 'model' } });
  });

  it('tells a resource.updated event for a subscribed URI', async () => {
    const uri = 'demo://resource/dynamic/text/1';
    await host.resources.subscribe({ scope: SCOPE, serverId: 'everything', uri });
    const updated = nextEvent(host, 'resource.updated', (e) => e.uri === uri);
    const toggled = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'everything__toggle-subscriber-updates',
      args: {},
    });
    expect(toggled.outcome).toBe('success');
    expect(await updated).toEqual({ serverId: 'everything', uri });
    await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'everything__toggle-subscriber-updates',
      args: {},
    });
    await host.resources.unsubscribe({ scope: SCOPE, serverId: 'everything', uri });
  });

  it('subscribes again on a connection that came back', async () => {
    const uri = 'demo://resource/dynamic/text/2';
    await host.resources.subscribe({ scope: SCOPE, serverId: 'everything', uri });
    await host.servers.restart('everything');
    const updated = nextEvent(host, 'resource.updated', (e) => e.uri === uri);
    // The new server process knows the URI only if the host subscribed again; it then tells updates on the toggle.
    await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'everything__toggle-subscriber-updates',
      args: {},
    });
    expect(await updated).toEqual({ serverId: 'everything', uri });
    await host.invoke({
      scope: SCOPE,
      caller: { kind: 'user' },
      tool: 'everything__toggle-subscriber-updates',
      args: {},
    });
    await host.resources.unsubscribe({ scope: SCOPE, serverId: 'everything', uri });
  }, 20_000);
});

describe('prompts of server-everything over stdio', () => {
  it('lists prompts with their arguments and fills one', async () => {
    const { items } = await host.prompts.list({ scope: SCOPE, serverId: 'everything' });
    expect(items.map((p) => p.name)).toEqual(
      expect.arrayContaining(['simple-prompt', 'args-prompt', 'completable-prompt']),
    );
    const filled = await host.prompts.get({
      scope: SCOPE,
      serverId: 'everything',
      name: 'completable-prompt',
      args: { department: 'Sales', name: 'Eve' },
    });
    expect(filled.messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringContaining('promote Eve') });
  });

  it('completes an argument from the one chosen before it', async () => {
    const done = await host.prompts.complete({
      scope: SCOPE,
      serverId: 'everything',
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { department: 'Engineering' },
    });
    expect(done.values).toEqual(['Alice', 'Bob', 'Charlie']);
  });

  it('refuses an argument that is not text, and names the server for a missing one', async () => {
    await expect(
      host.prompts.get({ scope: SCOPE, serverId: 'everything', name: 'args-prompt', args: { city: 3 } }),
    ).rejects.toThrow(/argument "city" of prompt "args-prompt" of server "everything" must be text/);
    await expect(host.prompts.get({ scope: SCOPE, serverId: 'everything', name: 'args-prompt' })).rejects.toThrow(
      /server "everything" answered prompt "args-prompt"/,
    );
    await expect(host.prompts.get({ scope: SCOPE, serverId: 'everything', name: 'no-such-prompt' })).rejects.toThrow(
      /server "everything" answered prompt "no-such-prompt"/,
    );
  });
});

/** A read through a second host whose model budget is `modelChars`. */
async function createHostRead(uri: string, modelChars: number) {
  const small = createHost({ servers: [EVERYTHING], limits: { connectTimeoutMs: 20_000, modelChars } });
  try {
    await small.servers.settled();
    return await small.resources.read({ scope: SCOPE, serverId: 'everything', uri });
  } finally {
    await small.close();
  }
}
