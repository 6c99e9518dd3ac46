import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chainEvent, verifyChain } from '../../audit/audit-chain.js';
import type { AuditEvent, AuditEventInput } from '../../store/audit-record.js';
import type { StoredDecision } from '../../store/decision-record.js';
import { SqliteStore } from './sqlite-store.js';
import { SCOPE, byId } from '../../testing/host-store-fixtures.js';

// Crash and multi-process tests: child processes write through the BUILT store (packages/core/dist), so these also
// check what ships. Run "npx tsc -b" first.

const BUILT_STORE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../dist/storage/sqlite/index.js');
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

function requireBuiltStore(): void {
  if (!existsSync(BUILT_STORE)) {
    throw new Error(`${BUILT_STORE} is missing: run "npx tsc -b packages/core" (or "npm run build") first`);
  }
}

describe('SqliteStore killed mid-write', () => {
  let dir: string;
  let file: string;
  const open: Database.Database[] = [];

  /** A connection to the test's file, closed after the test. */
  function connect(): Database.Database {
    const database = new Database(file);
    open.push(database);
    return database;
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'airlock-sqlite-'));
    file = join(dir, 'history.db');
  });
  afterEach(async () => {
    for (const database of open.splice(0)) if (database.open) database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['creating an invocation', 'first-transition', undefined],
    ['storing the result with the final transition', 'result', 'running'],
  ] as const)(
    'loses nothing and half-writes nothing when the writer is killed while %s',
    async (_, stopBefore, leaves) => {
      requireBuiltStore();
      const script = join(dir, 'writer.mjs');
      await writeFile(script, writerScript(), 'utf8');
      const args = [script, file, String(KILL_AFTER), stopBefore];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const ended = new Promise<NodeJS.Signals | null>((done) => child.on('close', (_code, signal) => done(signal)));
      const reported: string[] = [];
      let interrupted: string | undefined;
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('mid-write ')) {
          interrupted = line.slice('mid-write '.length);
          child.kill('SIGKILL');
        } else {
          reported.push(line);
        }
      });

      expect(await ended, `the writer should run until killed; its stderr: ${stderr}`).toBe('SIGKILL');
      expect(reported).toHaveLength(KILL_AFTER);
      expect(interrupted).toBe(`crash-${KILL_AFTER}`);

      const database = connect();
      const store = new SqliteStore({ database });
      for (const id of reported) {
        const n = Number(id.slice('crash-'.length));
        expect(await store.getInvocation(SCOPE, id)).toMatchObject({ state: 'success', outcome: 'success' });
        expect((await store.listTransitions(SCOPE, id)).map((t) => t.to)).toEqual(['pending', 'running', 'success']);
        const result = await store.getResult(SCOPE, id);
        expect(result?.fullText === crashText(n), `the result of ${id} is whole`).toBe(true);
      }
      const cut = `crash-${KILL_AFTER}`;
      expect((await store.getInvocation(SCOPE, cut))?.state, 'the interrupted write is rolled back whole').toBe(leaves);
      expect(await store.getResult(SCOPE, cut)).toBeUndefined();
      const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
      expect(count(ORPHAN_INVOCATIONS), 'invocations without their first transition').toBe(0);
      expect(count(ORPHAN_RESULTS), 'results without a final transition').toBe(0);
      expect(count(STATE_MISMATCHES), 'invocations whose state is not their last transition').toBe(0);
      expect(count(ENDED_WITHOUT_RESULT), 'finished invocations without their result').toBe(0);
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      await store.close();
    },
  );

  it.each([
    [`after ${KILL_AFTER_STEPS} reported writes, wherever the kill lands`, 'none', 0],
    ['inside a decision write, between the decision row and its audit event', `decision-${STOP_ROUND}`, 1],
    ['inside a batch of two audit writes, as its events are inserted together', `audit-${STOP_ROUND}`, 2],
    [
      'inside a history batch, after its history rows, as its three audit events are inserted',
      `batch-${STOP_ROUND}`,
      3,
    ],
    [
      "inside a history batch, after the call's row in its final state and before its transitions",
      `batch-${STOP_ROUND}`,
      'transitions',
    ],
  ] as const)(
    'keeps every reported decision and audit write whole, and no part of any other, when killed %s',
    async (_, stopLabel, stopInsert) => {
      requireBuiltStore();
      const stepsFile = join(dir, 'steps.mjs');
      await writeFile(stepsFile, CRASH_STEPS_MODULE, 'utf8');
      const script = join(dir, 'decision-writer.mjs');
      await writeFile(script, decisionWriterScript(stepsFile), 'utf8');
      const child = spawn(process.execPath, [script, file, stopLabel, String(stopInsert)], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const ended = exited(child);
      const reported: string[] = [];
      let interrupted: string | undefined;
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (line.startsWith('mid-write ')) {
          interrupted = line.slice('mid-write '.length);
          child.kill('SIGKILL');
          return;
        }
        reported.push(line);
        if (stopLabel === 'none' && reported.length === KILL_AFTER_STEPS) child.kill('SIGKILL');
      });

      const { signal, stderr } = await ended;
      expect(signal, `the writer should run until killed; its stderr: ${stderr}`).toBe('SIGKILL');
      const { round } = (await import(pathToFileURL(stepsFile).href)) as { round: (n: number) => CrashStep[] };
      const steps = Array.from({ length: Math.ceil(reported.length / 3) + 20 }, (_, n) => round(n)).flat();
      expect(reported, 'the writer reports its steps in order').toEqual(
        steps.slice(0, reported.length).map((s) => s.label),
      );
      if (stopLabel === 'none') expect(reported.length).toBeGreaterThanOrEqual(KILL_AFTER_STEPS);
      else {
        expect(interrupted).toBe(stopLabel);
        expect(steps[reported.length]?.label).toBe(stopLabel);
      }

      const database = connect();
      const store = new SqliteStore({ database });
      const stored = await store.queryAudit({ limit: 10_000 });
      // The chain the writer's steps make when each is whole: every event of every step, sealed in order.
      const expected: AuditEvent[] = [];
      const stepEnds = [0];
      for (const step of steps) {
        for (const input of step.events) expected.push(chainEvent(input, expected.at(-1)));
        stepEnds.push(expected.length);
      }
      const wholeSteps = stepEnds.indexOf(stored.length);
      expect(wholeSteps, `the chain (${stored.length} events) ends where a step ends`).toBeGreaterThanOrEqual(0);
      expect(stored, 'the stored chain is the writer’s chain, event for event').toEqual(
        expected.slice(0, stored.length),
      );
      expect(verifyChain(stored)).toMatchObject({ ok: true, count: stored.length });
      expect(wholeSteps, 'every reported step is stored').toBeGreaterThanOrEqual(reported.length);
      if (stopLabel !== 'none') expect(wholeSteps, 'nothing of the interrupted step is stored').toBe(reported.length);

      const done = steps.slice(0, wholeSteps);
      const decisions = done.flatMap((s) => (s.decision === undefined ? [] : [s.decision]));
      expect(byId(await store.listDecisions({}))).toEqual(byId(decisions));
      const calls = done.filter((s) => s.kind === 'batch');
      for (const call of calls) {
        const id = call.id ?? '';
        expect(await store.getInvocation(SCOPE, id)).toMatchObject({ state: 'success', outcome: 'success' });
        expect((await store.listTransitions(SCOPE, id)).map((t) => t.to)).toEqual(['pending', 'running', 'success']);
        const result = await store.getResult(SCOPE, id);
        expect(result?.fullText === call.fullText, `the result of ${id} is whole`).toBe(true);
      }
      const count = (sql: string) => (database.prepare(sql).get() as { n: number }).n;
      expect(count('SELECT count(*) AS n FROM invocations'), 'no invocation beyond the whole steps').toBe(calls.length);
      expect(count('SELECT count(*) AS n FROM invocation_transitions')).toBe(3 * calls.length);
      expect(count('SELECT count(*) AS n FROM invocation_results')).toBe(calls.length);
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      await store.close();
    },
  );
});

