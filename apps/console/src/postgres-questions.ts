import { randomUUID } from 'node:crypto';
import type { Clock, ElicitationRequest, PermissionDecision, PermissionRequest } from '@airlock/core';
import { DB_NOW_MS, PostgresNews, STALE_MS } from '@airlock/core/postgres';
import type pg from 'pg';
import type { KitClaim } from '@airlock/web-kit';
import type { ElicitationClosed, ElicitationReply, QuestionBus, QuestionNews } from './question-bus.js';
import type { SignInOutcome } from './console-sign-in.js';
import type { Tenant } from '@airlock/web-kit';
import { ASKED_KINDS, InstanceRequests, REPLY_MS } from './instance-requests.js';
import { HeldFlows } from './held-flows.js';

/** The channel on which instances tell each other of questions (opened, answered, closed) and of cancels. */
export const QUESTIONS_CHANNEL = 'airlock_questions';

/** How old a question still open may be for an instance that starts to show it (older ones belong to a dead call). */
const SHOWN_FOR_MS = 10 * 60 * 1000;
/** How long a closed question is kept. */
const KEPT_MS = 24 * 60 * 60 * 1000;
/**
 * How far before the last news it heard a listener whose connection came back reads again: a row is dated as its
 * statement runs and seen once it commits, a few milliseconds later; the rest is room to spare.
 */
const CATCH_UP_MARGIN_MS = 5_000;
/** How long news is kept: past a longer cut, the instances it spoke of are declared dead and their questions closed. */
const NEWS_KEPT_MS = 60 * 60 * 1000;
/** News is pruned as LISTEN starts and after this many heard, so a long-running instance keeps the table small. */
const PRUNE_EVERY = 1_000;

/**
 * The end of a statement that keeps news (`json`, an SQL expression over the rows of `from`, when given) and
 * notifies its seq: the notification goes out when the change and its news commit, together.
 */
const told = (json: string, from?: string) =>
  `told AS (INSERT INTO question_news (told_at, news) SELECT ${DB_NOW_MS}, (${json})::text` +
  `${from === undefined ? '' : ` FROM ${from}`} RETURNING seq) SELECT seq, pg_notify('${QUESTIONS_CHANNEL}', seq::text) FROM told`;
const news = (fields: string) => `json_build_object(${fields})`;

