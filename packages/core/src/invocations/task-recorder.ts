import type { Clock } from '../clock.js';
import type { TaskUpdate } from '../tools/tool-task.js';
import type { TaskStatus } from '../store/invocation-task.js';
import type { CallRecorder } from './call-recorder.js';
import type { InvocationTask } from '../store/invocation-task.js';
import type { InvocationState } from '../store/invocation-state.js';
import { isRunningState } from '../store/invocation-state.js';
import type { RecordingQueue } from '../store/recording-queue.js';

/** What the call path needs to record a call's task: the history, the server's identity, and whom to tell. */
export interface TaskHistory {
  readonly writes: RecordingQueue;
  readonly clock: Clock;
  /** The identity of the server (its command or URL, hashed), stored with the handle. */
  identity(serverId: string): string;
  /** Tells listeners the task's handle as just stored (the host's `task.updated` event). */
  told(task: InvocationTask): void;
}

/** The status a task is stored with once its call ended, when the server's last word was not already an end. */
const END_STATUS: Readonly<Partial<Record<InvocationState, TaskStatus>>> = {
  success: 'completed',
  error: 'failed',
  cancelled: 'cancelled',
};

/** A poll interval a store keeps: the server's when it is a number of milliseconds (>= 0), else none. */
function keptInterval(ms: number | undefined): number | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** A time to live a store keeps: the server's when it is a number of milliseconds (>= 0), else none. */
function keptTtl(ms: number | null | undefined): number | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/**
 * The task of one call: each update from the server is stored as the call's handle (`task.put`) when something a
 * person or a restart needs changed (the status, its message, the poll interval), and a status that is a running
 * state of the call (`working`, `input_required`) moves the call there, one transition row and event each. The
 * task's end is the call's: the call path settles it as any call, and `end` stores the handle's last status.
 */
export class TaskRecorder {
  readonly #call: CallRecorder;
  readonly #history: TaskHistory;
  #task: InvocationTask | undefined;

  constructor(call: CallRecorder, history: TaskHistory, stored?: InvocationTask) {
    this.#call = call;
    this.#history = history;
    this.#task = stored;
  }

  /** The handle as last stored. */
  get task(): InvocationTask | undefined {
    return this.#task;
  }

  update(update: TaskUpdate): void {
    const { task } = update;
    const previous = this.#task;
    const serverId = this.#call.serverId ?? '';
    const at = this.#history.clock.now();
    const next: InvocationTask = {
      invocationId: this.#call.id,
      scope: this.#call.scope,
      serverId,
      serverIdentity: previous?.serverIdentity ?? this.#history.identity(serverId),
      tool: this.#call.tool.name,
      taskId: task.taskId,
      era: update.era,
      // The server's words are untrusted: what a store would refuse (a negative interval) is not kept, so a server
      // cannot stop the history of every call with one malformed task.
      pollIntervalMs: keptInterval(task.pollInterval) ?? previous?.pollIntervalMs ?? null,
      ttlMs: keptTtl(task.ttl) ?? previous?.ttlMs ?? null,
      status: task.status,
      statusMessage: typeof task.statusMessage === 'string' ? task.statusMessage : (previous?.statusMessage ?? null),
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
    };
    const current = this.#call.invocation().state;
    if ((task.status === 'working' || task.status === 'input_required') && isRunningState(current)) {
      if (current !== task.status) this.#call.move(task.status, null, null);
    }
    const same =
      previous !== undefined &&
      previous.taskId === next.taskId &&
      previous.status === next.status &&
      previous.statusMessage === next.statusMessage &&
      previous.pollIntervalMs === next.pollIntervalMs &&
      previous.ttlMs === next.ttlMs;
    // A task without an id cannot be followed again after a restart: the call goes on, its handle is not stored.
    if (same || typeof next.taskId !== 'string' || next.taskId === '') return;
    this.#put(next);
  }

  /** Stores the handle's last status once the call ended in `state` (the server's own end status when it gave one). */
  end(state: InvocationState): void {
    const task = this.#task;
    const status = END_STATUS[state];
    if (task === undefined || status === undefined) return;
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') return;
    this.#put({ ...task, status, updatedAt: this.#history.clock.now() });
  }

  #put(task: InvocationTask): void {
    this.#task = task;
    this.#history.writes.write({ kind: 'task.put', task });
    this.#history.told(task);
  }
}