describe('SqliteStore shared by two processes', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'airlock-sqlite-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds one valid chain when two processes append to the same file at the same time', async () => {
    requireBuiltStore();
    const file = join(dir, 'shared.db');
    const script = join(dir, 'appender.mjs');
    await writeFile(script, appenderScript(), 'utf8');
    const names = ['alpha', 'beta'];
    const children = names.map((name) =>
      spawn(process.execPath, [script, file, name, String(APPENDS_PER_PROCESS)], { stdio: ['pipe', 'pipe', 'pipe'] }),
    );
    const endings = children.map(exited);
    await Promise.all(children.map((child, i) => ready(child.stdout, endings[i]!)));
    for (const child of children) child.stdin.end('go\n');

    for (const { code, stderr } of await Promise.all(endings)) expect(code, `an appender failed: ${stderr}`).toBe(0);
    const store = new SqliteStore({ database: new Database(file) });
    const chain = await store.queryAudit({ limit: 10_000 });
    expect(verifyChain(chain)).toMatchObject({ ok: true, count: 2 * APPENDS_PER_PROCESS });
    for (const name of names) {
      const own = chain.filter((e) => e.userId === name).map((e) => e.data['label']);
      expect(own).toEqual(Array.from({ length: APPENDS_PER_PROCESS }, (_, i) => `${name}-${i}`));
      expect(await store.listDecisions({ userId: name })).toHaveLength(APPENDS_PER_PROCESS / 10);
    }
    const turns = chain.filter((e, i) => i > 0 && e.userId !== chain[i - 1]?.userId).length;
    expect(turns, 'the two processes took turns (else this test proves nothing)').toBeGreaterThan(0);
    await store.close();
  });
});

