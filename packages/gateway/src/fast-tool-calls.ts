import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  ListToolsResult,
  RequestId,
} from '@modelcontextprotocol/server';

/** A plain `tools/call` as the fast path hands it over: its checked params, its signal, and where progress goes. */
export interface FastCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly progressToken: string | number | undefined;
  readonly signal: AbortSignal;
  readonly notify: (notification: JSONRPCNotification) => void;
}

/** What a 2025-11-25 gateway session answers the two hot requests with: the same code its SDK handlers run. */
export interface FastHandlers {
  list(): ListToolsResult;
  call(call: FastCall): Promise<CallToolResult>;
}

/**
 * The hot path of a 2025-11-25 stdio session: a plain `tools/call` (and a `tools/list` without a cursor) is answered
 * from the wire, without the SDK server's per-message schema work (the host checks the arguments against the tool's
 * schema anyway). The answer is the one the SDK would send: the same id, a thrown error's code, message and data,
 * progress notifications for a progress token, and nothing at all after the client cancels. Anything else (a task,
 * odd params, every other method) goes through the SDK server as before, which then answers its own errors.
 */
export class FastToolCalls {
  readonly #send: (message: JSONRPCMessage) => Promise<void>;
  readonly #running = new Map<RequestId, AbortController>();
  #handlers: FastHandlers | undefined;

  /** `send` writes one message to the client. */
  constructor(send: (message: JSONRPCMessage) => Promise<void>) {
    this.#send = send;
  }

  /** Takes over from the SDK once the session is initialized (only then is its era settled); undone on close. */
  enable(handlers: FastHandlers): () => void {
    this.#handlers = handlers;
    return () => {
      if (this.#handlers === handlers) this.#handlers = undefined;
      for (const running of this.#running.values()) running.abort(new Error('the session closed'));
      this.#running.clear();
    };
  }

  /** Answers `message` when it is on the fast path (true), else leaves it to the SDK (false). */
  inbound(message: JSONRPCMessage): boolean {
    const handlers = this.#handlers;
    if (handlers === undefined) return false;
    // The transport has checked the JSON-RPC shape: a method without an id is a notification, with one a request.
    if (!('method' in message)) return false;
    if (!('id' in message)) return this.#cancel(message);
    return this.#request(message, handlers);
  }

  #request(message: JSONRPCRequest, handlers: FastHandlers): boolean {
    if (message.method === 'tools/list') {
      if ((message.params as { cursor?: unknown } | undefined)?.cursor !== undefined) return false;
      void this.#answer(message.id, () => Promise.resolve(handlers.list()));
      return true;
    }
    if (message.method !== 'tools/call') return false;
    const plain = plainCall(message.params);
    if (plain === undefined || this.#running.has(message.id)) return false;
    const { id } = message;
    const controller = new AbortController();
    this.#running.set(id, controller);
    const notify = (notification: JSONRPCNotification) => {
      if (!controller.signal.aborted) void this.#send(notification).catch(() => undefined);
    };
    void this.#answer(id, () => handlers.call({ ...plain, signal: controller.signal, notify }), controller.signal).then(
      () => {
        if (this.#running.get(id) === controller) this.#running.delete(id);
      },
    );
    return true;
  }

  /** A client's cancellation of a call on the fast path: the call is aborted and never answered. */
  #cancel(message: JSONRPCNotification): boolean {
    if (message.method !== 'notifications/cancelled') return false;
    const params = message.params as { requestId?: RequestId; reason?: unknown } | undefined;
    const id = params?.requestId;
    const running = id === undefined ? undefined : this.#running.get(id);
    if (id === undefined || running === undefined) return false;
    this.#running.delete(id);
    running.abort(params?.reason);
    return true;
  }

  async #answer(id: RequestId, work: () => Promise<object>, signal?: AbortSignal): Promise<void> {
    let reply: JSONRPCMessage;
    try {
      const result = await work();
      if (signal?.aborted) return;
      reply = { jsonrpc: '2.0', id, result: result as Record<string, unknown> };
    } catch (error) {
      if (signal?.aborted) return;
      reply = { jsonrpc: '2.0', id, error: errorOf(error) };
    }
    await this.#send(reply).catch(() => undefined);
  }
}

/** The params of a plain `tools/call`, or undefined for anything the SDK should look at (a task, odd shapes). */
function plainCall(params: unknown): Omit<FastCall, 'signal' | 'notify'> | undefined {
  if (typeof params !== 'object' || params === null) return undefined;
  const { name, arguments: args, _meta, task } = params as Record<string, unknown>;
  if (typeof name !== 'string' || task !== undefined) return undefined;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  if (_meta !== undefined && !isPlainObject(_meta)) return undefined;
  const progressToken = (_meta as { progressToken?: unknown } | undefined)?.progressToken;
  if (progressToken !== undefined && typeof progressToken !== 'string' && typeof progressToken !== 'number') {
    return undefined;
  }
  return { name, args: (args as Record<string, unknown> | undefined) ?? {}, progressToken };
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A thrown error as the SDK words it on the wire (its code when it carries one, else an internal error). */
function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  const thrown = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = Number.isSafeInteger(thrown.code) ? (thrown.code as number) : ProtocolErrorCode.InternalError;
  return {
    // The 2025-11-25 wire has no resource-not-found code: the SDK sends invalid params for it.
    code: code === -32002 ? ProtocolErrorCode.InvalidParams : code,
    message: typeof thrown.message === 'string' ? thrown.message : 'Internal error',
    ...(thrown.data === undefined ? {} : { data: thrown.data }),
  };
}
