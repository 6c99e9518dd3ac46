import { randomUUID } from 'node:crypto';
import type { Clock, HostStore } from '@airlock/core';
import { systemClock } from '@airlock/core';
import { InstanceHeartbeat, PostgresStore, instanceOption } from '@airlock/core/postgres';
import pg from 'pg';
import { redactUrl } from './console-config.js';
import type { ConsoleLogger } from './console-logger.js';
import { PostgresQuestions } from './postgres-questions.js';
import { PostgresSessions } from './postgres-sessions.js';

/** What instances on one database share: the history store, and the questions their calls ask. */
export interface SharedHistory {
  readonly store: HostStore;
  readonly questions: PostgresQuestions;
  /** This instance's heartbeat: started once the console runs, stopped before the pool ends. */
  readonly heartbeat: InstanceHeartbeat;
  /** Signed-in sessions, so any instance serves any user. */
  readonly sessions: PostgresSessions;
  /** What this instance does once it has taken a dead one: follow the open tasks it owned (`host.tasks.takeOver`). */
  onInstanceDied(takeOver: () => Promise<void>): void;
  /** What this instance does once it learns another took it over (it stalled): its writes are refused; it stops. */
  onFenced(stop: () => void): void;
}

/**
 * Opens the console's history on PostgreSQL (`store.url`, `--store postgres://…`, AIRLOCK_DATABASE_URL): a pool on
 * the database, migrated at open, shared by every instance on the same URL, with the questions shared over the same
 * pool, and a heartbeat by which the instances notice one that died (its calls in flight end in history, its open
 * questions close on every tab, its open tasks are followed here). Every call this instance creates is stamped with its id. Resolves once the database
 * answers.
 */
export async function openSharedHistory(
  url: string,
  logger: ConsoleLogger,
  clock: Clock = systemClock,
): Promise<SharedHistory> {
  const instanceId = randomUUID();
  const pool = new pg.Pool({ connectionString: url, options: instanceOption(instanceId) });
  // A pooled connection the server drops while idle is replaced on next use; it must not end the process.
  pool.on('error', (error) => logger.warn({ err: error.message }, 'history database connection lost'));
  let store: PostgresStore;
  try {
    store = await PostgresStore.open({ pool, clock });
  } catch (error) {
    throw new Error(`the console cannot open its history database ${redactUrl(url)}: ${(error as Error).message}`);
  }
  const questions = new PostgresQuestions({
    pool,
    instanceId,
    now: () => clock.now(),
    clock,
    news: store.news,
    onError: (error) => logger.warn({ err: error.message }, 'questions shared with other instances: a step failed'),
  });
  let takeOver: (() => Promise<void>) | undefined;
  let fenced: (() => void) | undefined;
  const heartbeat = new InstanceHeartbeat({
    pool,
    store,
    instanceId,
    clock,
    onDead: async (dead) => {
      logger.warn(
        { instance: dead.instanceId, lastHeartbeat: dead.lastHeartbeat, ended: dead.ended.length },
        'an instance on the shared database stopped: its calls in flight ended, its questions closed',
      );
      await questions.closeAllOf(dead.instanceId);
      await takeOver?.();
    },
    onError: (error) => logger.warn({ err: error.message }, 'instance heartbeat failed'),
    onFenced: () => {
      logger.error(
        { instance: instanceId },
        'another instance took this one over (its heartbeat went stale): its writes are refused, so it stops',
      );
      fenced?.();
    },
  });
  return {
    store,
    questions,
    heartbeat,
    sessions: new PostgresSessions(pool, () => clock.now(), clock, store.news),
    onInstanceDied: (next) => void (takeOver = next),
    onFenced: (stop) => void (fenced = stop),
  };
}
