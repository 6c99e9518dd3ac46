import type { ConsoleConfig } from '@airlock/console';

/**
 * A console with one remote server, "notes", that each user signs in to (the protected server at `url`), calls to it
 * allowed by a rule, history in `storePath`, local sign-in on a free loopback port.
 */
export function oauthConsoleConfig(url: string, storePath: string, source: string, publicUrl?: string): ConsoleConfig {
  return {
    ...(publicUrl === undefined ? {} : { publicUrl }),
    source,
    servers: [
      {
        id: 'notes',
        transport: 'http',
        url,
        headers: {},
        trusted: false,
        disabled: false,
        oauth: { grant: 'authorization_code' },
      },
    ],
    rules: [{ effect: 'allow', server: 'notes' }] as never,
    limits: {},
    storePath,
    host: '127.0.0.1',
    port: 0,
    auth: 'local',
    users: [],
    retention: {},
  };
}
