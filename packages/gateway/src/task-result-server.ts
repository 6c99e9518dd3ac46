import { Server } from '@modelcontextprotocol/server';
import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';

/**
 * An SDK `Server` that can answer a task-augmented `tools/call` (2025-11-25) with its task. The SDK checks every
 * `tools/call` result against the tool-result schema and refuses a `CreateTaskResult` ("content is required when the
 * body carries 'task'"), so a call that carries `params.task` is answered by the handler unchecked (the gateway's
 * own task code builds it); every other call goes through the SDK's checks as before.
 */
export class TaskResultServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const checked = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return checked;
    return (request, ctx) => {
      const task = (request.params as { task?: unknown } | undefined)?.task;
      return task === undefined ? checked(request, ctx) : handler(request, ctx);
    };
  }
}
