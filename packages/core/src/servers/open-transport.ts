import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HttpTransport } from './http-transport.js';
import type { ServerConfig } from './server-config.js';
import type { StdioTransport } from './stdio-transport.js';

/** One connection attempt's transport: the HTTP one (its 401 challenge, its session), or the stdio child's. */
export type OpenedTransport =
  { readonly kind: 'http'; readonly http: HttpTransport } | { readonly kind: 'stdio'; readonly stdio: StdioTransport };

/**
 * Builds the transport of one connection attempt: Streamable HTTP on the host's clock (with the user's OAuth client,
 * for a server per user that signs users in), or our stdio transport with the message cap. The stdio modules are
 * loaded only for a stdio server, so the root entry stays runtime-neutral.
 */
export async function openTransport(options: {
  readonly config: ServerConfig;
  readonly clock: Clock;
  readonly maxMessageBytes: number;
  readonly authProvider?: OAuthClientProvider;
  readonly fetch?: FetchLike;
}): Promise<OpenedTransport> {
  const { config } = options;
  if (config.transport === 'http') {
    const http = new HttpTransport({
      url: config.url,
      headers: config.headers,
      clock: options.clock,
      ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    });
    return { kind: 'http', http };
  }
  const [{ getDefaultEnvironment }, { StdioTransport }] = await Promise.all([
    import('@modelcontextprotocol/client/stdio'),
    import('./stdio-transport.js'),
  ]);
  const stdio = new StdioTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: 'pipe',
    maxBufferSize: options.maxMessageBytes,
  });
  return { kind: 'stdio', stdio };
}
