import { HostError } from '../errors/host-error.js';
import { assertArguments } from '../tools/schema-validator.js';
import type { Tool } from '../tools/tool.js';
import type { RegisteredTool, ToolRegistry } from '../tools/tool-registry.js';
import type { InvocationError } from '../store/invocation-record.js';
import type { InvokeOptions } from './invoke-options.js';

/**
 * Why a call was refused before anything was recorded or sent: a fault the caller or the model made, answered as an
 * outcome the model can act on rather than thrown at it.
 */
export class CallRefusal {
  constructor(
    readonly outcome: 'tool_not_found' | 'invalid_arguments' | 'auth_required',
    readonly error: InvocationError,
    /** The tool, when the name resolved to one the caller may see. */
    readonly tool: Tool | undefined,
  ) {}
}

/** Why a tool name's server offers no tools now, and whether signing in is what it waits for. */
export interface ServerNotReady {
  readonly message: string;
  readonly needsAuth: boolean;
}

/**
 * The first step of the one path: the tool the caller names, resolved for that caller (visibility), and its arguments
 * checked against the tool's inputSchema. An unknown or hidden tool, or one the host cannot call (`unavailable`), is
 * refused as `tool_not_found` (the error's code says which: `tool_not_visible`, `tool_unavailable`), arguments that
 * are not a JSON object or fail the schema as `invalid_arguments` with every failing path. Anything else the
 * registry throws is a programmer's error and is thrown on.
 */
export function admitCall(options: {
  readonly registry: ToolRegistry;
  readonly call: InvokeOptions;
  /** The call's arguments, `{}` when none were given. */
  readonly args: unknown;
  /** Why the tool's server is not ready, named in a `tool_not_found` (a failed server lists no tools). */
  readonly serverNotReady?: (toolName: string, scope: InvokeOptions['scope']) => ServerNotReady | undefined;
}): RegisteredTool | CallRefusal {
  const { call, args } = options;
  let entry: RegisteredTool;
  try {
    entry = options.registry.resolve(call.tool, call.caller, call.scope);
  } catch (error) {
    if (error instanceof HostError && (error.code === 'tool_not_found' || error.code === 'tool_not_visible')) {
      const why = error.code === 'tool_not_found' ? options.serverNotReady?.(call.tool, call.scope) : undefined;
      const message = why === undefined ? error.message : `${error.message}: ${why.message}`;
      // A server that wants sign-in lists no tools: the call is refused for that, as a 401 mid-session is.
      if (why?.needsAuth === true) return new CallRefusal('auth_required', { code: 'needs_auth', message }, undefined);
      return new CallRefusal('tool_not_found', { code: error.code, message }, undefined);
    }
    throw error;
  }
  const tool = entry.tool;
  // A tool the user may see but the host cannot call yet (it requires task augmentation): say why, send nothing.
  if (tool.unavailable !== undefined) {
    const message = `${tool.name} cannot be called: it ${tool.unavailable.reason}; nothing was sent`;
    return new CallRefusal('tool_not_found', { code: 'tool_unavailable', message }, tool);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return new CallRefusal(
      'invalid_arguments',
      { code: 'invalid_arguments', message: `arguments for ${tool.name} must be a JSON object` },
      tool,
    );
  }
  try {
    assertArguments(entry.checkInput, tool.name, args);
  } catch (error) {
    if (error instanceof HostError && error.code === 'invalid_arguments') {
      return new CallRefusal('invalid_arguments', { code: error.code, message: error.message }, tool);
    }
    throw error;
  }
  return entry;
}
