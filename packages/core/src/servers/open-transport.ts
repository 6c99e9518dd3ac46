import type { FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { InputResolver } from '../config/config-inputs.js';
import { HttpTransport } from './http-transport.js';
import type { ServerConfig } from './server-config.js';
import { assertNoPlaceholders, fillServerInputs } from './server-inputs.js';
import type { StdioTransport } from './stdio-transport.js';

/** One connection attempt's transport: the HTTP one (its 401 challenge, its session), or the stdio child's. */
export type OpenedTransport =
  { readonly kind: 'http'; readonly http: HttpTransport } | { readonly kind: 'stdio'; readonly stdio: StdioTransport };

/**
 * Builds the transport of one connection attempt: HTTP on the host's clock (with the user's OAuth client, for a
 * server per user that signs users in), or our stdio transport with the message cap. The config's inputs are filled
 * in first, and nothing starts while a value still holds a placeholder. The stdio modules are
 * loaded only for a stdio server, so the root entry stays runtime-neutral.
 */
export async function openTransport(options: {
  readonly config: ServerConfig;
  readonly clock: Clock;
  readonly maxMessageBytes: number;
  readonly authProvider?: OAuthClientProvider;
  readonly fetch?: FetchLike;
  /** Fills `${input:ID}`; without one, a server that uses an input does not start. */
  readonly inputs?: InputResolver;
  /** The tenant the connection is for (`userId/workspaceId`), when it is one tenant's. */
  readonly tenant?: string;
  /** Told when a server with no `type` answered initialize with a 4xx and the legacy SSE transport is used. */
  readonly onSseFallback?: (status: number) => void;
}): Promise<OpenedTransport> {
  const config = await fillServerInputs(options.config, options.inputs, options.tenant);
  assertNoPlaceholders(config);
  if (config.transport === 'http') {
    const http = new HttpTransport({
      url: config.url,
      headers: config.headers,
      ...(config.httpTransport === undefined ? {} : { kind: config.httpTransport }),
      ...(options.onSseFallback === undefined ? {} : { onFallback: options.onSseFallback }),
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
