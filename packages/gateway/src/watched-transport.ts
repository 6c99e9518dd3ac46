import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/** What a {@link WatchedTransport} shows each message to, as it passes. */
export interface TransportWatcher {
  /** Returns true when it answered the message itself: it then goes no further. */
  inbound(message: JSONRPCMessage): boolean;
  outbound(message: JSONRPCMessage): void;
}

/**
 * A transport that shows every message, both ways, to a watcher before passing it on unchanged: the gateway learns
 * what the SDK's serving entry answers itself (a 2026-07-28 `subscriptions/listen`) without taking that over, and
 * may answer a hot request itself (the watcher says so, and the message goes no further).
 */
export class WatchedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #watcher: TransportWatcher;

  constructor(inner: Transport, watcher: TransportWatcher) {
    this.#inner = inner;
    this.#watcher = watcher;
  }

  start(): Promise<void> {
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message, extra) => {
      if (!this.#watcher.inbound(message)) this.onmessage?.(message, extra);
    };
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.#watcher.outbound(message);
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }
}
