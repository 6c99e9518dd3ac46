import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { InvocationPipeline, PipelineTasks } from '../invocations/invocation-pipeline.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { InvocationTask } from '../store/invocation-task.js';
import type { RecordingQueue } from '../store/recording-queue.js';
import { sameScope } from '../scope.js';
import type { Scope } from '../scope.js';
import { followTask } from './task-call.js';
import { followWhenReady } from './follow-when-ready.js';
import type { TaskServers } from './task-servers.js';
import type { HostStore } from '../store/host-store.js';
import type { RegisteredTool, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolRunContext } from '../tools/tool.js';
import type { TasksConfig } from './tasks-config.js';
import type { InvokeOptions, ToolResult } from '../invocations/invoke-options.js';
import { taskStatusTool } from './task-status-tool.js';

/** What an application does with tasks (`host.tasks`). */
interface Followed {
  readonly scope: Scope;
  readonly cancel: () => void;
}

/**
 * The host's tasks: where the call path stores handles and registers running task calls (so `cancel` reaches them),
 * and the resumption at start: every open task found in the store is followed again on its server's connection for
 * its tenant (`tasks/get`, then `tasks/result`), its card coming back live through the usual events and its end
 * recorded exactly as a call's end. A task whose server is no longer configured, or is now another server (its
 * identity changed), ends `task_lost` naming the server and the task; so does one the server no longer knows.
 */
export class HostTasks implements PipelineTasks {
  readonly writes: RecordingQueue;
  readonly clock: Clock;
  readonly #store: HostStore;
  readonly #drain: () => Promise<void>;
  readonly #servers: () => TaskServers;
  readonly #registry: ToolRegistry;
  readonly #pipeline: () => InvocationPipeline;
  readonly #told: (task: InvocationTask) => void;
  readonly #followed = new Map<string, Followed>();
  readonly #runAsTask: ReadonlySet<string>;
  /** Callers of `start` waiting for their call's task handle, by invocation id. */
  readonly #starting = new Map<string, (task: InvocationTask) => void>();
  #closing = false;
  #resuming: Promise<void> = Promise.resolve();
  /** Settles once the resumption at start is done (or the host closed before it began). */
  readonly #resumed: Promise<void>;
  #resumedAtStart!: () => void;

  constructor(options: {
    readonly store: HostStore;
    /** The history writer: reads drain it first, so they never show less than callers were told. */
    readonly writes: RecordingQueue & { drain(): Promise<void> };
    readonly clock: Clock;
    readonly servers: () => TaskServers;
    readonly registry: ToolRegistry;
    readonly pipeline: () => InvocationPipeline;
    readonly told: (task: InvocationTask) => void;
    readonly settings?: TasksConfig;
  }) {
    this.#store = options.store;
    this.#drain = () => options.writes.drain();
    this.writes = options.writes;
    this.clock = options.clock;
    this.#servers = options.servers;
    this.#registry = options.registry;
    this.#pipeline = options.pipeline;
    this.#told = options.told;
    this.#runAsTask = new Set(options.settings?.runAsTask ?? []);
    if (options.settings?.statusTool === true) {
      const drain = () => options.writes.drain();
      options.registry.registerNative(taskStatusTool(options.store, drain), { host: true });
    }
    this.#resumed = new Promise((done) => (this.#resumedAtStart = done));
  }

  closing(): boolean {
    return this.#closing;
  }

  /** The host is closing: task calls cut off from now on stay open in history (see `PipelineTasks.closing`). */
  close(): void {
    this.#closing = true;
  }

  identity(serverId: string): string {
    return this.#servers().identity(serverId) ?? serverId;
  }

  told(task: InvocationTask): void {
    this.#starting.get(task.invocationId)?.(task);
    this.#told(task);
  }

  runsAsTask(tool: string): boolean {
    return this.#runAsTask.has(tool);
  }