/** Resolves when the child exits, with how and its stderr. */
function exited(
  child: ChildProcessByStdio<Writable | null, Readable, Readable>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stderr })));
}

/** Resolves at a child's first line; rejects with its stderr if it ends first (it could not open the store). */
function ready(stdout: Readable, ending: Promise<{ code: number | null; stderr: string }>): Promise<string> {
  const line = new Promise<string>((done) => createInterface({ input: stdout }).once('line', done));
  const ended = ending.then(({ code, stderr }) => {
    throw new Error(`a child ended (exit code ${String(code)}) before it was ready: ${stderr}`);
  });
  return Promise.race([line, ended]);
}

const KILL_AFTER = 200;

const ORPHAN_INVOCATIONS = `SELECT count(*) AS n FROM invocations i WHERE NOT EXISTS
  (SELECT 1 FROM invocation_transitions t WHERE t.invocation_id = i.id AND t.seq = 1 AND t.to_state = 'pending')`;
const ORPHAN_RESULTS = `SELECT count(*) AS n FROM invocation_results r WHERE NOT EXISTS
  (SELECT 1 FROM invocation_transitions t WHERE t.invocation_id = r.invocation_id
     AND t.to_state IN ('success', 'error', 'cancelled'))`;
const STATE_MISMATCHES = `SELECT count(*) AS n FROM invocations i WHERE i.state IS NOT
  (SELECT t.to_state FROM invocation_transitions t WHERE t.invocation_id = i.id ORDER BY t.seq DESC LIMIT 1)`;
// The writer ends every call with a result, so here (not in general) a finished call without one is a torn write.
const ENDED_WITHOUT_RESULT = `SELECT count(*) AS n FROM invocations i
  WHERE i.state IN ('success', 'error', 'cancelled') AND i.id NOT IN (SELECT invocation_id FROM invocation_results)`;

const CRASH_TEXT_REPEAT = 5000;

/** The full text the writer stores for call `n`: about 64 KB, different per call, so a torn write would show. */
function crashText(n: number): string {
  return `result ${n} ✓ `.repeat(CRASH_TEXT_REPEAT);
}

/**
 * A writer that creates, runs and finishes calls with the BUILT store, printing each id once its last write has
 * committed. Call number `stopAt` is interrupted inside a transaction: the database it hands the store wraps
 * better-sqlite3 (the store takes any driver of the right shape) and, just before the chosen statement, prints
 * `mid-write <id>` and blocks until the test kills it. Killed there, a store without atomic writes leaves a half-write.
 */
function writerScript(): string {
  return `
import Database from ${JSON.stringify(pathToFileURL(DRIVER).href)};
import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT_STORE).href)};

const [file, stopAtText, stopBefore] = process.argv.slice(2);
const stopAt = Number(stopAtText);
const raw = new Database(file);
let current = -1;

function stopsHere(sql, params) {
  if (current !== stopAt) return false;
  if (stopBefore === 'result') return sql.startsWith('INSERT INTO invocation_results');
  return sql.startsWith('INSERT INTO invocation_transitions') && params[1] === 1;
}

const database = {
  prepare(sql) {
    const statement = raw.prepare(sql);
    return {
      run(...params) {
        if (stopsHere(sql, params)) {
          process.stdout.write('mid-write crash-' + current + '\\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        }
        return statement.run(...params);
      },
      get: (...params) => statement.get(...params),
      all: (...params) => statement.all(...params),
    };
  },
  exec: (sql) => raw.exec(sql),
  pragma: (sql) => raw.pragma(sql),
  transaction: (fn) => raw.transaction(fn),
  close: () => raw.close(),
};

const store = new SqliteStore({ database });
const scope = ${JSON.stringify(SCOPE)};
const crashText = (n) => ('result ' + n + ' ✓ ').repeat(${CRASH_TEXT_REPEAT});
for (let n = 0; n <= stopAt; n += 1) {
  current = n;
  const id = 'crash-' + n;
  const at = 1700000000000 + n * 10;
  const move = (seq, from, to, outcome) => ({ invocationId: id, seq, from, to, at: at + seq, outcome, error: null });
  await store.write([{
    kind: 'create',
    record: { id, scope, caller: { kind: 'model' }, tool: 'echo', serverId: null, originalName: 'echo',
      definitionHash: 'd', args: { n }, argsHash: 'a', state: 'pending', outcome: null, error: null, createdAt: at,
      updatedAt: at },
    first: { invocationId: id, seq: 1, from: null, to: 'pending', at, outcome: null, error: null },
  }]);
  await store.write([{ kind: 'transition', scope, transition: move(2, 'pending', 'running', null) }]);
  const fullText = crashText(n);
  await store.write([{ kind: 'transition', scope, transition: move(3, 'running', 'success', 'success'), result: {
    invocationId: id,
    model: { content: [{ type: 'text', text: fullText.slice(0, 100) }], text: fullText.slice(0, 100), isError: false },
    screen: { blocks: [], isError: false, handle: 'h' },
    fullText,
    rawJson: JSON.stringify({ content: [{ type: 'text', text: fullText }] }),
  } }]);
  process.stdout.write(id + '\\n');
}
process.stderr.write('the writer finished without being stopped mid-write\\n');
`;
}

