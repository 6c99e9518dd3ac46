import type { ConsoleConfig } from '../console-config.js';
import { memoryConsoleConfig } from './memory-console-config.js';

/**
 * A console on a PostgreSQL database (`storeUrl`) for tests of several instances: as `memoryConsoleConfig`, with the
 * history on the database; `more` changes what a test needs (its rules, say).
 */
export function postgresConsoleConfig(
  storeUrl: string,
  source: string,
  more: Partial<ConsoleConfig> = {},
): ConsoleConfig {
  return memoryConsoleConfig(source, { storePath: '', storeUrl, ...more });
}