  #start(options: InvokeOptions): Promise<{ readonly task: InvocationTask } | { readonly result: ToolResult }> {
    return new Promise((resolve, reject) => {
      let id: string | undefined;
      const call = this.#pipeline().invoke({
        ...options,
        onRecorded: (record) => {
          id = record.id;
          this.#starting.set(record.id, (task) => {
            this.#starting.delete(record.id);
            resolve({ task });
          });
          options.onRecorded?.(record);
        },
      });
      void call.then(
        (result) => {
          if (id !== undefined) this.#starting.delete(id);
          resolve({ result });
        },
        // A programmer's error (no scope, a closed host, a history that stopped): as host.invoke rejects.
        reject,
      );
    });
  }

  running(invocationId: string, scope: Scope, cancel: () => void): () => void {
    const followed = { scope, cancel };
    this.#followed.set(invocationId, followed);
    return () => {
      if (this.#followed.get(invocationId) === followed) this.#followed.delete(invocationId);
    };
  }

  /** Open tasks, oldest first: the tenant's with a scope, every tenant's without one. */
  async list(options?: { readonly scope?: Scope }): Promise<InvocationTask[]> {
    await this.#drain();
    const scope = options?.scope;
    return this.#store.listOpenTasks(
      scope === undefined ? {} : { userId: scope.userId, workspaceId: scope.workspaceId },
    );
  }

  /** The task handle of one of the scope's calls, open or ended. */
  async get(options: { readonly scope: Scope; readonly invocationId: string }): Promise<InvocationTask | undefined> {
    await this.#drain();
    return this.#store.getTask(options.scope, options.invocationId);
  }

  /** Cancels a task this host follows, in the caller's own scope; false when none is. */
  cancel(options: { readonly scope: Scope; readonly invocationId: string }): boolean {
    const followed = this.#followed.get(options.invocationId);
    if (followed === undefined || !sameScope(followed.scope, options.scope)) return false;
    followed.cancel();
    return true;
  }

  /** Resolves once the open tasks found at start have been picked up again. */
  resumed(): Promise<void> {
    return this.#resumed;
  }

  /** Follows the open tasks no live instance owns any more; never rejects, and a closing host does nothing. */
  takeOver(): Promise<void> {
    return this.#closing ? Promise.resolve() : this.#queued().catch(() => undefined);
  }

  /** Makes a call without waiting for a task's end (see `HostTasksApi.start`). */
  start(options: InvokeOptions): Promise<{ readonly task: InvocationTask } | { readonly result: ToolResult }> {
    return this.#start(options);
  }

  /** Picks up every open task in the store that this host does not follow yet. Never rejects. */
  async resume(): Promise<void> {
    await this.#queued().catch(() => undefined);
    this.#resumedAtStart();
  }

  /** The host closed before resuming: nothing is followed, and `resumed()` settles. */
  skipResume(): void {
    this.#resumedAtStart();
  }

  /** One resumption at a time: a task claimed by two at once would be followed twice. */
  #queued(): Promise<void> {
    const run = this.#resuming.then(() => this.#resume());
    this.#resuming = run.catch(() => undefined);
    return run;
  }

  async #resume(): Promise<void> {
    // On a store several instances share, only the tasks this instance now owns (no live owner before).
    const open =
      this.#store.claimOpenTasks === undefined
        ? await this.#store.listOpenTasks({})
        : await this.#store.claimOpenTasks({ skipServers: this.#servers().switchedOff() });
    for (const task of open) {
      if (this.#followed.has(task.invocationId)) continue;
      // A server this host does not run now (switched off here) keeps its tasks open for a host that does.
      if (this.#servers().switchedOff().includes(task.serverId)) continue;
      const record = await this.#store.getInvocation(task.scope, task.invocationId);
      if (record === undefined) continue;
      const transitions = await this.#store.listTransitions(task.scope, task.invocationId);
      const seq = transitions.reduce((last, t) => Math.max(last, t.seq), 1);
      void this.#pipeline().resume({
        record,
        seq,
        task,
        entry: this.#entry(record),
        follow: (context) => this.#follow(task, context),
      });
    }
  }

  /** The tool as its tenant sees it now, or (its server not listing it) the tool as the call recorded it. */
  #entry(record: InvocationRecord): RegisteredTool {
    try {
      return this.#registry.resolve(record.tool, { kind: 'user' }, record.scope);
    } catch {
      return {
        tool: {
          name: record.tool,
          inputSchema: { type: 'object' },
          origin: { kind: 'mcp', serverId: record.serverId ?? '', originalName: record.originalName },
          visibility: [],
          taskSupport: 'required',
          definitionHash: record.definitionHash,
          run: () => Promise.reject(new Error('not listed')),
        },
        checkInput: () => ({ ok: true }),
      };
    }
  }

  #follow(task: InvocationTask, context: ToolRunContext) {
    const lost = (why: string) =>
      Promise.reject(
        new HostError('task_lost', `server "${task.serverId}": the task ${task.taskId} ${why}`, {
          data: { serverId: task.serverId, taskId: task.taskId },
        }),
      );
    const servers = this.#servers();
    const identity = servers.identity(task.serverId);
    if (identity === undefined) return lost('cannot be followed: the server is no longer configured');
    if (identity !== task.serverIdentity) {
      return lost('cannot be followed: the server configured under that name is another server now');
    }
    return servers.withConnection(task.serverId, task.scope, (connection) =>
      followWhenReady({
        connection,
        clock: this.clock,
        signal: context.signal,
        waiting: (state) =>
          context.onProgress({ progress: 0, message: `waiting for server "${task.serverId}" (${state})` }),
        follow: (client) =>
          followTask({
            client,
            clock: this.clock,
            serverId: task.serverId,
            tool: task.tool,
            era: task.era,
            task: {
              taskId: task.taskId,
              status: task.status,
              ...(task.statusMessage === null ? {} : { statusMessage: task.statusMessage }),
              ...(task.pollIntervalMs === null ? {} : { pollInterval: task.pollIntervalMs }),
              ttl: task.ttlMs,
            },
            signal: context.signal,
            onProgress: (progress) => context.onProgress(progress),
            ...(context.onTask === undefined ? {} : { onTask: (update) => context.onTask?.(update) }),
          }),
      }),
    );
  }
}