const SQL = {
  open:
    'WITH q AS (INSERT INTO open_questions (id, user_id, workspace_id, instance_id, request, opened_at) ' +
    `VALUES ($1, $2, $3, $4, $5, $6) RETURNING id), ${told(news("'kind', 'opened', 'id', id, 'instance', $4::text"), 'q')}`,
  // Only a question whose instance is alive (a heartbeat in the last $6 ms, on the database's clock, as heartbeats
  // are written) can be answered: a dead one holds no call.
  claim:
    'WITH won AS (UPDATE open_questions q SET answer = $4, closed_at = $5 WHERE id = $1 AND user_id = $2 AND ' +
    'workspace_id = $3 AND closed_at IS NULL AND EXISTS (SELECT 1 FROM instances i WHERE i.id = q.instance_id ' +
    `AND i.heartbeat_at >= ${DB_NOW_MS} - $6) RETURNING id, user_id, workspace_id), ` +
    told(
      news("'kind', 'answered', 'id', id, 'userId', user_id, 'workspaceId', workspace_id, 'decision', $4::text"),
      'won',
    ),
  known: 'SELECT instance_id, closed_at FROM open_questions WHERE id = $1 AND user_id = $2 AND workspace_id = $3',
  close:
    'WITH c AS (UPDATE open_questions SET closed_at = $2 WHERE id = $1 AND closed_at IS NULL ' +
    `RETURNING id, user_id, workspace_id), ${told(news("'kind', 'closed', 'id', id, 'userId', user_id, 'workspaceId', workspace_id"), 'c')}`,
  cancel: `WITH ${told(news("'kind', 'cancel', 'id', $1::text, 'userId', $2::text, 'workspaceId', $3::text"))}`,
  closeElicitation:
    'WITH c AS (UPDATE open_questions SET closed_at = $2 WHERE id = $1 RETURNING id, user_id, workspace_id), ' +
    told(
      news(
        "'kind', 'elicitation.closed', 'id', id, 'userId', user_id, 'workspaceId', workspace_id, 'closed', $3::json",
      ),
      'c',
    ),
  tell: `WITH ${told('$1::text')}`,
  closeAllOf:
    'WITH c AS (UPDATE open_questions SET closed_at = $2 WHERE instance_id = $1 AND closed_at IS NULL ' +
    'RETURNING id, user_id, workspace_id, request), ' +
    told(
      news(
        `'kind', CASE WHEN request LIKE '{"elicitation"%' THEN 'elicitation.closed' ELSE 'closed' END, 'id', id, ` +
          `'userId', user_id, 'workspaceId', workspace_id, ` +
          `'closed', json_build_object('id', id, 'action', 'cancel', 'end', 'call_ended')`,
      ),
      'c',
    ),
  request: 'SELECT request FROM open_questions WHERE id = $1 AND closed_at IS NULL',
  // Closed questions are kept a day (a late answer is told it came too late), then dropped as an instance starts.
  prune: 'DELETE FROM open_questions WHERE closed_at < $1',
  pruneNews: `DELETE FROM question_news WHERE told_at < ${DB_NOW_MS} - $1`,
  dbNow: `SELECT ${DB_NOW_MS} AS now`,
  heard: `SELECT seq, told_at, news, ${DB_NOW_MS} AS now FROM question_news WHERE seq = $1`,
  // A request and its reply, once the exchange is over: what they carried (an answer, a sign-in's redirect) goes.
  forget: 'DELETE FROM question_news WHERE seq = ANY($1::bigint[])',
  since: `SELECT seq, told_at, news, ${DB_NOW_MS} AS now FROM question_news WHERE told_at >= $1 ORDER BY seq`,
  openElsewhere:
    'SELECT request FROM open_questions WHERE closed_at IS NULL AND instance_id <> $1 AND opened_at > $2 ORDER BY opened_at',
} as const;

interface Told {
  readonly kind?: unknown;
  readonly id?: unknown;
  readonly instance?: unknown;
  readonly userId?: unknown;
  readonly workspaceId?: unknown;
  readonly decision?: unknown;
  readonly closed?: unknown;
  readonly answer?: unknown;
  readonly replyTo?: unknown;
  readonly reply?: unknown;
  readonly redirect?: unknown;
}

/** A question as its row keeps it: a permission request as is, a server's question under `elicitation`. */
function newsOfRow(json: string): QuestionNews {
  const parsed = JSON.parse(json) as PermissionRequest | { readonly elicitation: ElicitationRequest };
  return 'elicitation' in parsed
    ? { kind: 'elicitation.opened', request: parsed.elicitation }
    : { kind: 'opened', request: parsed };
}

/** A row of `question_news`, with the database's clock as it was read (BIGINTs come as strings). */
interface NewsRow {
  readonly seq: string;
  readonly told_at: string;
  readonly news: string;
  readonly now: string;
}

/**
 * The questions of console instances on one PostgreSQL database: a row per question in `open_questions` (the first
 * answer closes it, in one UPDATE, whichever instance it reaches) and a row per thing told in `question_news`, whose
 * seq a NOTIFY on `QUESTIONS_CHANNEL` carries, so every instance shows the question on its tabs and hears its answer
 * at once. What is told is handled in the order it arrives. A lost LISTEN connection is made again, then the news
 * told while it was down is read from its rows and the questions open elsewhere are read afresh: an answer, a close
 * or a cancel sent meanwhile still reaches its call.
 */
