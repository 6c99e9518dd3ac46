import type { CallToolResult, Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';
import { visibilityRefusal } from './visibility-refusal.js';
import type { JsonSchema, Tool, ToolRunContext, ToolUnavailable } from './tool.js';
import type { Audience, Caller } from '../caller.js';
import type { TaskUpdate } from './tool-task.js';
import type { TaskEra } from '../store/invocation-task.js';
import { definitionHash } from './definition-hash.js';
import { isRecommendedToolName, namespacedToolName } from './tool-name.js';
import { audiencesOf, readToolUiMeta } from './tool-ui-meta.js';
import { compileSchema } from './schema-validator.js';
import { boundDefinition } from './definition-bounds.js';
import type { SchemaCheck } from './schema-validator.js';

/** A tool the application itself provides, beside MCP tools. */
export interface NativeToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: Tool['annotations'];
  /** Default: model and app. */
  readonly visibility?: readonly ('model' | 'app')[];
  run(args: Readonly<Record<string, unknown>>, context: ToolRunContext): Promise<CallToolResult>;
}

/** The server side a registry needs to run MCP tools: the connection's call. */
export interface ToolCaller {
  callTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: {
      signal: AbortSignal;
      onProgress: ToolRunContext['onProgress'];
      definition: McpToolDefinition;
      /** Whose call it is: a server with a connection per user or workspace picks that tenant's connection. */
      scope: Scope;
    },
  ): Promise<CallToolResult>;
}

/**
 * What the registry asks of the host's switches (switches/tool-switches.ts): a tool switched off for the model in a
 * scope is neither listed to the model nor callable by it; a name of a server switched off is refused naming it.
 */
export interface RegistrySwitches {
  /** Why the model may not see this tool in this scope (hidden for the user or the workspace), or undefined. */
  hidden(tool: Tool, scope: Scope | undefined): string | undefined;
  /** Why a name no listed tool has is unknown, when its server is switched off; undefined otherwise. */
  unknown(name: string): string | undefined;
}

/** A registered tool with its compiled schema checks. */
export interface RegisteredTool {
  readonly tool: Tool;
  readonly checkInput: SchemaCheck;
  readonly checkOutput?: SchemaCheck;
}

const NATIVE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Every tool the host knows, native and MCP, under host-unique names. MCP tools are replaced per server whenever the
 * server's list changes; a tool with an invalid schema is left out with a warning naming the server, so one bad tool
 * never hides the others.
 */
export class ToolRegistry {
  readonly #native = new Map<string, RegisteredTool>();
  readonly #servers = new Map<string, Map<string, RegisteredTool>>();
  /** Per server, the listings of tenant connections that differ from the server's catalog, by tenant key. */
  readonly #tenants = new Map<string, Map<string, Map<string, RegisteredTool>>>();
  /** The tenant key a scope has on a server (`undefined`: the server has one connection for all). */
  readonly #tenantOf: (serverId: string, scope: Scope) => string | undefined;
  readonly #switches: RegistrySwitches | undefined;
  /** A server's own `maxDefinitionChars`, when its entry raises (or lowers) the bound on its definitions. */
  readonly #definitionLimit: (serverId: string) => number | undefined;

  constructor(
    options: {
      tenantOf?: (serverId: string, scope: Scope) => string | undefined;
      switches?: RegistrySwitches;
      definitionLimit?: (serverId: string) => number | undefined;
    } = {},
  ) {
    this.#tenantOf = options.tenantOf ?? (() => undefined);
    this.#switches = options.switches;
    this.#definitionLimit = options.definitionLimit ?? (() => undefined);
  }

  /** Adds a native tool; throws `tool_name_collision` or `config_invalid` on a bad or taken name. */
  registerNative(definition: NativeToolDefinition, options?: { readonly host?: true }): Tool {
    // "__" separates a server from its tool; the host alone names its own tools `airlock__...`.
    const hostName = options?.host === true && definition.name.startsWith('airlock__');
    if (!NATIVE_NAME.test(definition.name) || (definition.name.includes('__') && !hostName)) {
      throw new HostError(
        'config_invalid',
        `native tool name "${definition.name}" must be 1-64 letters, digits, "_" or "-", without "__"`,
      );
    }
    if (this.#find(definition.name, undefined) !== undefined) {
      throw new HostError('tool_name_collision', `a tool named ${definition.name} already exists`);
    }
    const run = definition.run.bind(definition);
    const tool: Tool = {
      name: definition.name,
      ...optional('title', definition.title),
      ...optional('description', definition.description),
      inputSchema: definition.inputSchema,
      ...optional('outputSchema', definition.outputSchema),
      ...optional('annotations', definition.annotations),
      origin: { kind: 'native' },
      visibility: audiencesOf(definition.visibility ?? ['model', 'app']),
      definitionHash: definitionHash(definition),
      run: (args, context) => run(args, context),
    };
    this.#native.set(tool.name, compiled(tool));
    return tool;
  }

