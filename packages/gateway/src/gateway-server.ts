import type { Caller, Host, Scope, Tool } from '@airlock/core';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Server } from '@modelcontextprotocol/server';
import type {
  CallToolResult,
  ClientCapabilities,
  InputRequiredResult,
  ServerContext,
  Tool as McpTool,
} from '@modelcontextprotocol/server';
import { serveCatalog } from './catalog-handlers.js';
import { declaresTaskExtension, requestCapabilities, TASKS_EXTENSION } from './extension-tasks.js';
import type { ExtensionTasks } from './extension-tasks.js';
import type { FastCall, FastToolCalls } from './fast-tool-calls.js';
import type { ClientAsker, GatewaySurface } from './gateway-surface.js';
import type { ListenedResources } from './listened-resources.js';
import type { CallAnswer, RoundTrips } from './round-trips.js';
import { TASKS_CAPABILITY, TaskCalls } from './task-calls.js';
import { TaskResultServer } from './task-result-server.js';

/** The gateway's `serverInfo.name`, as clients show it. */
export const GATEWAY_NAME = 'airlock-gateway';

/** The gateway's version, kept equal to the package's. */
export const GATEWAY_VERSION = '0.1.0';

const MODEL: Caller = { kind: 'model' };

/** The longest a question to the client may stay open on the wire; the host's own prompt deadline ends it sooner. */
const QUESTION_TIMEOUT_MS = 60 * 60_000;

/** What one gateway session serves from: the host, the surface the host asks through, and whose session it is. */
export interface GatewayServerOptions {
  readonly host: Host;
  /** The surface `host` was created with: the session's client is attached to it while the session lives. */
  readonly surface: GatewaySurface;
  /** The tenant and conversation every request of this session runs under. */
  readonly scope: Scope;
  /**
   * The protocol era the server serves (the serving entry says which): `legacy` (2025-11-25, the default) asks the
   * client with `elicitation/create` requests; `modern` (2026-07-28) has none, so a call's questions end its request
   * with an input-required result and the client's retry continues the call, held in `roundTrips`.
   */
  readonly era?: 'legacy' | 'modern';
  /** Where a modern-era call waits between the client's retries; needed for `era: 'modern'`. */
  readonly roundTrips?: RoundTrips;
  /**
   * The 2026-07-28 tasks extension, served to a modern-era client that declares it on its requests (the gateway
   * declares it then). Without it, a modern-era client's call that becomes a task is waited for and answered.
   */
  readonly extensionTasks?: ExtensionTasks;
  /**
   * Whether the server tells the client its lists changed itself (default true). An HTTP entry serving the modern era
   * with one instance per request publishes those on its own bus instead.
   */
  readonly relayListChanges?: boolean;
  /** The resource URIs a modern-era stdio client's `subscriptions/listen` requests name, to tell it updates of. */
  readonly listened?: ListenedResources;
  /** The stdio wire's fast path, which a 2025-11-25 session hands its plain tool calls to once initialized. */
  readonly fastCalls?: FastToolCalls;
}

/**
 * Builds the MCP server of one gateway session (2025-11-25) or request (2026-07-28): the model's tools from the host,
 * each `tools/call` through `host.invoke` with the model as caller (rules, the gate, history, audit, bounds), and the
 * servers' resources, templates, prompts and completions. A denial or a tool's failure is an `isError` result, never
 * a protocol error; the client gets the model's share of each result, and the host keeps the whole behind its handle.
 * The host's list changes are relayed as `notifications/*\/list_changed`.
 */
