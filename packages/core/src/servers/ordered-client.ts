import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, JSONRPCResponse, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { isPlainToolResult } from './tool-result-check.js';

/**
 * The v2 client handles notifications a microtask later than responses, so a progress notification sent just before
 * the result reaches a handler the result already removed: the last progress step is lost. Handling responses one
 * microtask later keeps the wire order.
 */
export class OrderedClient extends Client {
  /**
   * The result schema the host passes with a 2025-era `tools/call` in place of the SDK's own: a result the quick check
   * ({@link isPlainToolResult}) finds plain is taken as it is; any other goes through the era's wire schema, the same
   * the SDK would run, so it is refused (or rewritten) exactly as before, with the same message.
   */
  readonly toolResultSchema: StandardSchemaV1<unknown, CallToolResult> = {
    '~standard': {
      version: 1,
      vendor: 'airlock',
      validate: (value) => (isPlainToolResult(value) ? { value: value as CallToolResult } : this.#wireCheck(value)),
    },
  };

  /**
   * True when a `tools/call` may be sent directly on the transport (direct-tool-call.ts): a 2025-era connection, whose
   * requests carry no `_meta` envelope of the client's, so what is sent is what `request()` would send but the id.
   */
  sendsPlainRequests(): boolean {
    return this.getProtocolEra() !== 'modern' && this._outboundMetaEnvelope() === undefined;
  }

  /**
   * A response as this client hands it to whoever waits for it: as it came here; a subclass rewrites answers it must
   * not pass on (TaskExtensionClient). Requests sent through the SDK and sent directly (direct-tool-call.ts) alike.
   */
  answerOf(response: JSONRPCResponse): JSONRPCResponse {
    return response;
  }

  protected override _onresponse(response: JSONRPCResponse): void {
    queueMicrotask(() => super._onresponse(this.answerOf(response)));
  }

  /** The SDK's own check of a `tools/call` result in the negotiated era, as its `request()` runs it. */
  #wireCheck(value: unknown): StandardSchemaV1.Result<CallToolResult> {
    const outcome = this._wireCodec().validateResult('tools/call', value);
    if (outcome.ok) return { value: outcome.value };
    return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message : 'not-in-era: tools/call' }] };
  }
}
