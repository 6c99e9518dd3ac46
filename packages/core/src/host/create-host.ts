import { AppViews } from '../apps/app-views.js';
import { APP_EXTENSION_ID, APP_VIEW_MIME_TYPE } from '../apps/app-view.js';
import { AuditLog } from '../audit/audit-log.js';
import { HostAuth } from '../auth/host-auth.js';
import { systemClock } from '../clock.js';
import { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import { HostError } from '../errors/host-error.js';
import { HostEvents } from '../events/host-events.js';
import { HistoryReader } from '../history/history-reader.js';
import { HistoryWriter } from '../history/history-writer.js';
import { ControllerPool } from '../invocations/controller-pool.js';
import { Deadlines } from '../invocations/deadlines.js';
import { InvocationPipeline } from '../invocations/invocation-pipeline.js';
import { PermissionEngine } from '../permissions/permission-engine.js';
import type { PermissionRule } from '../permissions/permission-rules.js';
import { parseRules, unmatchableRules } from '../permissions/permission-rules.js';
import { HostResources } from '../resources/host-resources.js';
import { startRetention } from '../retention/retention-schedule.js';
import { HostServers } from '../servers/host-servers.js';
import type { ServerConfig } from '../servers/server-config.js';
import { parseServersConfig } from '../servers/server-config.js';
import { serverNotReady } from './server-not-ready.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import type { HostStore } from '../store/host-store.js';
import type { StoredDecision } from '../store/decision-record.js';
import { sharedKeptReads } from '../resources/kept-reads.js';
import { ToolSwitches } from '../switches/tool-switches.js';
import { HostTasks } from '../tasks/host-tasks.js';
import { attachHostMetrics } from '../telemetry/host-metrics.js';
import { attachToolSpans } from '../telemetry/tool-spans.js';
import { toolTarget } from '../tools/tool.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { hostAppsApi } from './apps-api.js';
import { hostAuditApi } from './audit-api.js';
import { hostAuthApi } from './auth-api.js';
import { hostElicitationsApi } from './elicitations-api.js';
import { hostHistoryApi, hostResultsApi } from './history-api.js';
import type { Host } from './host.js';
import { DEFAULT_ELICITATION_TIMEOUT_MS } from './host-config.js';
import type { HostConfig } from './host-config.js';
import { hostPermissionsApi } from './permissions-api.js';
import { hostPromptsApi, hostResourcesApi } from './resources-api.js';
import { hostRetentionApi } from './retention-api.js';
import { hostServersApi } from './servers-api.js';
import { hostTasksApi } from './tasks-api.js';
import { hostToolsApi } from './tools-api.js';

function isParsedRule(value: unknown): value is PermissionRule {
  return typeof value === 'object' && value !== null && typeof (value as { source?: unknown }).source === 'string';
}

/**
 * Wires a host: connects every server in parallel (one bad server never blocks the others), keeps the tool
 * registry in step with each server's list, and routes every call through the one path.
 */
export function createHost(config: HostConfig = {}): Host {
  const clock = config.clock ?? systemClock;
  const store: HostStore = config.store ?? new MemoryStore();
  const events = new HostEvents();
  const registry = new ToolRegistry({
    tenantOf: (serverId, scope) => servers.tenantOf(serverId, scope),
    switches: {
      hidden: (tool, scope) => switches.hidden(tool, scope),
      unknown: (name) => switches.unknown(name),
    },
    definitionLimit: (serverId) => serverConfigs.find((s) => s.id === serverId)?.maxDefinitionChars,
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
      warning: (warning) => events.emit('server.warning', warning),
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
  // Attached before the pipeline: a traced call runs with its span active (tool-spans.ts).
  const spansAround = attachToolSpans(events, clock, config.telemetry).around;
  attachHostMetrics(events, clock);
  const pipeline: InvocationPipeline = new InvocationPipeline({
    tasks,
    registry,
    serverNotReady: (toolName, scope) => serverNotReady(servers.list(scope), toolName),
    writes,
    clock,
    // This host's own timer and controllers: another host in the process never shares them.
    deadlines: new Deadlines({ clock }),
    controllers: new ControllerPool(),
    riskTier: (tool) => engine.risk(tool).tier,
    around:
      spansAround === undefined
        ? (call, run) => broker.around(call, run)
        : (call, run) => spansAround(call, () => broker.around(call, run)),
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
  // The services above reach the catalog through closures, read only once calls and questions come.
  const servers: HostServers = new HostServers({
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
  // A switch changed on another host sharing the store: a server is stopped or started here too, a tool hidden or
  // shown again in the model's list, within a notification and one read.
  const stopWatchingSwitches = store.watchSwitches?.(() => {
    switches
      .reload((row, off) => {
        if (row.tool !== '') {
          const tenant = row.userId === '' ? `workspace:${row.workspaceId}` : `user:${row.userId}`;
          events.emit('tools.changed', { serverId: row.serverId, tenant });
        } else if (servers.pools.has(row.serverId)) {
          servers.setEnabled(row.serverId, !off).catch(onStoreError);
        }
      })
      .catch(onStoreError);
  });
  const sharedReads = sharedKeptReads(store, config.retention, () => clock.now());
  const resources = new HostResources({
    servers,
    writes,
    clock,
    limits,
    events,
    gate: { engine, now: () => clock.now() },
    ...(sharedReads === undefined ? {} : { sharedReads }),
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
  const forgetDecisions = (decisions: readonly StoredDecision[]) => engine.stored.forgetDeleted(decisions);
  const retention = startRetention({ store, writes, audit, clock, forgetDecisions }, config.retention, (error) =>
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
    history: hostHistoryApi(history),
    results: hostResultsApi(history),
    permissions: hostPermissionsApi({ engine, registry, rules, warnings: () => [...ruleWarnings] }),
    auth: hostAuthApi(auth),
    resources: hostResourcesApi(resources),
    prompts: hostPromptsApi(resources),
    apps: hostAppsApi(apps),
    audit: hostAuditApi(audit),
    retention: hostRetentionApi(retention),
    elicitations: hostElicitationsApi(broker),
    tasks: hostTasksApi(tasks),
    addHook: (hook) => pipeline.addHook(hook),
    on: (name, listener) => events.on(name, listener),
    [Symbol.asyncDispose]: () => close(),
    close: () => close(),
  };

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    tasks.close();
    stopAnchoring();
    stopWatchingSwitches?.();
    await retention.stop();
    await servers.close();
    await writes.drain().catch(() => undefined);
    await audit.anchoring();
    await store.close();
  }
}
