import type { HostStore } from '@airlock/core';
import { PostgresStore } from '@airlock/core/postgres';
import pg from 'pg';
import { redactUrl } from './console-config.js';
import type { ConsoleLogger } from './console-logger.js';
import { PostgresQuestions } from './postgres-questions.js';

/** What instances on one database share: the history store, and the questions their calls ask. */
export interface SharedHistory {
  readonly store: HostStore;
  readonly questions: PostgresQuestions;
}

/**
 * Opens the console's history on PostgreSQL (`store.url`, `--store postgres://…`, AIRLOCK_DATABASE_URL): a pool on
 * the database, migrated at open, shared by every instance on the same URL, with the questions shared over the same
 * pool. Resolves once the database answers.
 */
export async function openSharedHistory(url: string, logger: ConsoleLogger): Promise<SharedHistory> {
  const pool = new pg.Pool({ connectionString: url });
  // A pooled connection the server drops while idle is replaced on next use; it must not end the process.
  pool.on('error', (error) => logger.warn({ err: error.message }, 'history database connection lost'));
  let store: PostgresStore;
  try {
    store = await PostgresStore.open({ pool });
  } catch (error) {
    throw new Error(`the console cannot open its history database ${redactUrl(url)}: ${(error as Error).message}`);
  }
  const questions = new PostgresQuestions({
    pool,
    onError: (error) => logger.warn({ err: error.message }, 'questions shared with other instances: a step failed'),
  });
  return { store, questions };
}
