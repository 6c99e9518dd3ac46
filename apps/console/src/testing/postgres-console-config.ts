import { demoServers } from '../console-config.js';
import type { ConsoleConfig } from '../console-config.js';

/**
 * A console on a PostgreSQL database (`storeUrl`) for tests of several instances: the demo server, local sign-in on a
 * free loopback port, no retention; `more` changes what a test needs (its rules, say).
 */
export function postgresConsoleConfig(
  storeUrl: string,
  source: string,
  more: Partial<ConsoleConfig> = {},
): ConsoleConfig {
  return {
    source,
    servers: demoServers(),
    rules: [],
    limits: {},
    storePath: '',
    storeUrl,
    host: '127.0.0.1',
    port: 0,
    auth: 'local',
    users: [],
    retention: {},
    ...more,
  };
}