  /**
   * Replaces a server's tools with a fresh listing: its catalog, or with `tenant` what one tenant's own connection
   * lists, which that tenant then sees in place of the catalog. Returns warnings (bad names, bad schemas, deprecated
   * metadata) worded for a person, each naming the server and the tool.
   */
  setServerTools(
    serverId: string,
    caller: ToolCaller,
    definitions: readonly McpToolDefinition[],
    tenant?: string,
    /** The era in which the server runs tool calls as tasks for this host: without one, a task-only tool is unavailable. */
    tasks: TaskEra | false = false,
  ): string[] {
    const { tools, warnings } = this.#build(serverId, caller, definitions, tasks);
    if (tenant === undefined) {
      this.#servers.set(serverId, tools);
    } else {
      let byTenant = this.#tenants.get(serverId);
      if (byTenant === undefined)
        this.#tenants.set(serverId, (byTenant = new Map<string, Map<string, RegisteredTool>>()));
      byTenant.set(tenant, tools);
    }
    return warnings;
  }

  /** Forgets one tenant's own listing: the tenant sees the server's catalog again. */
  removeTenantTools(serverId: string, tenant: string): void {
    const byTenant = this.#tenants.get(serverId);
    byTenant?.delete(tenant);
    if (byTenant?.size === 0) this.#tenants.delete(serverId);
  }

  /** True once the server has a catalog (a listing not of one tenant). */
  hasCatalog(serverId: string): boolean {
    return this.#servers.has(serverId);
  }

