import { startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { startPostgres } from '../../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../../test/support/postgres/postgres-server.js';
import { postgresConsoleConfig } from './postgres-console-config.js';
import type { ConsoleEventStream } from './console-client.js';

/**
 * Consoles on a throwaway PostgreSQL server, for tests of several instances: `start` in beforeAll, `pair` per case (a
 * fresh database each time), `track` the event streams a case opens, and `close` in afterAll ends them all.
 */
export class PostgresConsoles {
  #server: PostgresServer | undefined;
  readonly #consoles: RunningConsole[] = [];
  readonly #streams: ConsoleEventStream[] = [];

  /** `source` names the tests' configuration; `more` changes what they need (their rules, say). */
  constructor(
    private readonly source: string,
    private readonly more: Partial<ConsoleConfig> = {},
  ) {}

  async start(): Promise<void> {
    this.#server = await startPostgres();
  }

  /**
   * Two consoles on one fresh database, their servers settled. One after the other by default; `together` starts both
   * at once, so that both migrate the empty database.
   */
  async pair(options: { readonly together?: boolean } = {}): Promise<[RunningConsole, RunningConsole]> {
    if (!this.#server) throw new Error('PostgresConsoles.pair: call start() first');
    const url = await this.#server.createDatabase();
    const config = postgresConsoleConfig(url, this.source, this.more);
    const pair: [RunningConsole, RunningConsole] = options.together
      ? await Promise.all([startConsole(config), startConsole(config)])
      : [await startConsole(config), await startConsole(config)];
    this.#consoles.push(...pair);
    await Promise.all(pair.map((c) => c.host.servers.settled()));
    return pair;
  }

  /** Closes `streams` at `close`, before the consoles. */
  track(...streams: ConsoleEventStream[]): void {
    this.#streams.push(...streams);
  }

  async close(): Promise<void> {
    await Promise.all(this.#streams.map((s) => s.close()));
    await Promise.all(this.#consoles.map((c) => c.close()));
    await this.#server?.stop();
  }
}
