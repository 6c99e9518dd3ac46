import { CLIENT_CAPABILITIES_META_KEY, ProtocolError } from '@modelcontextprotocol/client';
import type { BaseContext, JSONRPCResponse } from '@modelcontextprotocol/client';
import { OrderedClient } from '../mcp-client/ordered-client.js';

/** The identifier of the 2026-07-28 tasks extension (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** JSON-RPC "internal error": what a task answer becomes for a request that cannot take one. */
const TASK_ANSWER_CODE = -32603;

/**
 * The v2 client with what the 2026-07-28 tasks extension needs of it, which the SDK (2.4) does not do itself:
 *
 * - the extension declared on one request only (`taskMeta`: the client's own capabilities plus the extension, in the
 *   request's `_meta`), so a server may answer with a task exactly where the host follows one;
 * - a `tools/call` answered with `resultType: "task"`, which the SDK refuses as an unsupported result type and whose
 *   body it drops: the response is turned into a JSON-RPC error carrying the task under a key private to this client
 *   (`taskOf` reads it back), so the caller that declared the extension gets the task and any other caller gets a
 *   clear error, as the extension asks of a response the request could not take;
 * - a task's input requests (`inputRequests` of `tasks/get`) answered through the same `elicitation/create` handler
 *   as every other question (`answerInput`), so they reach the elicitation broker and its surfaces.
 */
export class TaskExtensionClient extends OrderedClient {
  /** The error data key a task answer is carried under: random, so no server can forge one. */
  readonly #key = `airlock/task-answer/${crypto.randomUUID()}`;

  /** True when the server speaks 2026-07-28 and declared the tasks extension in `server/discover`. */
  offersTaskExtension(): boolean {
    return (
      this.getProtocolEra() === 'modern' && this.getServerCapabilities()?.extensions?.[TASKS_EXTENSION] !== undefined
    );
  }

  /** The `_meta` of a request that declares the extension: this client's capabilities plus the extension. */
  taskMeta(): Record<string, unknown> {
    const envelope = this.outboundMeta();
    const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? {}) as { extensions?: Record<string, unknown> };
    return {
      [CLIENT_CAPABILITIES_META_KEY]: {
        ...declared,
        extensions: { ...declared.extensions, [TASKS_EXTENSION]: {} },
      },
    };
  }

  /** The task a server answered with (`resultType: "task"`), when `error` is such an answer. */
  taskOf(error: unknown): Record<string, unknown> | undefined {
    if (!(error instanceof ProtocolError)) return undefined;
    const data = error.data as Record<string, unknown> | undefined;
    const task = data?.[this.#key];
    return typeof task === 'object' && task !== null ? (task as Record<string, unknown>) : undefined;
  }

  /**
   * Answers one entry of a task's `inputRequests` through the handler this client has for its method (the elicitation
   * broker's, for `elicitation/create`), as the SDK answers an input-required round. Rejects naming the request when
   * the method is not one this host answers.
   */
  async answerInput(key: string, entry: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const request = entry as { method?: unknown; params?: unknown } | null;
    const method = typeof request?.method === 'string' ? request.method : undefined;
    const handler = method === undefined ? undefined : this.handlerFor(method);
    if (method === undefined || handler === undefined) {
      throw new Error(`the task asks "${key}" with ${method ?? 'no method'}, which this host does not answer now`);
    }
    const params = typeof request?.params === 'object' && request.params !== null ? request.params : undefined;
    const refuse = () => {
      throw new Error(`a task's input request "${key}" cannot send requests of its own`);
    };
    const context = this.contextFor({
      mcpReq: { id: key, method, _meta: undefined, signal, send: refuse as never, notify: refuse as never },
    } as unknown as BaseContext);
    return await handler(
      { jsonrpc: '2.0', id: key, method, ...(params === undefined ? {} : { params: params as never }) },
      context,
    );
  }

  override answerOf(response: JSONRPCResponse): JSONRPCResponse {
    const result = 'result' in response ? (response.result as Record<string, unknown> | undefined) : undefined;
    if (result?.['resultType'] !== 'task') return response;
    return {
      jsonrpc: '2.0',
      id: response.id,
      error: {
        code: TASK_ANSWER_CODE,
        message:
          'the server answered with a task (resultType "task") where the request did not declare the tasks extension',
        data: { [this.#key]: result },
      },
    };
  }
}