  #build(
    serverId: string,
    caller: ToolCaller,
    definitions: readonly McpToolDefinition[],
    tasks: TaskEra | false,
  ): { tools: Map<string, RegisteredTool>; warnings: string[] } {
    const warnings: string[] = [];
    const tools = new Map<string, RegisteredTool>();
    for (const listed of definitions) {
      const label = `server "${serverId}": tool ${JSON.stringify(listed.name)}`;
      // Bounded before anything keeps it: what is cut never reaches the model, a tab or the definition hash.
      const bounded = boundDefinition(listed, this.#definitionLimit(serverId));
      if ('refused' in bounded) {
        warnings.push(`${label}: ${bounded.refused}`);
        continue;
      }
      const definition = bounded.definition;
      if (bounded.cut !== undefined) warnings.push(`${label}: ${bounded.cut.note}`);
      if (!isRecommendedToolName(definition.name)) warnings.push(`${label}: name is outside [A-Za-z0-9_.-]{1,128}`);
      let name = namespacedToolName(serverId, definition.name);
      if (tools.has(name) || this.#native.has(name)) name = namespacedToolName(serverId, definition.name, 16);
      if (tools.has(name) || this.#native.has(name)) {
        warnings.push(`${label}: left out, its name collides with another tool`);
        continue;
      }
      const ui = readToolUiMeta(definition._meta);
      const unavailable = tasks ? undefined : unavailableReason(definition);
      if (unavailable !== undefined) {
        warnings.push(`${label}: ${unavailable.reason}; listed for the user only, not offered to the model or apps`);
      }
      // The output schema is left out of what the SDK sees: the pipeline validates structuredContent itself, so a
      // server's bad output is classified invalid_output rather than mistaken for the server's own -32602.
      const callDefinition = { ...definition };
      delete callDefinition.outputSchema;
      for (const warning of ui.warnings) warnings.push(`${label}: ${warning}`);
      const tool: Tool = {
        name,
        ...optional('title', definition.title),
        ...optional('description', definition.description),
        inputSchema: definition.inputSchema,
        ...optional('outputSchema', definition.outputSchema),
        ...optional('annotations', definition.annotations),
        ...optional('icons', definition.icons),
        ...optional('meta', definition._meta),
        origin: { kind: 'mcp', serverId, originalName: definition.name },
        visibility: audiencesOf(unavailable === undefined ? ui.visibility : []),
        ...optional('unavailable', unavailable),
        ...optional('resourceUri', ui.resourceUri),
        ...optional('taskSupport', taskSupportOf(definition, tasks)),
        ...optional('definitionCut', bounded.cut),
        definitionHash: definitionHash(definition),
        run: (args, context) =>
          caller.callTool(definition.name, args, {
            signal: context.signal,
            onProgress: (progress) => context.onProgress(progress),
            definition: callDefinition,
            scope: context.scope,
            ...(context.onTask === undefined ? {} : { onTask: (update: TaskUpdate) => context.onTask?.(update) }),
            ...(context.asTask === true ? { asTask: true } : {}),
          }),
      };
      try {
        tools.set(name, compiled(tool));
      } catch (error) {
        warnings.push(`${label}: left out, ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return { tools, warnings };
  }

  /** Forgets a server's tools (the server was removed or closed), its tenants' listings too. */
  removeServer(serverId: string): void {
    this.#servers.delete(serverId);
    this.#tenants.delete(serverId);
  }

  /**
   * The tools an audience may see; with a scope, as that tenant sees them (its own connection's listing where it
   * differs). An app sees only its own server's tools with app visibility.
   */
  list(options: { audience: Audience; serverId?: string; scope?: Scope }): Tool[] {
    const caller = callerFor(options.audience, options.serverId);
    const out: Tool[] = [];
    for (const entry of this.#all(options.scope)) {
      if (visibilityRefusal(entry.tool, caller) !== null) continue;
      if (caller.kind === 'model' && this.#switches?.hidden(entry.tool, options.scope) !== undefined) continue;
      out.push(entry.tool);
    }
    return out;
  }

  /** Finds a tool a caller may call; throws `tool_not_found` or `tool_not_visible` with a clear reason. */
  resolve(name: string, caller: Caller, scope?: Scope): RegisteredTool {
    const entry = this.#find(name, scope);
    if (entry === undefined) {
      const off = this.#switches?.unknown(name);
      throw new HostError('tool_not_found', off ?? `unknown tool ${name}`, { data: { tool: name } });
    }
    const refusal =
      visibilityRefusal(entry.tool, caller) ??
      (caller.kind === 'model' ? (this.#switches?.hidden(entry.tool, scope) ?? null) : null);
    if (refusal !== null) throw new HostError('tool_not_visible', refusal, { data: { tool: name } });
    return entry;
  }

  /** A tool by its host name, whoever may see it. */
  get(name: string, scope?: Scope): Tool | undefined {
    return this.#find(name, scope)?.tool;
  }

  #find(name: string, scope: Scope | undefined): RegisteredTool | undefined {
    const native = this.#native.get(name);
    if (native !== undefined) return native;
    for (const tools of this.#views(scope)) {
      const entry = tools.get(name);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }

  *#all(scope: Scope | undefined): Iterable<RegisteredTool> {
    yield* this.#native.values();
    for (const tools of this.#views(scope)) yield* tools.values();
  }

  /** Each server's tools as the scope's tenant sees them: its own listing where it has one, else the catalog. */
  *#views(scope: Scope | undefined): Iterable<Map<string, RegisteredTool>> {
    if (scope === undefined || this.#tenants.size === 0) {
      yield* this.#servers.values();
      return;
    }
    const seen = new Set<string>();
    for (const [serverId, byTenant] of this.#tenants) {
      const tenant = this.#tenantOf(serverId, scope);
      const own = tenant === undefined ? undefined : byTenant.get(tenant);
      if (own === undefined) continue;
      seen.add(serverId);
      yield own;
    }
    for (const [serverId, tools] of this.#servers) if (!seen.has(serverId)) yield tools;
  }
}

const TASKS_REQUIRED: ToolUnavailable = {
  code: 'tasks_required',
  reason: 'needs task augmentation (execution.taskSupport "required"), which its server does not offer this host',
};

/**
 * Why a listed tool cannot be called by this host, if it cannot: a tool that requires task augmentation fails every
 * plain call ("requires task augmentation"), so where its server offers no tasks (no tasks capability for tools/call
 * in the 2025-11-25 era) it is not offered to the model.
 */
function unavailableReason(definition: McpToolDefinition): ToolUnavailable | undefined {
  return definition.execution?.taskSupport === 'required' ? TASKS_REQUIRED : undefined;
}

/** How a tool's calls may run as tasks: as it declares (2025-11-25), or as its server decides (the 2026 extension). */
function taskSupportOf(definition: McpToolDefinition, tasks: TaskEra | false): Tool['taskSupport'] {
  const support = definition.execution?.taskSupport;
  if (tasks === '2026-07-28') return support === 'required' ? 'required' : 'server';
  return support === 'required' || support === 'optional' ? support : undefined;
}

function compiled(tool: Tool): RegisteredTool {
  const checkInput = compileSchemaFor(tool, 'inputSchema', tool.inputSchema);
  if (tool.inputSchema['type'] !== 'object') throw new Error('inputSchema must have type "object"');
  const checkOutput =
    tool.outputSchema === undefined ? undefined : compileSchemaFor(tool, 'outputSchema', tool.outputSchema);
  return { tool, checkInput, ...optional('checkOutput', checkOutput) };
}

function compileSchemaFor(tool: Tool, field: string, schema: unknown): SchemaCheck {
  try {
    return compileSchema(schema);
  } catch (error) {
    throw new Error(`${field} is invalid: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

function callerFor(audience: Audience, serverId: string | undefined): Caller {
  if (audience === 'app') {
    if (serverId === undefined) throw new HostError('invalid_arguments', 'the app audience needs the serverId');
    return { kind: 'app', serverId };
  }
  return { kind: audience };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