export function createGatewayServer(options: GatewayServerOptions): Server {
  const { host, surface, scope } = options;
  const modern = options.era === 'modern';
  const server = new TaskResultServer(
    { name: GATEWAY_NAME, version: GATEWAY_VERSION, title: 'Airlock gateway' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: true, subscribe: true },
        prompts: { listChanged: true },
        completions: {},
        // 2025-11-25 tasks; the 2026-07-28 revision has an extension of its own instead.
        ...(modern ? {} : { tasks: TASKS_CAPABILITY }),
        ...(modern && options.extensionTasks !== undefined ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
      },
      instructions:
        'Airlock governs these tools: each call may be asked of the user first, is kept in an audit log, and its ' +
        'result is bounded (a cut result names a handle, readable as a resource).',
    },
  );

  const sessionAsker: ClientAsker = {
    modes: () => elicitationModes(server),
    elicit: (params, signal) => server.elicitInput(params, { signal, timeout: QUESTION_TIMEOUT_MS }),
  };
  const progress = new Map<string, (value: { progress: number; total?: number; message?: string }) => void>();
  const relay = options.relayListChanges ?? true;
  const stops = [
    // A modern-era client cannot be asked outside a call: a question with no call behind it finds no client here.
    modern ? () => undefined : surface.attachConversation(scope, sessionAsker),
    ...(relay
      ? [
          host.on('tools.changed', () => void server.sendToolListChanged().catch(() => undefined)),
          host.on('resources.changed', () => void server.sendResourceListChanged().catch(() => undefined)),
          host.on('prompts.changed', () => void server.sendPromptListChanged().catch(() => undefined)),
        ]
      : []),
    host.on('invocation.progress', ({ invocation, progress: value }) => progress.get(invocation.id)?.(value)),
    host.on('elicitation.completed', ({ scope: whose, elicitationId }) => {
      // A 2026-07-28 client learns a URL question's outcome by retrying: it has no completion notification.
      if (modern || whose.conversationId !== scope.conversationId || whose.userId !== scope.userId) return;
      void server
        .createElicitationCompletionNotifier(elicitationId)()
        .catch(() => undefined);
    }),
  ];
  const endSubscriptions = serveCatalog(server, host, scope, options.listened);
  const tasks = modern ? undefined : new TaskCalls({ host, surface, scope, sessionAsker });
  tasks?.serve(server);
  if (modern) options.extensionTasks?.serve(server, scope);
  server.onclose = () => {
    for (const stop of stops.splice(0)) stop();
    tasks?.close();
    void endSubscriptions();
  };

  function listTools() {
    // A client that makes task-augmented calls learns which tools may run as tasks; others call them plainly.
    const asked = modern
      ? undefined
      : (server.getClientCapabilities()?.tasks?.requests as { tools?: { call?: object } });
    const taskCalls = asked?.tools?.call;
    return {
      tools: host.tools.list({ audience: 'model', scope }).map((tool) => listedTool(tool, taskCalls !== undefined)),
    };
  }
  server.setRequestHandler('tools/list', listTools);

  /** A 2025-11-25 client's plain call (no task): `host.invoke` as the model, asking through `callAsker`. */
  async function plainCall(
    { name, args, progressToken, signal, notify }: FastCall,
    callAsker: ClientAsker,
  ): Promise<CallToolResult> {
    let recorded: string | undefined;
    let detach: (() => void) | undefined;
    try {
      const result = await host.invoke({
        scope,
        caller: MODEL,
        tool: name,
        args,
        signal,
        onRecorded: (invocation) => {
          recorded = invocation.id;
          detach = surface.attachCall(invocation.id, callAsker);
          if (progressToken !== undefined) {
            progress.set(invocation.id, (value) =>
              notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, ...value } }),
            );
          }
        },
      });
      return { content: [...result.content], ...(result.isError ? { isError: true } : {}) };
    } finally {
      detach?.();
      if (recorded !== undefined) progress.delete(recorded);
    }
  }

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    // A task handle is a result the SDK's types do not know; TaskResultServer lets it through its checks.
    if (modern) return roundTripCall(options, request.params, ctx) as Promise<CallToolResult | InputRequiredResult>;
    const { name, arguments: args, _meta } = request.params;
    const callAsker: ClientAsker = {
      modes: () => elicitationModes(server),
      elicit: (params, signal) => ctx.mcpReq.elicitInput(params, { signal, timeout: QUESTION_TIMEOUT_MS }),
    };
    if (tasks !== undefined && request.params.task !== undefined) {
      // The spec's answer to a task-augmented call of a tool that cannot run as one.
      if (!tasks.canRunAsTask(name)) {
        throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${name} does not run as a task: call it plainly`);
      }
      // The SDK types a tools/call result as a tool's result; a task-augmented call's is the task.
      return tasks.start({
        name,
        args: args ?? {},
        callAsker,
        signal: ctx.mcpReq.signal,
      }) as unknown as Promise<CallToolResult>;
    }
    const notify = ({ method, params }: { method: string; params?: object }) =>
      void ctx.mcpReq.notify({ method, params } as never).catch(() => undefined);
    return plainCall(
      { name, args: args ?? {}, progressToken: _meta?.progressToken, signal: ctx.mcpReq.signal, notify },
      callAsker,
    );
  });

  const fastCalls = options.fastCalls;
  if (!modern && fastCalls !== undefined) {
    // Only an initialized session has settled its era: from then on its plain calls skip the SDK's dispatch.
    server.oninitialized = () =>
      stops.push(fastCalls.enable({ list: listTools, call: (call) => plainCall(call, sessionAsker) }));
  }

  return server;
}

/**
 * A host tool as the gateway lists it: its namespaced name and what the model reads. No `outputSchema`: the client
 * gets the model's bounded text, never structured content, and a client that knows a schema refuses a result
 * without it.
 */
function listedTool(tool: Tool, tasks: boolean): McpTool {
  // The gateway can answer either way (a task, or waiting for it), so a task tool is optional here.
  const asTask = tasks && (tool.taskSupport === 'required' || tool.taskSupport === 'optional');
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema as McpTool['inputSchema'],
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    ...(tool.icons === undefined ? {} : { icons: [...tool.icons] }),
    ...(asTask ? { execution: { taskSupport: 'optional' as const } } : {}),
  };
}

/**
 * A 2026-07-28 client's `tools/call`, or its retry: the call runs through `host.invoke` across the client's retries
 * (see {@link RoundTrips}), and this request answers with its result or the questions it waits on.
 */
async function roundTripCall(
  { host, surface, scope, roundTrips, extensionTasks }: GatewayServerOptions,
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } },
  ctx: ServerContext,
): Promise<CallAnswer | InputRequiredResult> {
  if (roundTrips === undefined) throw new Error('a modern-era gateway server needs roundTrips');
  const owner = JSON.stringify([scope.userId, scope.workspaceId, scope.conversationId]);
  const capabilities = requestCapabilities(ctx);
  const modes = modesOf(capabilities);
  // Only a request that declares the tasks extension may be answered with a task handle, as the extension says.
  const asTask = extensionTasks !== undefined && declaresTaskExtension(capabilities) ? extensionTasks : undefined;
  const state = ctx.mcpReq.requestState();
  const progressToken = params._meta?.progressToken;
  const relay = progressToken === undefined ? undefined : relayProgress(ctx, progressToken);
  let call;
  if (typeof state === 'string') {
    call = roundTrips.resume(state, owner, params.name);
    call.answer(ctx.mcpReq.inputResponses);
  } else {
    call = roundTrips.start(owner, params.name, modes);
    const started = call;
    const relayed = (invocation: { id: string }) =>
      host.on('invocation.progress', ({ invocation: of, progress }) => {
        if (of.id === invocation.id) started.progress?.(progress);
      });
    if (asTask !== undefined) {
      started.run(async (signal) => {
        let stopProgress: (() => void) | undefined;
        try {
          return await asTask.call({
            scope,
            tool: params.name,
            args: params.arguments ?? {},
            signal,
            callAsker: started.asker,
            onRecorded: (invocation) => (stopProgress = relayed(invocation)),
          });
        } finally {
          stopProgress?.();
        }
      });
    } else
      started.run(async (signal) => {
        let stopProgress: (() => void) | undefined;
        let detach: (() => void) | undefined;
        try {
          const result = await host.invoke({
            scope,
            caller: MODEL,
            tool: params.name,
            args: params.arguments ?? {},
            signal,
            onRecorded: (invocation) => {
              detach = surface.attachCall(invocation.id, started.asker);
              stopProgress = relayed(invocation);
            },
          });
          return { content: [...result.content], ...(result.isError ? { isError: true } : {}) };
        } finally {
          detach?.();
          stopProgress?.();
        }
      });
  }
  call.progress = relay;
  try {
    return await call.leg({ signal: ctx.mcpReq.signal, modes });
  } finally {
    if (call.progress === relay) call.progress = undefined;
  }
}

/** The elicitation modes the client declared: an empty `elicitation` object means form only, as the spec says. */
function elicitationModes(server: Server): { form: boolean; url: boolean } {
  return modesOf(server.getClientCapabilities());
}

function modesOf(capabilities: ClientCapabilities | undefined): { form: boolean; url: boolean } {
  const declared = capabilities?.elicitation as { form?: object; url?: object } | undefined;
  if (declared === undefined) return { form: false, url: false };
  const url = declared.url !== undefined;
  return { form: declared.form !== undefined || !url, url };
}

function relayProgress(
  ctx: ServerContext,
  progressToken: string | number,
): (value: { progress: number; total?: number; message?: string }) => void {
  return (value) =>
    void ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken, ...value } })
      .catch(() => undefined);
}
