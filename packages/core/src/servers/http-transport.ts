import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import type { HttpTransportKind } from '../config/server-entry-checks.js';
import { SseFallbackTransport } from './sse-fallback-transport.js';

/** What a server's last HTTP 401 asked for: the `WWW-Authenticate` challenge, when it sent one. */
export interface HttpChallenge {
  readonly wwwAuthenticate: string | undefined;
}

/**
 * The SDK's Streamable HTTP transport, built the host's way: the SSE reconnection waits on the host's clock, and the
 * last HTTP 401 is remembered with its `WWW-Authenticate` header, which the SDK's error drops (it keeps only the
 * body, e.g. `{"error":"invalid_token"}`), so the connection can say what the server asked for.
 */
export class HttpTransport {
  /** Streamable HTTP, the legacy SSE one (`kind: 'sse'`), or Streamable HTTP that falls back to SSE (no kind). */
  readonly transport: Transport;
  #challenge: HttpChallenge | undefined;

  constructor(options: {
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly clock: Clock;
    /** One user's OAuth client: the transport sends its bearer token and refreshes it on a 401. */
    readonly authProvider?: OAuthClientProvider;
    readonly fetch?: FetchLike;
    readonly kind?: HttpTransportKind;
    /** Told when a server without a kind answered initialize with a 4xx and SSE is used instead. */
    readonly onFallback?: (status: number) => void;
  }) {
    const clock = options.clock;
    const base = options.fetch ?? fetch;
    const watched: FetchLike = async (url, init) => {
      const response = await base(url, init);
      if (response.status === 401) {
        this.#challenge = { wwwAuthenticate: response.headers.get('www-authenticate') ?? undefined };
      }
      return response;
    };
    const auth = options.authProvider === undefined ? {} : { authProvider: options.authProvider };
    const sse = () =>
      new SSEClientTransport(new URL(options.url), {
        requestInit: { headers: { ...options.headers } },
        ...auth,
        fetch: watched,
      });
    const streamable = () =>
      new StreamableHTTPClientTransport(new URL(options.url), {
        requestInit: { headers: { ...options.headers } },
        // A 403 insufficient_scope is thrown to the host, which steps up through the user rather than failing blind.
        ...(options.authProvider === undefined ? {} : { ...auth, onInsufficientScope: 'throw' as const }),
        fetch: watched,
        reconnectionScheduler: (reconnect, delay) => clock.setTimer(reconnect, delay),
      });
    this.transport =
      options.kind === 'sse'
        ? sse()
        : options.kind === 'streamable'
          ? streamable()
          : new SseFallbackTransport({
              streamable: streamable(),
              sse,
              onFallback: (status) => options.onFallback?.(status),
            });
  }

  /** The last 401 this transport met, if any. */
  get challenge(): HttpChallenge | undefined {
    return this.#challenge;
  }

  /**
   * Ends the session with HTTP DELETE (the spec's SHOULD for a client that is done), waiting at most `timeoutMs` on the
   * host's clock; a server that does not know the session, refuses (405) or is gone changes nothing.
   */
  async endSession(clock: Clock, timeoutMs: number): Promise<void> {
    const active = this.transport instanceof SseFallbackTransport ? this.transport.active : this.transport;
    if (!(active instanceof StreamableHTTPClientTransport) || active.sessionId === undefined) return;
    let cancel: () => void = () => undefined;
    const late = new Promise<void>((resolve) => {
      cancel = clock.setTimer(resolve, timeoutMs);
    });
    await Promise.race([active.terminateSession().catch(() => undefined), late]);
    cancel();
  }
}