export class PostgresQuestions implements QuestionBus {
  readonly shared = true;
  readonly #instance: string;
  readonly #pool: pg.Pool;
  readonly #now: () => number;
  readonly #onError: (error: Error) => void;
  readonly #staleMs: number;
  readonly #listeners = new Set<(news: QuestionNews) => void>();
  /** The process's one LISTEN connection (the store's), or one of its own when none was given. */
  readonly #news: PostgresNews;
  readonly #ownsNews: boolean;
  #unsubscribe: (() => void) | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** What this instance asks another (an answer, a sign-in's redirect, a URL flow's "done") and its replies. */
  readonly #requests: InstanceRequests;
  /** The sign-ins and URL flows this instance holds, recorded for the others. */
  readonly flows: HeldFlows;
  /** The seqs of news heard, with when each was told (database clock), kept for a catch-up's margin. */
  readonly #heardSeqs = new Map<number, number>();
  /** When the newest news heard was told (database clock); a catch-up reads from a margin before it. */
  #heardUpTo: number | undefined;
  /**
   * Where the next catch-up starts: what had been heard when the connection was lost, taken then. News that comes
   * in as LISTEN returns is heard before the catch-up runs and must not move its start past what was missed.
   */
  #catchUpFrom: number | undefined;
  #heardSincePrune = 0;

  constructor(options: {
    pool: pg.Pool;
    instanceId?: string;
    now?: () => number;
    onError?: (error: Error) => void;
    /** The host's clock, on which a lost LISTEN connection is made again. */
    clock?: Clock;
    /** The LISTEN connection the process already holds on this database (`PostgresStore.news`): heard through it. */
    news?: PostgresNews;
    /** How long without a heartbeat before an instance's questions can no longer be answered (the heartbeat's). */
    staleMs?: number;
  }) {
    this.#staleMs = options.staleMs ?? STALE_MS;
    this.#pool = options.pool;
    this.#instance = options.instanceId ?? randomUUID();
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => undefined);
    this.#ownsNews = options.news === undefined;
    this.#news =
      options.news ??
      new PostgresNews({ pool: this.#pool, ...(options.clock === undefined ? {} : { clock: options.clock }) });
    this.flows = new HeldFlows(this.#pool, this.#instance, this.#staleMs);
    this.#requests = new InstanceRequests({
      heldElsewhere: (flow) => this.flows.heldElsewhere(flow),
      tell: async (news) => (await this.#pool.query<{ seq: string }>(SQL.tell, [JSON.stringify(news)])).rows[0]?.seq,
      forget: async (seqs) => void (await this.#pool.query(SQL.forget, [seqs])),
      hearing: async () => {
        if (this.#listeners.size === 0) this.listen(() => undefined);
        await this.listening();
      },
      onError: this.#onError,
    });
  }

  /** Subscribes to `QUESTIONS_CHANNEL`, once. */
  #subscribe(): void {
    this.#unsubscribe ??= this.#news.add(QUESTIONS_CHANNEL, {
      heard: (message) => this.#then(() => this.#heardSeq(message.payload)),
      listening: (again) => this.#listening(again),
      lost: (error) => {
        this.#catchUpFrom ??= this.#heardUpTo;
        this.#onError(error);
      },
    });
  }

  async open(request: PermissionRequest): Promise<void> {
    await this.#open(request.invocationId, request.scope, JSON.stringify(request));
  }

  async openElicitation(request: ElicitationRequest): Promise<void> {
    await this.#open(request.id, request.scope, JSON.stringify({ elicitation: request }));
  }

  async #open(id: string, tenant: Tenant, json: string): Promise<void> {
    const values = [id, tenant.userId, tenant.workspaceId, this.#instance, json, this.#now()];
    await this.#pool.query(SQL.open, values);
  }

  async closeElicitation(request: ElicitationRequest, closed: ElicitationClosed): Promise<void> {
    await this.#pool.query(SQL.closeElicitation, [request.id, this.#now(), JSON.stringify(closed)]);
  }

  answerElsewhere(tenant: Tenant, id: string, answer: unknown): Promise<ElicitationReply> {
    return this.#requests.answerElsewhere(tenant, id, answer);
  }

