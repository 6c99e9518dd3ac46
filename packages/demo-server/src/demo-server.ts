import { setTimeout as delay } from 'node:timers/promises';
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { ProtocolEra, ServerContext } from '@modelcontextprotocol/server';
import { appTools, legacyFormTools } from './app-tools.js';
import { basicTools } from './basic-tools.js';
import type { CallLog } from './call-log.js';
import { contentTools } from './content-tools.js';
import { listDemoResources, readDemoResource } from './demo-resources.js';
import { DemoState } from './demo-state.js';
import type { DemoTool, DemoToolContext } from './demo-tool.js';
import { elicitationTools } from './elicitation-tools.js';
import { failureTools } from './failure-tools.js';
import { longRunningTools } from './long-running-tools.js';
import { noteTools } from './note-tools.js';
import { stateTools } from './state-tools.js';
import { toolPage } from './tool-page.js';

/** The demo server's `serverInfo.name`. */
export const DEMO_SERVER_NAME = 'airlock-demo';

/** The demo server's `serverInfo.version`, kept equal to the package version. */
export const DEMO_SERVER_VERSION = '0.1.0';

/** Every demo tool served by default, in `tools/list` order. Host tests depend on these names. */
export const DEMO_TOOLS: readonly DemoTool[] = [
  ...basicTools,
  ...noteTools,
  ...contentTools,
  ...longRunningTools,
  ...elicitationTools,
  ...appTools,
  ...stateTools,
  ...failureTools,
];

/** The tools `legacyForms` adds at the end of the list: cases written in deprecated `_meta` forms. */
export const LEGACY_FORM_TOOLS: readonly DemoTool[] = legacyFormTools;

/** How to build one demo server instance. Every field is optional. */
export interface DemoServerOptions {
  /** State shared by all instances of a process; the HTTP entry builds an instance per request or session. */
  readonly state?: DemoState;
  /** Tools per `tools/list` page (a cursor leads to the next); all on one page when absent. */
  readonly pageSize?: number;
  /** Milliseconds every `tools/list` after this instance's first waits before answering. */
  readonly slowListMs?: number;
  /** Told about every call that reaches a tool and every call the client aborts. */
  readonly callLog?: CallLog;
  /**
   * The era this instance serves, as the SDK's serving entries pass it to a factory (`McpRequestContext.era`);
   * `connect_account` asks differently per era. Defaults to `legacy`, the era of a plainly connected `Server`.
   */
  readonly era?: ProtocolEra;
  /**
   * Tells clients the tool list changed. By default the instance sends `notifications/tools/list_changed` itself,
   * which suits one instance per connection (stdio, where `serveStdio` routes it onto 2026 subscriptions, and 2025
   * HTTP sessions); per-request 2026 HTTP instances must publish through the handler's bus instead.
   */
  readonly onToolsChanged?: () => void;
  /** Ends the process for the `crash` tool. Defaults to `process.exit`. */
  readonly exit?: (code: number) => void;
  /**
   * Misbehave: every `tools/call` is logged, then handed to this instead of its tool and never answered (the bin's
   * `--garbage-on-call` writes a line of garbage to stdout from it: a broken stdio server).
   */
  readonly swallowCall?: (tool: string) => void;
  /** Misbehave: every `tools/list` reply carries this many million characters of padding in its `_meta`. */
  readonly hugeListMb?: number;
  /** Also serve {@link LEGACY_FORM_TOOLS}, the deprecated `_meta` forms a host must still read. Off by default. */
  readonly legacyForms?: boolean;
}

/**
 * Builds the Airlock demo server: one tool per case an MCP host must show, a dashboard view and a small notebook.
 *
 * It is a factory: pass it to `serveStdio` or `createMcpHandler` as is, or with options bound, and it serves both
 * protocol eras. It sits on the low-level `Server` because its point is to misbehave in ways `McpServer` prevents
 * (see {@link DemoTool}). It never runs commands or touches the network.
 */
export function createDemoServer(options: DemoServerOptions = {}): Server {
  const state = options.state ?? new DemoState();
  const era = options.era ?? 'legacy';
  const callLog = options.callLog ?? (() => {});
  const server = new Server(
    { name: DEMO_SERVER_NAME, version: DEMO_SERVER_VERSION, title: 'Airlock demo server' },
    {
      capabilities: { tools: { listChanged: true }, resources: {} },
      instructions: 'A demo server with one tool per case an MCP host must handle. It never runs commands or fetches.',
    },
  );
  const served = options.legacyForms === true ? [...DEMO_TOOLS, ...LEGACY_FORM_TOOLS] : DEMO_TOOLS;
  const tools = new Map(served.map((tool) => [tool.name, tool]));
  const context = (request: ServerContext): DemoToolContext => ({
    request,
    server,
    state,
    era,
    toolsChanged: options.onToolsChanged ?? (() => void server.sendToolListChanged().catch(() => {})),
    exit: options.exit ?? ((code) => process.exit(code)),
  });
  const cancelWatch = new CancelWatch(callLog);

  let lists = 0;
  server.setRequestHandler('tools/list', async (request, ctx) => {
    if (lists++ > 0 && options.slowListMs !== undefined) {
      await delay(options.slowListMs, undefined, { signal: ctx.mcpReq.signal }).catch(() => undefined);
    }
    const page = toolPage({ items: served, cursor: request.params?.cursor, pageSize: options.pageSize });
    return {
      tools: page.items.map((tool) => tool.definition(state)),
      ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      ...(options.hugeListMb !== undefined && {
        _meta: { 'airlock-demo/padding': 'x'.repeat(options.hugeListMb * 1_000_000) },
      }),
    };
  });

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const tool = tools.get(name);
    if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    // A call that needs input comes back (2026 retry, or the 2025 shim's re-entry) with the answers: not a new call.
    if (ctx.mcpReq.inputResponses === undefined && ctx.mcpReq.requestState() === undefined) {
      callLog({ event: 'call', tool: name, args: args ?? {} });
      state.countCall(name);
    }
    if (options.swallowCall !== undefined) {
      options.swallowCall(name);
      return new Promise<never>(() => {});
    }
    const signal = ctx.mcpReq.signal;
    cancelWatch.watch(signal, name);
    try {
      const result = await tool.call(args, context(ctx));
      if (!isInputRequiredResult(result)) {
        cancelWatch.unwatch(signal);
        return server.projectCallToolResult(result, tool.outputSchemaJson);
      }
      // 2025: the SDK's shim asks the client and re-enters with the same signal, so the call is still running.
      // 2026: the input-required result ends this request; the client retries with a new one.
      if (era === 'modern') cancelWatch.unwatch(signal);
      return result;
    } catch (error) {
      cancelWatch.unwatch(signal);
      throw error;
    }
  });

  server.setRequestHandler('resources/list', () => ({ resources: listDemoResources(state) }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', (request) => readDemoResource(request.params.uri, state));
  return server;
}

/**
 * Logs `cancelled` when a running call's abort signal fires. A signal is watched across the rounds of one call (the
 * 2025 shim re-enters the handler with the same signal while the user answers), and at most once.
 */
class CancelWatch {
  readonly #listeners = new WeakMap<AbortSignal, () => void>();
  constructor(private readonly callLog: CallLog) {}

  watch(signal: AbortSignal, tool: string): void {
    if (this.#listeners.has(signal)) return;
    const onAbort = () => this.callLog({ event: 'cancelled', tool });
    this.#listeners.set(signal, onAbort);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  unwatch(signal: AbortSignal): void {
    const onAbort = this.#listeners.get(signal);
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}
