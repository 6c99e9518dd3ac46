import { Server } from '@modelcontextprotocol/server';
import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';

/** A stand-in the SDK's tool-result check accepts while a task handle is passed around it. */
const CHECKED_STAND_IN: Result = { content: [] };

/**
 * An SDK `Server` that can answer a `tools/call` with a task, which the SDK's check of every `tools/call` result
 * against the tool-result schema refuses: a task-augmented call (2025-11-25, `params.task`) is answered by the handler
 * unchecked (the gateway's own task code builds its `CreateTaskResult`); a handler's answer with `resultType: "task"`
 * (the 2026-07-28 tasks extension's handle) passes the request's other checks and goes out as it is. Every other call
 * goes through the SDK's checks as before.
 */
export class TaskResultServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    return async (request, ctx) => {
      const task = (request.params as { task?: unknown } | undefined)?.task;
      if (task !== undefined) return handler(request, ctx);
      let handle: Result | undefined;
      const checked = super._wrapHandler(method, async (inner, innerCtx) => {
        const result = await handler(inner, innerCtx);
        if (result['resultType'] !== 'task') return result;
        handle = result;
        return CHECKED_STAND_IN;
      });
      const result = await checked(request, ctx);
      return handle ?? result;
    };
  }
}