  finishSignInElsewhere(tenant: Tenant | undefined, redirect: string): Promise<SignInOutcome | undefined> {
    return this.#requests.finishSignInElsewhere(tenant, redirect);
  }

  completeUrlFlowElsewhere(tenant: Tenant, id: string): Promise<boolean> {
    return this.#requests.completeUrlFlowElsewhere(tenant, id);
  }

  reply(replyTo: string, reply: ElicitationReply | SignInOutcome | { readonly ok: true }): Promise<void> {
    return this.#requests.reply(replyTo, reply);
  }

  async claim(tenant: Tenant, id: string, decision: PermissionDecision): Promise<KitClaim> {
    const now = this.#now();
    const won = await this.#pool.query(SQL.claim, [
      id,
      tenant.userId,
      tenant.workspaceId,
      decision,
      now,
      this.#staleMs,
    ]);
    if (won.rowCount === 1) return 'first';
    const { rows } = await this.#pool.query<{ instance_id: string; closed_at: unknown }>(SQL.known, [
      id,
      tenant.userId,
      tenant.workspaceId,
    ]);
    const row = rows[0];
    if (row === undefined) return 'unknown';
    // Still open yet not claimed: its instance has no fresh heartbeat (the other instances have yet to close it).
    return row.closed_at === null ? { lost: row.instance_id, staleMs: this.#staleMs } : 'too_late';
  }

  async close(_tenant: Tenant, id: string): Promise<void> {
    await this.#pool.query(SQL.close, [id, this.#now()]);
  }

  /** Closes every question an instance that died had open, on every instance's tabs. */
  async closeAllOf(instanceId: string): Promise<void> {
    await this.#pool.query(SQL.closeAllOf, [instanceId, this.#now()]);
  }

  async cancel(tenant: Tenant, invocationId: string): Promise<void> {
    await this.#pool.query(SQL.cancel, [invocationId, tenant.userId, tenant.workspaceId]);
  }

  listen(listener: (news: QuestionNews) => void): () => void {
    this.#listeners.add(listener);
    this.#subscribe();
    return () => void this.#listeners.delete(listener);
  }

  /** Resolves once LISTEN is in place and the questions open elsewhere were told (at once when nobody listens). */
  async listening(): Promise<void> {
    await this.#news.listening();
    await this.#queue;
  }

  #tell(news: QuestionNews): void {
    for (const listener of this.#listeners) listener(news);
  }

  /** Runs `step` after what was told before it, so news is handled in the order it arrived. */
  #then(step: () => Promise<void> | void): void {
    this.#queue = this.#queue.then(step).catch((error: unknown) => this.#onError(asError(error)));
  }

  /**
   * LISTEN is in place: after a lost connection, hear the news told while it was down; then read what is open on
   * other instances now (asked before it listened, or while cut off).
   */
  #listening(again: boolean): void {
    const from = again ? (this.#catchUpFrom ?? this.#heardUpTo) : undefined;
    this.#catchUpFrom = undefined;
    this.#then(async () => {
      await this.#pool.query(SQL.prune, [this.#now() - KEPT_MS]);
      await this.#pool.query(SQL.pruneNews, [NEWS_KEPT_MS]);
      await this.flows.prune();
      if (from !== undefined) {
        const { rows } = await this.#pool.query<NewsRow>(SQL.since, [from - CATCH_UP_MARGIN_MS]);
        for (const row of rows) await this.#heard(row, true);
      } else if (this.#heardUpTo === undefined) {
        const { rows } = await this.#pool.query<{ now: string }>(SQL.dbNow);
        this.#heardUpTo = Number(rows[0]!.now);
      }
      const { rows } = await this.#pool.query<{ request: string }>(SQL.openElsewhere, [
        this.#instance,
        this.#now() - SHOWN_FOR_MS,
      ]);
      for (const row of rows) this.#tell(newsOfRow(row.request));
    });
  }

  /** A notification names the seq of news just told: read its row (once, whichever way it comes first). */
  async #heardSeq(payload: string | undefined): Promise<void> {
    const seq = Number(payload);
    if (!Number.isSafeInteger(seq) || this.#heardSeqs.has(seq)) return;
    const { rows } = await this.#pool.query<NewsRow>(SQL.heard, [seq]);
    if (rows[0] !== undefined) await this.#heard(rows[0], false);
    this.#heardSincePrune += 1;
    if (this.#heardSincePrune >= PRUNE_EVERY) {
      this.#heardSincePrune = 0;
      await this.#pool.query(SQL.pruneNews, [NEWS_KEPT_MS]);
    }
  }

  /**
   * Takes in one row of news, once. One read again after a lost connection is not told when it is an answer or a
   * reply whose sender has stopped waiting (`REPLY_MS`): the sender already said no instance held the question.
   */
  async #heard(row: NewsRow, late: boolean): Promise<void> {
    const seq = Number(row.seq);
    if (this.#heardSeqs.has(seq)) return;
    const toldAt = Number(row.told_at);
    this.#heardSeqs.set(seq, toldAt);
    this.#heardUpTo = Math.max(this.#heardUpTo ?? toldAt, toldAt);
    this.#forgetSeqsBefore(this.#heardUpTo - CATCH_UP_MARGIN_MS);
    const told = JSON.parse(row.news) as Told;
    const waitedFor = Number(row.now) - toldAt < REPLY_MS;
    const asked = ASKED_KINDS.includes(String(told.kind));
    if (late && !waitedFor && asked) return;
    await this.#told(told, row.seq);
  }

  /** Seqs told before `before` are past any catch-up's reach; the map holds news in about the order it was told. */
  #forgetSeqsBefore(before: number): void {
    for (const [seq, toldAt] of this.#heardSeqs) {
      if (toldAt >= before) return;
      this.#heardSeqs.delete(seq);
    }
  }

  async #told(told: Told, seq: string): Promise<void> {
    if (typeof told.id !== 'string') return;
    const tenant =
      typeof told.userId === 'string' && typeof told.workspaceId === 'string'
        ? { userId: told.userId, workspaceId: told.workspaceId }
        : undefined;
    if (told.kind === 'opened' && told.instance !== this.#instance) {
      const { rows } = await this.#pool.query<{ request: string }>(SQL.request, [told.id]);
      if (rows[0] !== undefined) this.#tell(newsOfRow(rows[0].request));
    } else if (told.kind === 'reply') {
      this.#requests.replied(told.id, told.reply, seq);
    } else if (
      told.kind === 'signin.redirect' &&
      typeof told.redirect === 'string' &&
      typeof told.replyTo === 'string'
    ) {
      this.#tell({ kind: 'signin.redirect', redirect: told.redirect, tenant, replyTo: told.replyTo });
    } else if (tenant === undefined) {
      return;
    } else if (told.kind === 'answered' && typeof told.decision === 'string') {
      this.#tell({ kind: 'answered', id: told.id, tenant, decision: told.decision as PermissionDecision });
    } else if (told.kind === 'closed') {
      this.#tell({ kind: 'closed', id: told.id, tenant });
    } else if (told.kind === 'cancel') {
      this.#tell({ kind: 'cancel', invocationId: told.id, tenant });
    } else if (told.kind === 'elicitation.closed') {
      this.#tell({ kind: 'elicitation.closed', id: told.id, tenant, closed: told.closed as ElicitationClosed });
    } else if (told.kind === 'elicitation.answer' && typeof told.replyTo === 'string') {
      this.#tell({ kind: 'elicitation.answer', id: told.id, tenant, answer: told.answer, replyTo: told.replyTo });
    } else if (told.kind === 'urlflow.done' && typeof told.replyTo === 'string') {
      this.#tell({ kind: 'urlflow.done', id: told.id, tenant, replyTo: told.replyTo });
    }
  }

  async stop(): Promise<void> {
    this.#listeners.clear();
    this.#unsubscribe?.();
    if (this.#ownsNews) await this.#news.stop();
    await this.#queue;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
