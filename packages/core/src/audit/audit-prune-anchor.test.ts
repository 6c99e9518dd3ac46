import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { HostStore } from '../store/host-store.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { FakeClock } from '../testing/fake-clock.js';
import { auditInput, auditWrites } from '../testing/host-store-fixtures.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { readAnchors } from './audit-anchor.js';
import { GENESIS_HASH } from './audit-chain.js';
import { AuditLog } from './audit-log.js';

const DAY = 24 * 60 * 60 * 1000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const dir = () => scratchDir('airlock-audit-');

function sqlite(): { store: HostStore; file: string } {
  const file = join(dir(), 'airlock.db');
  const store = new SqliteStore({ database: new Database(file) });
  cleanups.push(() => store.close());
  return { store, file };
}

function memory(): { store: HostStore; file: undefined } {
  const store = new MemoryStore();
  cleanups.push(() => store.close());
  return { store, file: undefined };
}

/** An audit log over `store` whose writes go straight to it (the host's writer adds only queuing). */
function logOver(store: HostStore, clock: FakeClock, anchorFile?: string): AuditLog {
  const writes = {
    drain: () => Promise.resolve(),
    commit: (w: Parameters<HostStore['write']>[0][number]) => store.write([w]),
  };
  return new AuditLog(store, writes, { clock, ...(anchorFile === undefined ? {} : { anchorFile }) });
}

/** Events `label0..labelN-1`, one a day from `start`. */
async function daily(store: HostStore, count: number, start: number, prefix = 'e'): Promise<void> {
  const inputs = Array.from({ length: count }, (_, i) => auditInput(`${prefix}${i}`, { at: start + i * DAY }));
  await store.write(auditWrites(inputs));
}

