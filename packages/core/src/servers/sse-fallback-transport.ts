import { SdkHttpError } from '@modelcontextprotocol/client';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** HTTP statuses of the initialize POST after which a client tries the legacy HTTP+SSE transport (spec 2025-11-25). */
const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/**
 * A transport that speaks Streamable HTTP and, when the very first POST (initialize) is answered 400, 404 or 405,
 * connects again with the legacy HTTP+SSE transport and sends that message there: the backwards-compatibility
 * section of the spec. Any other failure (a 401 for sign-in, a refused connection) is the Streamable HTTP one's. It is
 * told through `onFallback` once, so the host can say which transport it used.
 */
export class SseFallbackTransport implements Transport {
  #active: Transport;
  #decided = false;
  /** Errors the first POST reported while it was undecided: dropped if SSE takes over, told otherwise. */
  #held: Error[] = [];
  readonly #sse: () => Transport;
  readonly #onFallback: (status: number) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(options: {
    readonly streamable: Transport;
    readonly sse: () => Transport;
    readonly onFallback: (status: number) => void;
  }) {
    this.#active = options.streamable;
    this.#sse = options.sse;
    this.#onFallback = options.onFallback;
    this.#wire(this.#active);
  }

  /** The transport in use: Streamable HTTP until a fallback happened. */
  get active(): Transport {
    return this.#active;
  }

  get sessionId(): string | undefined {
    return this.#active.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.#active.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.#active.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.#active.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#decided) return this.#active.send(message, options);
    try {
      await this.#active.send(message, options);
      this.#decide();
    } catch (error) {
      const status =
        error instanceof SdkHttpError ? (error.data as { status?: number } | undefined)?.status : undefined;
      if (status === undefined || !FALLBACK_STATUSES.has(status)) {
        this.#decide();
        throw error;
      }
      this.#held = [];
      this.#decided = true;
      const old = this.#active;
      old.onclose = undefined;
      old.onerror = undefined;
      old.onmessage = undefined;
      await old.close().catch(() => undefined);
      this.#active = this.#sse();
      this.#wire(this.#active);
      try {
        await this.#active.start();
        this.#onFallback(status);
        await this.#active.send(message, options);
      } catch (sseError) {
        const why = sseError instanceof Error ? sseError.message : String(sseError);
        throw new Error(
          `Streamable HTTP answered HTTP ${status} to initialize, and the legacy HTTP+SSE transport failed too: ${why}`,
          { cause: sseError },
        );
      }
    }
  }

  close(): Promise<void> {
    return this.#active.close();
  }

  #decide(): void {
    this.#decided = true;
    for (const error of this.#held.splice(0)) this.onerror?.(error);
  }

  #wire(transport: Transport): void {
    transport.onclose = () => this.onclose?.();
    transport.onerror = (error) => (this.#decided ? this.onerror?.(error) : this.#held.push(error));
    transport.onmessage = (message, extra) => this.onmessage?.(message, extra);
  }
}
