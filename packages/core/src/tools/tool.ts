import type { TaskUpdate } from './tool-task.js';
import type { Audience } from '../caller.js';
import type { Scope } from '../scope.js';
import type { DefinitionCut } from './definition-bounds.js';
import type { CallToolResult, Icon, ToolAnnotations } from '@modelcontextprotocol/client';

/** Where a tool comes from: registered by the application itself, or listed by an MCP server. */
export type ToolOrigin =
  { readonly kind: 'native' } | { readonly kind: 'mcp'; readonly serverId: string; readonly originalName: string };

/** A JSON Schema object as tools declare it (an object schema for inputs). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a tool reports while it runs. */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** Per-run context handed to a tool. `signal` aborts on cancel and on timeout; `onProgress` resets the timeout. */
export interface ToolRunContext {
  readonly signal: AbortSignal;
  /** Whose call it is. */
  readonly scope: Scope;
  onProgress(progress: ToolProgress): void;
  /** A tool that runs as a task tells each move of its task (its handle, then each status its server reports). */
  onTask?(update: TaskUpdate): void;
  /** Run a tool whose `taskSupport` is `optional` as a task (the caller or a per-tool setting asked). */
  readonly asTask?: boolean;
}

/**
 * One tool, native or MCP: the registry, the pipeline and every surface handle both alike.
 *
 * `name` is unique within a host (MCP tools are namespaced `server__tool`); `origin` keeps the server and the name the
 * server used, for display and for the call itself. `visibility` says which audiences may see it (MCP Apps).
 */
export interface Tool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly origin: ToolOrigin;
  readonly visibility: readonly Audience[];
  /** The tool's `_meta` as listed (a server's own risk claim lives here). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The `ui://` view the tool renders into, when it has one (MCP Apps). */
  readonly resourceUri?: string;
  /**
   * `required`: the tool runs as a task (long work; its calls have `limits.taskMaxTotalMs` as their ceiling);
   * `optional`: when the caller asks (2025-11-25); `server`: its server decides per call (the 2026-07-28 tasks
   * extension), and a call that becomes a task has the task ceiling from then on.
   */
  readonly taskSupport?: 'required' | 'optional' | 'server';
  /** sha256 of the canonical JSON of name, description, schemas and annotations: a changed tool asks again. */
  readonly definitionHash: string;
  /**
   * Set when the host cannot call the tool yet, and why: it is then listed for the user only (never offered to the
   * model or to apps), and a call to it is refused before anything is recorded or sent.
   */
  readonly unavailable?: ToolUnavailable;
  /** Set when the server's definition was over the host's bounds: what was cut (the description tells the model too). */
  readonly definitionCut?: DefinitionCut;
  /** Runs the tool. Resolves with an MCP-shaped result; throws only for protocol or transport failures. */
  run(args: Readonly<Record<string, unknown>>, context: ToolRunContext): Promise<CallToolResult>;
}

/**
 * Why a listed tool cannot be called. `tasks_required`: the server declares `execution.taskSupport: "required"`, so a
 * plain `tools/call` always fails, and this host does not make task-augmented calls yet.
 */
export interface ToolUnavailable {
  readonly code: 'tasks_required';
  /** Worded for a person and for the model: what the tool needs and that the host cannot give it. */
  readonly reason: string;
}

/** Where a call to a tool goes: its server (null for a native tool) and the name that server knows it by. */
export interface ToolTarget {
  readonly serverId: string | null;
  readonly originalName: string;
}

/** The server and own name of a tool, native or MCP alike: the one place that tells the two origins apart. */
export function toolTarget(tool: Pick<Tool, 'origin' | 'name'>): ToolTarget {
  return tool.origin.kind === 'mcp'
    ? { serverId: tool.origin.serverId, originalName: tool.origin.originalName }
    : { serverId: null, originalName: tool.name };
}

/** The display name the spec asks for: `title`, then `annotations.title`, then the tool's own name. */
export function toolDisplayName(tool: Pick<Tool, 'title' | 'annotations' | 'origin' | 'name'>): string {
  return tool.title ?? tool.annotations?.title ?? toolTarget(tool).originalName;
}
