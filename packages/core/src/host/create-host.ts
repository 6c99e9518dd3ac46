import { systemClock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import { HostEvents } from '../events/host-events.js';
import type { HostEventName, HostListener } from '../events/host-events.js';
import { ControllerPool } from '../invocations/controller-pool.js';
import { Deadlines } from '../invocations/deadlines.js';
import { InvocationPipeline } from '../invocations/invocation-pipeline.js';
import type { InvokeOptions, ToolResult } from '../invocations/invoke-options.js';
import type { PreCallHook } from '../invocations/pre-call-chain.js';
import { AuditLog } from '../audit/audit-log.js';
import { startRetention } from '../retention/retention-schedule.js';
import type { RetentionRunner } from '../retention/retention-schedule.js';
import { hashJson } from '../audit/canonical-json.js';
import { PermissionEngine } from '../permissions/permission-engine.js';
import type { PermissionExplanation } from '../permissions/explain-permission.js';
import type { PermissionRule } from '../permissions/permission-rules.js';
import { parseRules, unmatchableRules } from '../permissions/permission-rules.js';
import type { StoredDecision } from '../store/stored-decision.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { ServerConfig } from '../servers/server-config.js';
import { parseServersConfig } from '../servers/server-config.js';
import { HostServers } from '../servers/host-servers.js';
import { hostServersApi } from './servers-api.js';
import type { HostServersApi } from './servers-api.js';
import { hostToolsApi } from './tools-api.js';
import type { HostToolsApi } from './tools-api.js';
import { ToolSwitches } from '../switches/tool-switches.js';
import { HostAuth } from '../auth/host-auth.js';
import type { HostAuthApi } from '../auth/host-auth.js';
import { HostResources } from '../resources/host-resources.js';
import { AppViews } from '../apps/app-views.js';
import { APP_EXTENSION_ID, APP_VIEW_MIME_TYPE } from '../apps/app-view.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { HistoryReader } from '../history/history-reader.js';
import type { HistoryEntry, ResultSlice } from '../history/history-reader.js';
import { HistoryWriter } from '../history/history-writer.js';
import type { ElicitationRequest } from '../elicitation/elicitation-request.js';
import { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import { toolTarget } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { attachToolSpans } from '../telemetry/tool-spans.js';
import { HostTasks } from '../tasks/host-tasks.js';
import type { HostTasksApi } from '../tasks/host-tasks.js';

import { DEFAULT_ELICITATION_TIMEOUT_MS } from './host-config.js';
import type { HostConfig } from './host-config.js';

/** The one object an application holds. */
export interface Host {
  readonly servers: HostServersApi;
  readonly tools: HostToolsApi;
  /**
   * Makes one call through the one path. Every fault a caller or the model can cause is an outcome of the result
   * (`tool_not_found`, `invalid_arguments`, `permission_denied`, a failure, a timeout), so the model can act on it;
   * it rejects only for a programmer's error (`invalid_scope`, `closed`) or a history that stopped taking writes.
   */
  invoke(options: InvokeOptions): Promise<ToolResult>;
  readonly history: {
    list(options: { scope: Scope; limit?: number; before?: number }): Promise<InvocationRecord[]>;
    get(options: { scope: Scope; invocationId: string }): Promise<HistoryEntry | undefined>;
  };
  readonly results: {
    /** Reads the whole serialized result behind a handle, a slice at a time. Another tenant's handle: not_found. */
    read(options: { scope: Scope; handle: string; offset?: number; length?: number }): Promise<ResultSlice>;
  };
  readonly permissions: {
    /** Resolves when stored decisions are loaded; calls before that are asked, never silently decided. */
    ready(): Promise<void>;
    /** Stores allow_always or deny_always for a tool (optionally for these exact arguments only). */
    decide(options: { scope: Scope; tool: string; decision: unknown; args?: unknown }): Promise<StoredDecision>;
    list(options: { scope: Scope }): StoredDecision[];
    revoke(options: { scope: Scope; id?: string; serverId?: string }): Promise<number>;
    setExpiry(options: { scope: Scope; id: string; expiresAt: number | null }): Promise<StoredDecision>;
    /** Which rule or stored decision would decide this call now, and why. Asks no one. */
    explain(options: { scope: Scope; tool: string; args?: unknown }): PermissionExplanation;
    rules(): readonly PermissionRule[];
    /** Rules that can never match (an unknown server, a tool pattern matching no tool): reported, not ignored. */
    warnings(): readonly string[];
  };
  /** Sign-in to remote servers: each user's own, through the surface's `authorize`. Tokens are never shown. */
  readonly auth: HostAuthApi;
  /** Resources per tenant and server: listings (every page), reads bounded like results, subscriptions, completions. */
  readonly resources: Pick<
    HostResources,
    'list' | 'templates' | 'read' | 'whole' | 'subscribe' | 'unsubscribe' | 'subscribers' | 'complete'
  >;
  /** Prompts per tenant and server: listings, a prompt filled with its arguments, argument completions. */
  readonly prompts: {
    list: HostResources['prompts'];
    get: HostResources['getPrompt'];
    complete: HostResources['complete'];
  };
  /** MCP Apps: a tool's view (its own ui:// resource, checked, bounded, cached), when `apps.views` is on. */
  readonly apps: Pick<AppViews, 'view' | 'linkOpened' | 'messageSent'>;
  readonly audit: AuditLog;
  /** Retention sweeps: `sweep({ dryRun })` now; `sweeping()` the running or last one. */
  readonly retention: Pick<RetentionRunner, 'sweep' | 'sweeping'>;
  readonly elicitations: {
    /** The tenant's open questions from servers, oldest first. */
    pending(options: { scope: Scope }): ElicitationRequest[];
    /** Answers an open question (accept with content, decline, cancel); a form answer is validated first. */
    respond(options: { scope: Scope; id: string; answer: unknown }): void;
    /** The user moved to `workspaceId`: their open questions elsewhere close, and their servers get cancel. */
    switchWorkspace(options: { userId: string; workspaceId: string; from?: string }): number;
    /** "Done, retry": the user says the URL flow they opened is finished (when the server does not say so itself). */
    complete(options: { scope: Scope; serverId: string; elicitationId: string }): boolean;
  };
  /** Calls that run as tasks: open ones per tenant (resumed after a restart), a handle, cancel by id. */
  readonly tasks: HostTasksApi;
  /** Adds a pre-call hook that runs before the permission gate; returns its removal. */
  addHook(hook: PreCallHook): () => void;
  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void;
  close(): Promise<void>;
}

function isParsedRule(value: unknown): value is PermissionRule {
  return typeof value === 'object' && value !== null && typeof (value as { source?: unknown }).source === 'string';
}

/**
 * Wires a host: connects every server in parallel (one bad server never blocks the others), keeps the tool
 * registry in step with each server's list, and routes every call through the one path.
 */
export function createHost(config: HostConfig = {}): Host {
  const clock = config.clock ?? systemClock;
  const store = config.store ?? new MemoryStore();
  const events = new HostEvents();
  const registry = new ToolRegistry({
    tenantOf: (serverId, scope) => servers.tenantOf(serverId, scope),
    switches: {
      hidden: (tool, scope) => switches.hidden(tool, scope),
      unknown: (name) => switches.unknown(name),
    },
  });
  const serverConfigs = Array.isArray(config.servers)
    ? (config.servers as readonly ServerConfig[])
    : parseServersConfig(config.servers ?? {});
  const limits = config.limits ?? {};
  const writes = new HistoryWriter({
    store,
    onError: (error) => events.emit('store.error', { message: error.message }),
    ...(limits.commitIntervalMs === undefined ? {} : { commitIntervalMs: limits.commitIntervalMs }),
    ...(config.durability === undefined ? {} : { durability: config.durability }),
  });
  const history = new HistoryReader({ store, writes });
  const onStoreError = (error: unknown) => events.emit('store.error', { message: String(error) });
  const switches = new ToolSwitches({ store, writes, now: () => clock.now(), onError: onStoreError });
  // Built below, once the broker it answers questions through exists; read only when calls and questions come.
  // eslint-disable-next-line prefer-const
  let servers: HostServers;
  const rawRules = config.permissions?.rules;
  const rules: readonly PermissionRule[] =
    Array.isArray(rawRules) && rawRules.every(isParsedRule)
      ? rawRules
      : parseRules(rawRules ?? [], 'permissions.rules');
  const engine = new PermissionEngine({
    store,
    writes,
    clock,
    surface: config.surface,
    config: { ...config.permissions, rules },
    server: (id) => {
      const c = servers.pools.get(id)?.catalog;
      return c === undefined ? undefined : { identity: c.identity, trusted: c.config.trusted };
    },
    events: {
      requested: (request) => events.emit('permission.requested', { request }),
      decided: (event) => {
        if (events.listening('permission.decided'))
          events.emit('permission.decided', { ...event, request: event.request() });
      },
    },
  });
  const broker = new ElicitationBroker({
    surface: config.surface,
    clock,
    timeoutMs: (tool) =>
      limits.tools?.[tool]?.elicitationTimeoutMs ?? limits.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
    questionsInCallContext: (serverId) => servers.pools.get(serverId)?.catalog.questionsInCallContext ?? true,
    tenantOf: (serverId, scope) => servers.tenantOf(serverId, scope),
    events: {
      requested: (request) => events.emit('elicitation.requested', { request }),
      closed: (event) => events.emit('elicitation.closed', event),
      completed: (event) => events.emit('elicitation.completed', event),
      audit: (audit) => writes.write({ kind: 'audit', audit }),
    },
  });
  const tasks: HostTasks = new HostTasks({
    store,
    writes,
    clock,
    servers: () => servers,
    registry,
    pipeline: (): InvocationPipeline => pipeline,
    told: (task) => events.emit('task.updated', { task }),
    ...(config.tasks === undefined ? {} : { settings: config.tasks }),
  });
  const pipeline: InvocationPipeline = new InvocationPipeline({
    tasks,
    registry,
    writes,
    clock,
    // This host's own timer and controllers: another host in the process never shares them.
    deadlines: new Deadlines({ clock }),
    controllers: new ControllerPool(),
    riskTier: (tool) => engine.risk(tool).tier,
    around: (call, run) => broker.around(call, run),
    bounds: limits,
    timeouts: limits,
    tools: limits.tools ?? {},
    events: {
      transition: (invocation, from, screen) => {
        if (!events.listening('invocation.transition')) return;
        events.emit('invocation.transition', { invocation, from, ...(screen === undefined ? {} : { screen }) });
      },
      progress: (invocation, progress) => events.emit('invocation.progress', { invocation, progress }),
    },
  });
  attachToolSpans(events, clock, config.telemetry);
  for (const tool of config.tools ?? []) registry.registerNative(tool);
  for (const hook of config.hooks ?? []) pipeline.addHook(hook);

  const ruleWarnings = new Set<string>();
  const checkRules = () => {
    const known = new Map<string, readonly string[] | undefined>();
    for (const id of servers.pools.keys()) {
      known.set(
        id,
        registry.hasCatalog(id)
          ? registry.list({ audience: 'user' }).flatMap((t) => {
              const target = toolTarget(t);
              return target.serverId === id ? [target.originalName] : [];
            })
          : undefined,
      );
    }
    for (const problem of unmatchableRules(rules, known)) {
      if (ruleWarnings.has(problem)) continue;
      ruleWarnings.add(problem);
      events.emit('permission.rule_warning', { message: problem });
    }
  };
  const auth = new HostAuth({
    store,
    clock,
    surface: config.surface,
    ...(config.auth === undefined ? {} : { config: config.auth }),
  });
  servers = new HostServers({
    httpOptions: (server, tenant) => auth.connectionOptions(server, tenant),
    servers: serverConfigs,
    limits,
    clock,
    host: config,
    registry,
    broker,
    events,
    catalogReady: () => checkRules(),
    switchedOff: switches.loaded,
    ...(config.apps?.views === true
      ? { extraCapabilities: { extensions: { [APP_EXTENSION_ID]: { mimeTypes: [APP_VIEW_MIME_TYPE] } } } }
      : {}),
  });
  auth.attach(servers);
  const resources = new HostResources({
    servers,
    writes,
    clock,
    limits,
    events,
    gate: { engine, now: () => clock.now() },
  });
  const firstConnections = servers.settled;
  const apps = new AppViews({
    enabled: config.apps?.views === true,
    ...(config.apps?.maxViewBytes === undefined ? {} : { maxBytes: config.apps.maxViewBytes }),
    tool: (name, scope) => registry.get(name, scope),
    audit: (audit) => writes.write({ kind: 'audit', audit }),
    now: () => clock.now(),
    identity: (id) => servers.pools.get(id)?.catalog.identity,
    tenantOf: (id, scope) => servers.tenantOf(id, scope),
    read: async (scope, serverId, uri) => ({
      contents: (await resources.read({ scope, serverId, uri, caller: 'user', full: true })).contents ?? [],
    }),
  });

  pipeline.setGate(engine.hook, (call) => engine.decideAtOnce(call));
  // After the caller has had a chance to listen: a rule naming an unknown server is reported at once.
  queueMicrotask(checkRules);
  void firstConnections.then(checkRules);
  // Open tasks of calls made before a restart are followed again once the servers' first connections are settled.
  void Promise.all([firstConnections, engine.synced]).then(() =>
    closed || config.tasks?.resume === false ? tasks.skipResume() : tasks.resume(),
  );
  const audit = new AuditLog(store, writes, { clock, ...config.audit });
  const stopAnchoring = audit.startAnchoring((error) =>
    events.emit('server.warning', { serverId: 'audit', message: `could not anchor the audit chain: ${String(error)}` }),
  );
  const retention = startRetention({ store, writes, audit, clock }, config.retention, (error) =>
    events.emit('server.warning', { serverId: 'retention', message: `the retention sweep failed: ${String(error)}` }),
  );
  let closed = false;

  return {
    servers: hostServersApi(servers, switches, firstConnections),
    tools: hostToolsApi(registry, switches, events),
    invoke: (options) => {
      if (closed) return Promise.reject(new HostError('closed', 'the host is closed'));
      return writes.acknowledge(pipeline.invoke(options));
    },
    history: {
      list: (options) => history.list(options),
      get: (options) => history.get(options),
    },
    results: {
      read: (options) => history.readResult(options),
    },
    permissions: {
      ready: () => engine.synced,
      decide: async ({ scope, tool, decision, args }) => {
        const checked = assertScope(scope);
        // As this user sees the tool (a server per user may list them tools no one else has).
        const entry = registry.resolve(tool, { kind: 'user' }, checked);
        return engine.decide({
          scope: checked,
          tool: entry.tool,
          decision,
          argsHash: args === undefined ? null : hashJson(args),
        });
      },
      list: ({ scope }) => engine.list(assertScope(scope)),
      revoke: ({ scope, id, serverId }) =>
        engine.revoke({
          scope: assertScope(scope),
          ...(id === undefined ? {} : { id }),
          ...(serverId === undefined ? {} : { serverId }),
        }),
      setExpiry: ({ scope, id, expiresAt }) => engine.setExpiry({ scope: assertScope(scope), id, expiresAt }),
      explain: ({ scope, tool, args }) => {
        const checked = assertScope(scope);
        return engine.explain({
          scope: checked,
          tool: registry.resolve(tool, { kind: 'user' }, checked).tool,
          argsHash: hashJson(args ?? {}),
        });
      },
      rules: () => rules,
      warnings: () => [...ruleWarnings],
    },
    auth: auth.api(),
    resources: {
      list: (options) => resources.list(options),
      templates: (options) => resources.templates(options),
      read: (options) => resources.read(options),
      whole: (options) => resources.whole(options),
      subscribe: (options) => resources.subscribe(options),
      unsubscribe: (options) => resources.unsubscribe(options),
      subscribers: (options) => resources.subscribers(options),
      complete: (options) => resources.complete(options),
    },
    prompts: {
      list: (options) => resources.prompts(options),
      get: (options) => resources.getPrompt(options),
      complete: (options) => resources.complete(options),
    },
    apps: {
      view: (options) => apps.view(options),
      linkOpened: (options) => apps.linkOpened(options),
      messageSent: (options) => apps.messageSent(options),
    },
    audit,
    retention: { sweep: (options) => retention.sweep(options), sweeping: () => retention.sweeping() },
    elicitations: {
      pending: ({ scope }) => broker.pending(assertScope(scope)),
      respond: ({ scope, id, answer }) => broker.respond(assertScope(scope), id, answer),
      switchWorkspace: ({ userId, workspaceId, from }) => broker.switchWorkspace(userId, workspaceId, from),
      complete: ({ scope, serverId, elicitationId }) =>
        broker.completeByUser(assertScope(scope), serverId, elicitationId),
    },
    tasks: tasks.api(),
    addHook: (hook) => pipeline.addHook(hook),
    on: (name, listener) => events.on(name, listener),
    close: async () => {
      if (closed) return;
      closed = true;
      tasks.close();
      stopAnchoring();
      await retention.stop();
      await servers.close();
      await writes.drain().catch(() => undefined);
      await audit.anchoring();
      await store.close();
    },
  };
}