describe.each([
  ['SqliteStore (a real file)', sqlite],
  ['MemoryStore', memory],
] as const)('the audit chain pruned and anchored, on %s', (_name, open) => {
  it('verify holds across a prune, starting from the checkpoint and saying so', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { store } = open();
    const log = logOver(store, clock);
    await daily(store, 10, clock.t);
    expect(await log.verify()).toMatchObject({ ok: true, count: 10, startedAfter: 0, checkpointSeq: null });

    clock.t += 30 * DAY;
    const report = await log.prune({ before: Date.UTC(2026, 0, 7) }); // events of Jan 1..6
    expect(report).toEqual({ pruned: 6, throughSeq: 6, checkpointSeq: 11 });
    const verdict = await log.verify();
    expect(verdict).toMatchObject({ ok: true, count: 5, lastSeq: 11, startedAfter: 6, checkpointSeq: 11 });

    // Before this change, verify walked from genesis: the first kept event (7) was reported as removed.
    await store.write(auditWrites([auditInput('later')]));
    await log.prune({ throughSeq: 8 });
    expect(await log.verify()).toMatchObject({ ok: true, startedAfter: 8, checkpointSeq: 13, count: 5 });
    expect(await log.prune({ before: Date.UTC(2026, 0, 1) })).toEqual({
      pruned: 0,
      throughSeq: null,
      checkpointSeq: null,
    });
  });

  it('still finds an edited event after a prune', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { store, file } = open();
    if (file === undefined) return; // editing in place needs the file
    const log = logOver(store, clock);
    await daily(store, 6, clock.t);
    await log.prune({ throughSeq: 3 });
    const db = new Database(file);
    db.prepare("UPDATE audit_events SET data = json_set(data, '$.label', 'forged') WHERE seq = 5").run();
    db.close();
    expect(await log.verify()).toMatchObject({ ok: false, seq: 5, startedAfter: 3 });
  });

  it('reports an edited checkpoint as a break, not a throw', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { store, file } = open();
    if (file === undefined) return; // editing in place needs the file
    const log = logOver(store, clock);
    await daily(store, 4, clock.t);
    await log.prune({ throughSeq: 2 });
    const db = new Database(file);
    db.prepare("UPDATE audit_events SET data = json_set(data, '$.throughSeq', 'one') WHERE seq = 5").run();
    db.close();
    expect(await log.verify()).toMatchObject({ ok: false, seq: 3, startedAfter: 0 });
  });

  it('anchors the head to a file outside the store, and verify reports the newest events removed after it', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { store, file } = open();
    const anchors = join(dir(), 'anchors.ndjson');
    const log = logOver(store, clock, anchors);
    await daily(store, 5, clock.t);
    const anchor = await log.anchor();
    const head = (await store.queryAudit({})).at(-1)!;
    expect(anchor).toEqual({ seq: 5, hash: head.hash, at: clock.t });
    expect(readFileSync(anchors, 'utf8')).toBe(`${JSON.stringify(anchor)}\n`);
    await daily(store, 2, clock.t + 5 * DAY, 'f');
    await log.anchor();
    const read = await readAnchors(anchors);
    expect(read.map((a) => a.seq)).toEqual([5, 7]);
    expect(await log.verify({ anchors: read })).toMatchObject({ ok: true, anchors: 2, count: 7 });

    // A prune keeps the anchors reachable: the checkpoint covers event 5, and event 7 is still there.
    await log.prune({ throughSeq: 5 });
    expect(await log.verify({ anchors: read })).toMatchObject({ ok: true, startedAfter: 5 });

    await store.write(auditWrites([auditInput('g')]));
    await log.anchor();
    const all = await readAnchors(anchors);
    expect(all.map((a) => a.seq)).toEqual([5, 7, 9]);
    expect(await log.verify({ anchors: all })).toMatchObject({ ok: true, anchors: 3 });

    if (file === undefined) return;
    // The newest event deleted: the chain alone still verifies; the anchor says what is missing.
    const db = new Database(file);
    db.prepare('DELETE FROM audit_events WHERE seq >= 9').run();
    db.close();
    expect(await log.verify()).toMatchObject({ ok: true, lastSeq: 8 });
    const truncated = await log.verify({ anchors: all });
    expect(truncated).toMatchObject({ ok: false, seq: 9 });
    expect(truncated.ok ? '' : truncated.problem).toMatch(/chain ends at event 8, but event 9 was anchored .*removed/);
  });

  it('reports an anchored event rewritten under the same number', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const { store } = open();
    const log = logOver(store, clock);
    await daily(store, 3, clock.t);
    const anchor = await log.anchor();
    const forged = { ...anchor, hash: 'a'.repeat(64) };
    const verdict = await log.verify({ anchors: [forged] });
    expect(verdict.ok ? '' : verdict.problem).toMatch(/event 3 does not have the hash anchored/);
  });
});

describe('anchoring on a schedule', () => {
  it("appends the head every audit.anchorEveryMs of the host's clock", async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const anchorFile = join(dir(), 'anchors.ndjson');
    const host = createHost({ store: new MemoryStore(), clock, audit: { anchorFile, anchorEveryMs: 60_000 } });
    cleanups.push(() => host.close());
    const written = () => readFileSync(anchorFile, 'utf8').trim().split('\n');
    clock.advance(59_999);
    expect(await host.audit.anchoring()).toBeUndefined();
    clock.advance(1);
    expect(await host.audit.anchoring()).toEqual({ seq: 0, hash: GENESIS_HASH, at: Date.UTC(2026, 0, 1) + 60_000 });
    clock.advance(60_000);
    await host.audit.anchoring();
    expect(written().map((line) => (JSON.parse(line) as { at: number }).at)).toEqual([
      Date.UTC(2026, 0, 1) + 60_000,
      Date.UTC(2026, 0, 1) + 120_000,
    ]);
  });

  it('refuses an anchor file line that is not an anchor, naming the file and line', async () => {
    const file = join(dir(), 'bad.ndjson');
    writeFileSync(file, '{"seq":1,"hash":"x","at":1}\nnot json\n');
    await expect(readAnchors(file)).rejects.toThrow(/line 2 of the anchor file .*bad\.ndjson/);
  });
});
