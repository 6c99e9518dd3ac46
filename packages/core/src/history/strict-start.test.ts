import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { AuditEvent } from '../store/audit-record.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { SCOPE } from '../testing/host-store-fixtures.js';

// Under durability 'strict' a call is on disk before it runs (issue 38): a native tool looks, while it runs, at the
// SQLite file through a second connection, as a host opening the file after a crash would, and finds its own row.

/** What the tool saw of its own call on the other connection while it ran. */
interface Seen {
  readonly record: InvocationRecord | undefined;
  readonly audit: readonly AuditEvent[];
}

let host: Host | undefined;
let dir: string | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A host over a SQLite file whose native `look` tool reads its own call from a second store on the same file. */
async function start(config: HostConfig): Promise<{ h: Host; seen: Map<string, Seen> }> {
  dir = await mkdtemp(join(tmpdir(), 'airlock-strict-start-'));
  const file = join(dir, 'history.db');
  const seen = new Map<string, Seen>();
  const h = createHost({
    store: new SqliteStore({ path: file }),
    permissions: { rules: [{ effect: 'allow', tool: 'look' }] },
    tools: [
      {
        name: 'look',
        inputSchema: { type: 'object', properties: { mark: { type: 'string' } } },
        run: async (args) => {
          const mark = String(args['mark']);
          const other = new SqliteStore({ path: file, checkpointOnThread: false });
          try {
            const record = (await other.listInvocations(SCOPE)).find((r) => r.args['mark'] === mark);
            const audit = record === undefined ? [] : await other.queryAudit({ invocationId: record.id });
            seen.set(mark, { record, audit });
          } finally {
            await other.close();
          }
          return { content: [{ type: 'text', text: mark }] };
        },
      },
    ],
    ...config,
  });
  host = h;
  return { h, seen };
}

function look(h: Host, mark: string) {
  return h.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'look', args: { mark } });
}

/** The transitions the audit log holds for a call, in order. */
function moves(audit: readonly AuditEvent[]): unknown[] {
  return audit.filter((e) => e.type === 'invocation.transition').map((e) => e.data['to']);
}

describe("durability 'strict': a call is on disk before it runs", () => {
  it('commits the row and audit of a call a rule allows at once before its tool runs', async () => {
    const { h, seen } = await start({ durability: 'strict' });

    const result = await look(h, 'ruled');

    expect(result.outcome).toBe('success');
    const saw = seen.get('ruled');
    expect(saw?.record).toMatchObject({ id: result.invocationId, state: 'running' });
    expect(moves(saw?.audit ?? [])).toEqual(['pending', 'running']);
  });

  it('commits the row of a call that passes a hook before its tool runs', async () => {
    const { h, seen } = await start({ durability: 'strict', hooks: [() => Promise.resolve(undefined)] });

    const result = await look(h, 'hooked');

    expect(result.outcome).toBe('success');
    expect(seen.get('hooked')?.record).toMatchObject({ id: result.invocationId, state: 'running' });
  });

  it('commits calls that start together before any of them runs', async () => {
    const { h, seen } = await start({ durability: 'strict' });

    const results = await Promise.all(['a', 'b', 'c'].map((mark) => look(h, mark)));

    expect(results.map((r) => r.outcome)).toEqual(['success', 'success', 'success']);
    for (const mark of ['a', 'b', 'c']) expect(seen.get(mark)?.record?.state).toBe('running');
  });
});

describe("durability 'grouped'", () => {
  it('sends a call a rule allows before its row is committed', async () => {
    const { h, seen } = await start({});

    await look(h, 'grouped');

    expect(seen.get('grouped')?.record).toBeUndefined();
  });
});
