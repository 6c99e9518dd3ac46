/** Connection tuning; every field has a default that suits a desktop host. */
export interface ConnectionLimits {
  /** How long connecting (spawn, handshake, first tools/list) may take. Default 20 s. */
  readonly connectTimeoutMs: number;
  /**
   * Largest single message accepted from a stdio server. Default 72 MB (the 64 MB result cap plus framing). A message
   * past it is refused as it streams, never held whole: the call it answers fails with `result_too_large`.
   */
  readonly maxMessageBytes: number;
  /** First reconnect delay; doubles per attempt up to `reconnectMaxDelayMs`. Default 250 ms. */
  readonly reconnectBaseDelayMs: number;
  readonly reconnectMaxDelayMs: number;
  /** Reconnect attempts after a ready server is lost before it is marked failed. Default 6. */
  readonly reconnectAttempts: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  connectTimeoutMs: 20_000,
  maxMessageBytes: 72 * 1024 * 1024,
  reconnectBaseDelayMs: 250,
  reconnectMaxDelayMs: 10_000,
  reconnectAttempts: 6,
};
