import type { CallToolResult } from '@modelcontextprotocol/client';
import type { HostStore } from '../store/host-store.js';
import type { NativeToolDefinition } from '../tools/tool-registry.js';

/** The host tool's name: reserved for the host (a native tool of an application cannot contain "__"). */
export const TASK_STATUS_TOOL = 'airlock__task_status';

function text(value: unknown, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

/**
 * `airlock__task_status`: tells the model how a task it started (a call it chose not to wait for, `host.tasks.start`)
 * stands, by the call's id: its status and message while it runs, and once ended its outcome with the result as the
 * model is given it. Only the caller's own calls are found (the scope of the call asking); another tenant's id reads
 * as unknown. Listed to the model only when `tasks.statusTool` is true in the host's config.
 */
export function taskStatusTool(store: HostStore, drain: () => Promise<void>): NativeToolDefinition {
  return {
    name: TASK_STATUS_TOOL,
    title: 'Task status',
    description:
      'Reports how a long-running task you started stands, by the invocation id you were given: its status and ' +
      'message while it runs; its outcome and result once it has ended.',
    inputSchema: {
      type: 'object',
      properties: { invocationId: { type: 'string', description: 'The invocation id the task was started with' } },
      required: ['invocationId'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    visibility: ['model'],
    run: async (args, context) => {
      const invocationId = String(args['invocationId']);
      await drain();
      const [task, call] = await Promise.all([
        store.getTask(context.scope, invocationId),
        store.getInvocation(context.scope, invocationId),
      ]);
      if (task === undefined || call === undefined) {
        return text({ invocationId, error: `no task with invocation id ${invocationId} in this conversation` }, true);
      }
      const status = { invocationId, tool: task.tool, status: task.status, statusMessage: task.statusMessage };
      if (call.outcome === null) return text({ ...status, state: call.state });
      const result = await store.getResult(context.scope, invocationId);
      return text({
        ...status,
        state: call.state,
        outcome: call.outcome,
        ...(call.error === null ? {} : { error: call.error.message }),
        ...(result === undefined ? {} : { result: result.model.text }),
      });
    },
  };
}
