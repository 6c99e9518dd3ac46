// @airlock/core/postgres: the store of hosts that run several instances on one PostgreSQL database. A subpath of its
// own, like the SQLite store: it takes the node-postgres pool (pg 8, an optional peer dependency) from the caller.
export { PostgresStore } from './postgres-store.js';
export { POSTGRES_SCHEMA_VERSION, applyPostgresMigrations } from './postgres-migrations.js';
export { HEARTBEAT_MS, STALE_MS, InstanceHeartbeat, instanceOption } from './postgres-instances.js';
export type { DeadInstance } from './postgres-instances.js';
export { PostgresListener, RELISTEN_BACKOFF } from './postgres-listener.js';
export type { PostgresListenerOptions } from './postgres-listener.js';
export { PostgresNews } from './postgres-news.js';
export type { NewsSubscriber } from './postgres-news.js';
export { DB_NOW_MS } from './postgres-statements.js';
export type {
  PgClient,
  PgNotification,
  PgPool,
  PgQueryConfig,
  PgQueryResult,
  PgTypeParsers,
  PostgresStoreConfig,
} from './postgres-store-config.js';
