import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import type { McpRequestTrace } from '../otel/mcp-request-trace.js';
import type { Scope } from '../scope.js';
import type { ToolProgress } from '../tools/tool.js';
import type { TaskUpdate } from '../tools/tool-task.js';

/** Options of one `tools/call`. Timeouts are the pipeline's; the connection only forwards the signal. */
export interface ConnectionCallOptions {
  readonly signal: AbortSignal;
  readonly onProgress: (progress: ToolProgress) => void;
  /** The definition as listed (without its outputSchema), so the SDK needs no tools/list of its own. */
  readonly definition: McpToolDefinition;
  /** Whose call it is (the pool passes it on). */
  readonly scope?: Scope;
  /** Told each move of the call's task, when the tool runs as one (task-call.ts). */
  readonly onTask?: (update: TaskUpdate) => void;
  /** Run a tool whose `taskSupport` is `optional` as a task. */
  readonly asTask?: boolean;
  /** The call's request trace, while traced: its `_meta` goes on the request, and the id it is sent with is told. */
  readonly trace?: Pick<McpRequestTrace, 'meta' | 'requestId'>;
}
