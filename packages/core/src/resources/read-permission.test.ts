import { scratchDir } from '../testing/scratch-dir.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { parseRules } from '../permissions/permission-rules.js';
import type { PermissionDecision } from '../permissions/permission-request.js';
import { scriptServer, SCOPE } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** A stdio server with two text resources that appends the URI of every read it receives to `log`. */
function notesServer(log: string) {
  return scriptServer(
    'notes',
    `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  const reply = (result) => send({ jsonrpc: '2.0', id: m.id, result });
  if (m.method === 'initialize')
    return reply({ protocolVersion: m.params.protocolVersion, capabilities: { resources: {}, tools: {} }, serverInfo: { name: 'notes', version: '1' } });
  if (m.method === 'tools/list') return reply({ tools: [] });
  if (m.method === 'resources/read') {
    require('node:fs').appendFileSync(${JSON.stringify(log)}, m.params.uri + '\\n');
    return reply({ contents: [{ uri: m.params.uri, mimeType: 'text/plain', text: 'note ' + m.params.uri }] });
  }
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`,
  );
}

async function start(options: { rules?: unknown[]; surface?: ScriptedSurface | null } = {}) {
  const log = join(scratchDir('airlock-reads-'), 'reads.log');
  const surface = options.surface === undefined ? new ScriptedSurface('deny_once') : options.surface;
  const started = createHost({
    servers: [notesServer(log)],
    ...(surface === null ? {} : { surface }),
    permissions: { rules: options.rules ?? [] },
    limits: { connectTimeoutMs: 20_000 },
  });
  host = started;
  await started.servers.settled();
  /** The URIs the server was asked for, in order. */
  const reads = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { host: started, surface, reads };
}

const read = (h: Host, uri: string, caller?: 'user' | 'model') =>
  h.resources.read({ scope: SCOPE, serverId: 'notes', uri, ...(caller === undefined ? {} : { caller }) });

describe('reads the user starts', () => {
  it("run without asking when no resource rule matches, even beside a rule for the same server's tools", async () => {
    const { host, surface, reads } = await start({ rules: [{ server: 'notes', effect: 'deny' }] });
    await expect(read(host, 'notes://a')).resolves.toMatchObject({ uri: 'notes://a' });
    expect(surface?.requests).toEqual([]);
    expect(reads()).toEqual(['notes://a']);
  });

  it('are refused by a deny rule of kind resource: nothing reaches the server, and both the decision and the read are audited', async () => {
    const rules = [{ kind: 'resource', server: 'notes', uri: 'notes://secret/**', effect: 'deny' }];
    const { host, reads } = await start({ rules });
    await expect(read(host, 'notes://secret/plans/q3')).rejects.toMatchObject({
      code: 'permission_denied',
      message: expect.stringMatching(
        /^the read of resource "notes:\/\/secret\/plans\/q3" of server "notes" was refused: .*host rule/,
      ),
    });
    await read(host, 'notes://open');
    expect(reads()).toEqual(['notes://open']);
    const events = await host.audit.query({ scope: SCOPE });
    expect(events.find((e) => e.type === 'permission.decision')).toMatchObject({
      serverId: 'notes',
      tool: 'notes__resources/read',
      data: { decision: 'deny', origin: 'rule' },
    });
    const outcomes = events.filter((e) => e.type === 'resource.read').map((e) => e.data['outcome']);
    expect(outcomes).toEqual(['permission_denied', 'success']);
    expect(JSON.stringify(events)).not.toContain('plans/q3');
  });

  it('ask the user when a resource rule says ask', async () => {
    const surface = new ScriptedSurface('allow_once');
    const { host } = await start({ rules: [{ kind: 'resource', server: 'notes', effect: 'ask' }], surface });
    await read(host, 'notes://a');
    expect(surface.requests).toHaveLength(1);
    expect(surface.requests[0]).toMatchObject({
      caller: { kind: 'user' },
      args: { uri: 'notes://a' },
      reason: 'rule_says_ask',
    });
  });
});

describe("reads on the model's behalf", () => {
  it('ask the user, showing the URI; deny once refuses the read and the server is not asked', async () => {
    const { host, surface, reads } = await start();
    await expect(read(host, 'notes://a', 'model')).rejects.toMatchObject({ code: 'permission_denied' });
    expect(surface?.requests[0]).toMatchObject({
      caller: { kind: 'model' },
      tool: { name: 'notes__resources/read', originalName: 'resources/read' },
      server: { id: 'notes', trusted: false },
      args: { uri: 'notes://a' },
      risk: { tier: 'medium', destructive: false },
      allowAlways: { offered: true },
      reason: 'first_time',
    });
    await read(host, 'notes://b');
    expect(reads()).toEqual(['notes://b']);
  });

  it('remember allow always for the server: later reads by the model are not asked again', async () => {
    const answers: PermissionDecision[] = ['allow_always', 'deny_once'];
    const surface = new ScriptedSurface({ permissions: answers });
    const { host, reads } = await start({ surface });
    await read(host, 'notes://a', 'model');
    await read(host, 'notes://b', 'model');
    expect(surface.requests).toHaveLength(1);
    expect(reads()).toEqual(['notes://a', 'notes://b']);
    expect(host.permissions.list({ scope: SCOPE })).toMatchObject([
      { serverId: 'notes', tool: 'resources/read', effect: 'allow', argsHash: null },
    ]);
  });

  it('follow a host rule before the user: an allow rule reads without asking, a deny rule refuses', async () => {
    const surface = new ScriptedSurface('deny_once');
    const rules = [
      { kind: 'resource', server: 'notes', uri: 'notes://public/**', effect: 'allow' },
      { kind: 'resource', server: 'notes', uri: 'notes://private/**', effect: 'deny' },
    ];
    const { host, reads } = await start({ rules, surface });
    await read(host, 'notes://public/a', 'model');
    await expect(read(host, 'notes://private/a', 'model')).rejects.toMatchObject({ code: 'permission_denied' });
    expect(surface.requests).toEqual([]);
    expect(reads()).toEqual(['notes://public/a']);
  });

  it('fail closed with no surface to ask', async () => {
    const { host } = await start({ surface: null });
    await expect(read(host, 'notes://a', 'model')).rejects.toMatchObject({
      code: 'permission_denied',
      message: expect.stringContaining('no surface is attached'),
    });
  });
});

describe('resource rules', () => {
  it('are refused with a clear error when they name a tool, or when a uri is given without the kind', () => {
    expect(() => parseRules([{ kind: 'resource', tool: 'x', effect: 'deny' }])).toThrow(
      /rules\[0\]\.tool does not apply to a resource rule/,
    );
    expect(() => parseRules([{ uri: 'notes://**', effect: 'deny' }])).toThrow(
      /rules\[0\]\.uri applies to a resource rule only/,
    );
    expect(() => parseRules([{ kind: 'file', server: 'x', effect: 'deny' }])).toThrow(
      /rules\[0\]\.kind must be "tool" or "resource"/,
    );
    expect(parseRules([{ kind: 'resource', uri: 'notes://**', effect: 'deny' }])[0]).toMatchObject({
      kind: 'resource',
      uri: 'notes://**',
    });
  });
});