/** A step of the decision writer: one store call and the audit events it appends. */
interface CrashStep {
  readonly label: string;
  readonly kind: 'decision' | 'audit' | 'batch';
  readonly events: AuditEventInput[];
  readonly decision?: StoredDecision;
  /** The invocation a batch step creates and finishes, and its result's full text. */
  readonly id?: string;
  readonly fullText?: string;
}

const KILL_AFTER_STEPS = 150;
const STOP_ROUND = 40;
const APPENDS_PER_PROCESS = 1000;

/**
 * The decision writer's steps, as a module both the writer and the test import: round `n` puts a decision, appends
 * two events, and writes a batch that creates, runs and finishes a call, each history write with its event. Every
 * value is derived from `n`, so the test knows exactly what each step stores.
 */
const CRASH_STEPS_MODULE = `
const T0 = 1700000000000;
const NOTE = 'ünïcødé ✓ 𝄞 '.repeat(40);
const scope = ${JSON.stringify(SCOPE)};

function event(label, k, n, overrides) {
  return {
    type: 'permission.decision', at: T0 + n * 10 + k, userId: scope.userId, workspaceId: scope.workspaceId,
    conversationId: scope.conversationId, serverId: 'files', tool: 'tool-' + n, argsHash: null, riskTier: 'medium',
    invocationId: null, data: { label, k, note: NOTE }, ...overrides,
  };
}

export function round(n) {
  const at = T0 + n * 10;
  const decision = {
    id: 'dec-' + n, userId: scope.userId, workspaceId: scope.workspaceId, serverId: 'files',
    serverIdentity: 'identity-of-files', tool: 'tool-' + n, argsHash: n % 2 === 0 ? null : 'args-' + n,
    definitionHash: 'def-' + n, effect: n % 3 === 0 ? 'deny' : 'allow', riskTier: 'medium', grantedAt: at,
    expiresAt: n % 5 === 0 ? null : at + 86400000, grantedBy: scope.userId,
  };
  const id = 'inv-' + n;
  const fullText = ('result ' + n + ' ✓ ').repeat(2000);
  const step = (k) => event('batch-' + n, k, n, { type: 'invocation.transition', invocationId: id, argsHash: 'a' });
  const move = (seq, from, to, outcome) => ({ invocationId: id, seq, from, to, at: at + seq - 1, outcome, error: null });
  const audits = [step(0), step(1), step(2)];
  const record = {
    id, scope, caller: { kind: 'model' }, tool: 'echo', serverId: null, originalName: 'echo', definitionHash: 'd',
    args: { n }, argsHash: 'a', state: 'pending', outcome: null, error: null, createdAt: at, updatedAt: at,
  };
  const result = {
    invocationId: id,
    model: { content: [{ type: 'text', text: fullText.slice(0, 100) }], text: fullText.slice(0, 100), isError: false },
    screen: { blocks: [], isError: false, handle: 'h' },
    fullText,
    rawJson: JSON.stringify({ content: [{ type: 'text', text: fullText }] }),
  };
  return [
    { label: 'decision-' + n, kind: 'decision', decision,
      events: [event('decision-' + n, 0, n, { argsHash: decision.argsHash, data: { label: 'decision-' + n, decisionId: decision.id } })] },
    { label: 'audit-' + n, kind: 'audit',
      events: [event('audit-' + n, 1, n), event('audit-' + n, 2, n, { type: 'elicitation', serverId: null, tool: null })] },
    { label: 'batch-' + n, kind: 'batch', id, fullText, events: audits, writes: [
      { kind: 'create', record, first: move(1, null, 'pending', null), audit: audits[0] },
      { kind: 'transition', scope, transition: move(2, 'pending', 'running', null), audit: audits[1] },
      { kind: 'transition', scope, transition: move(3, 'running', 'success', 'success'), result, audit: audits[2] },
    ] },
  ];
}
`;

