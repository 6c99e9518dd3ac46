import { Client } from '@modelcontextprotocol/client';
import type { JSONRPCResponse } from '@modelcontextprotocol/client';

/**
 * The v2 client handles notifications a microtask later than responses, so a progress notification sent just before
 * the result reaches a handler the result already removed: the last progress step is lost. Handling responses one
 * microtask later keeps the wire order.
 */
export class OrderedClient extends Client {
  protected override _onresponse(response: JSONRPCResponse): void {
    queueMicrotask(() => super._onresponse(response));
  }
}
