import { demoServers } from '../console-config.js';
import type { ConsoleConfig } from '../console-config.js';

/**
 * A console whose history is in memory, for tests of one instance: the demo server, local sign-in on a free loopback
 * port, no retention; `more` changes what a test needs (its servers, rules, limits, sign-in).
 */
export function memoryConsoleConfig(source: string, more: Partial<ConsoleConfig> = {}): ConsoleConfig {
  return {
    source,
    servers: demoServers(),
    rules: [],
    limits: {},
    storePath: ':memory:',
    host: '127.0.0.1',
    port: 0,
    auth: 'local',
    users: [],
    retention: {},
    ...more,
  };
}