/**
 * A writer that runs the steps of `CRASH_STEPS_MODULE` round after round with the BUILT store, printing each step's
 * label once it has committed. Given a stop label and a number k, it blocks just before the statement that inserts the
 * k-th audit event of that step (the store inserts a batch's events together, after its other rows); given
 * 'transitions', just before the step's first insert of transitions (after its calls' rows). It blocks inside the
 * step's transaction, after the step's earlier statements ran, printing `mid-write <label>`, until killed.
 */
function decisionWriterScript(stepsFile: string): string {
  return `
import Database from ${JSON.stringify(pathToFileURL(DRIVER).href)};
import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT_STORE).href)};
import { round } from ${JSON.stringify(pathToFileURL(stepsFile).href)};

const [file, stopLabel, stopInsertText] = process.argv.slice(2);
const stopInsert = Number(stopInsertText);
const raw = new Database(file);
let current = '';
let auditRows = 0;

const database = {
  prepare(sql) {
    const statement = raw.prepare(sql);
    const auditInsert = sql.startsWith('INSERT INTO audit_events');
    const transitionInsert = sql.startsWith('INSERT INTO invocation_transitions');
    return {
      run(...params) {
        let stop = false;
        if (auditInsert) {
          const rows = params.length / 14;
          stop = auditRows < stopInsert && auditRows + rows >= stopInsert;
          auditRows += rows;
        }
        if (transitionInsert && stopInsertText === 'transitions') stop = true;
        if (stop && current === stopLabel) {
          process.stdout.write('mid-write ' + current + '\\n');
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
        }
        return statement.run(...params);
      },
      get: (...params) => statement.get(...params),
      all: (...params) => statement.all(...params),
    };
  },
  exec: (sql) => raw.exec(sql),
  pragma: (sql) => raw.pragma(sql),
  transaction: (fn) => raw.transaction(fn),
  close: () => raw.close(),
};

const store = new SqliteStore({ database });
for (let n = 0; n < 100000; n += 1) {
  for (const step of round(n)) {
    current = step.label;
    auditRows = 0;
    if (step.kind === 'decision') await store.write([{ kind: 'decision.put', decision: step.decision, audit: step.events[0] }]);
    else if (step.kind === 'audit') await store.write(step.events.map((audit) => ({ kind: 'audit', audit })));
    else await store.write(step.writes);
    process.stdout.write(step.label + '\\n');
  }
}
process.stderr.write('the writer ran out of rounds without being stopped\\n');
`;
}

/**
 * An appender for the two-process test: opens the store on the shared file, prints "ready", waits for a line on
 * stdin, then appends events labelled <name>-<i> one call at a time, every tenth with a decision (a decision.put write).
 */
function appenderScript(): string {
  return `
import { createInterface } from 'node:readline';
import Database from ${JSON.stringify(pathToFileURL(DRIVER).href)};
import { SqliteStore } from ${JSON.stringify(pathToFileURL(BUILT_STORE).href)};

const [file, name, countText] = process.argv.slice(2);
const store = new SqliteStore({ database: new Database(file) });
const input = createInterface({ input: process.stdin });
const go = new Promise((resolve) => input.once('line', resolve));
process.stdout.write('ready\\n');
await go;
input.close();
for (let i = 0; i < Number(countText); i += 1) {
  const event = {
    type: 'permission.decision', at: i, userId: name, workspaceId: 'w', conversationId: null, serverId: null,
    tool: null, argsHash: null, riskTier: null, invocationId: null, data: { label: name + '-' + i },
  };
  if (i % 10 === 0) {
    await store.write([{ kind: 'decision.put', decision: {
      id: name + '-decision-' + i, userId: name, workspaceId: 'w', serverId: 's', serverIdentity: 's', tool: 't' + i,
      argsHash: null, definitionHash: 'd', effect: 'allow', riskTier: 'low', grantedAt: i, expiresAt: null,
      grantedBy: name,
    }, audit: event }]);
  } else {
    await store.write([{ kind: 'audit', audit: event }]);
  }
}
await store.close();
`;
}
