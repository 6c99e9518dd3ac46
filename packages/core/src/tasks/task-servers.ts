import type { Client } from '@modelcontextprotocol/client';
import type { Scope } from '../scope.js';

/** A connection as following a task needs it: its client once ready, its state while it is not, and a restart. */
export interface TaskConnection {
  withClient<T>(run: (client: Client) => Promise<T>): Promise<T>;
  readonly state: string;
  restart(): Promise<void>;
}

/**
 * The servers a host runs, as following tasks needs them. The server catalog implements it; it is named here so the
 * task protocol can sit below the catalog, which calls it, without importing the catalog back.
 */
export interface TaskServers {
  /** The identity of the server configured as `serverId` now, or undefined when none is. */
  identity(serverId: string): string | undefined;
  /** The servers switched off on this host: their tasks are left for a host that runs them. */
  switchedOff(): string[];
  /** Runs `run` on the connection to `serverId` that serves `scope` (its tenant's, or the shared one). */
  withConnection<T>(serverId: string, scope: Scope, run: (connection: TaskConnection) => Promise<T>): Promise<T>;
}
