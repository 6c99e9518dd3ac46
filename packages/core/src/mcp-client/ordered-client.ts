import { Client } from '@modelcontextprotocol/client';
import type {
  BaseContext,
  CallToolResult,
  ClientContext,
  JSONRPCRequest,
  JSONRPCResponse,
  Result,
  StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { isPlainToolResult } from './tool-result-check.js';

/** The SDK line this file was written against: the members it reaches below the public API are checked for it. */
export const SDK_LINE = '2.4';

/**
 * The one place the host reaches below the v2 SDK client's public API (its protected members), so an SDK upgrade
 * that changes them fails here and in its pinned test (`ordered-client.test.ts`), nowhere else.
 *
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
    return this.getProtocolEra() !== 'modern' && this.outboundMeta() === undefined;
  }

  /**
   * A response as this client hands it to whoever waits for it: as it came here; a subclass rewrites answers it must
   * not pass on (TaskExtensionClient). Requests sent through the SDK and sent directly (direct-tool-call.ts) alike.
   */
  answerOf(response: JSONRPCResponse): JSONRPCResponse {
    return response;
  }

  /** The `_meta` envelope the client puts on its requests (its capabilities, in the 2026 era); undefined in 2025's. */
  protected outboundMeta(): Readonly<Record<string, unknown>> | undefined {
    return this._outboundMetaEnvelope();
  }

  /** The handler this client registered for a request method a server may send (elicitation/create, …). */
  protected handlerFor(method: string): ((request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>) | undefined {
    return this._getRequestHandler(method);
  }

  /** The context a handler runs with, as the SDK builds it for a request that came over the wire. */
  protected contextFor(base: BaseContext): ClientContext {
    return this.buildContext(base);
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
