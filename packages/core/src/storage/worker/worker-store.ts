import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { isMainThread, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { HostError } from '../../errors/host-error.js';
import type { HostErrorCode } from '../../errors/host-error.js';
import type { HostStore } from '../../store/host-store.js';
import { decodeBatch, encodeBatch } from './worker-batch-codec.js';
import type { WireWrite } from './worker-batch-codec.js';

/** The store calls that cross to the worker: every method of `HostStore`. */
const METHODS = [
  'write',
  'getInvocation',
  'listInvocations',
  'listTransitions',
  'getResult',
  'listDecisions',
  'queryAudit',
  'listRetention',
  'getCredential',
  'listCredentials',
  'getTask',
  'listOpenTasks',
  'listSwitches',
  'getConversation',
  'listConversations',
  'listViewConsents',
  'listStaleConversations',
  'close',
] as const satisfies readonly (keyof HostStore)[];

type Method = (typeof METHODS)[number];

interface Request {
  readonly id: number;
  readonly method: Method;
  readonly args: unknown[];
}

type Reply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | {
      readonly id: number;
      readonly ok: false;
      readonly error: { code?: string; message: string; data?: Record<string, unknown> };
    };

/**
 * A `HostStore` whose work happens on a worker thread: history writes, audit hashing and SQLite I/O leave the
 * thread that runs tool calls, so they overlap the calls instead of lengthening them. The worker module builds the
 * real store (a `SqliteStore` over a driver it opens) and hands it to `serveStore`; core itself loads no driver.
 *
 * Every call is a message round trip; values cross by structured clone, and a `HostError` thrown in the worker
 * arrives as a `HostError` with the same code. The worker takes writes in the order sent, one after another, and
 * answers each once committed; an answer is a message, which the calling thread reads only when its event loop
 * turns, so the history writer holds callers back (back-pressure) when the writes sent and not answered pass what a
 * crash may take back (`HISTORY_LOSS_BOUND`), rather than let them pile up.
 */
export class WorkerStore implements HostStore {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (reply: Reply) => void>();
  #next = 0;
  #failure: Error | undefined;
  #closing = false;

  /** Resolves when the worker has stopped, whether closed or failed; every call after that is refused. */
  readonly stopped: Promise<void>;

  constructor(options: { module: URL | string; workerData?: unknown }) {
    let stopped!: () => void;
    this.stopped = new Promise((resolve) => (stopped = resolve));
    this.#worker = new Worker(options.module, { workerData: options.workerData });
    this.#worker.on('message', (reply: Reply) => {
      this.#waiting.get(reply.id)?.(reply);
      this.#waiting.delete(reply.id);
    });
    const fail = (error: unknown) => {
      // The first failure is the one every later call is told (an error is followed by an exit).
      this.#failure ??= new HostError('store_error', `the store worker stopped: ${workerFailure(error)}`, {
        cause: error,
      });
      for (const waiter of this.#waiting.values()) {
        waiter({ id: -1, ok: false, error: { code: 'store_error', message: this.#failure.message } });
      }
      this.#waiting.clear();
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => {
      // Any exit but the one close() asks for is a failure, idle or not: later calls must not wait forever.
      if (!this.#closing) fail(new Error(`exited with code ${code}`));
      stopped();
    });
  }

  #call<T>(method: Method, args: unknown[]): Promise<T> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, (reply) => {
        if (reply.ok) resolve(reply.value as T);
        else if (reply.error.code !== undefined) {
          reject(
            new HostError(reply.error.code as HostErrorCode, reply.error.message, {
              ...(reply.error.data === undefined ? {} : { data: reply.error.data }),
            }),
          );
        } else reject(new Error(reply.error.message));
      });
      try {
        this.#worker.postMessage({ id, method, args } satisfies Request);
      } catch (error) {
        // A value that cannot cross to the worker (a function, say): this call fails, the store goes on.
        this.#waiting.delete(id);
        reject(new HostError('store_error', `the store call ${method} could not be sent: ${(error as Error).message}`));
      }
    });
  }

  /** The batch crosses compacted (`encodeBatch`): most of what a write costs the calling thread is cloning it. */
  write: HostStore['write'] = (batch) => this.#call('write', [encodeBatch(batch)]);
  getInvocation: HostStore['getInvocation'] = (...args) => this.#call('getInvocation', args);
  listInvocations: HostStore['listInvocations'] = (...args) => this.#call('listInvocations', args);
  listTransitions: HostStore['listTransitions'] = (...args) => this.#call('listTransitions', args);
  getResult: HostStore['getResult'] = (...args) => this.#call('getResult', args);
  listDecisions: HostStore['listDecisions'] = (...args) => this.#call('listDecisions', args);
  queryAudit: HostStore['queryAudit'] = (...args) => this.#call('queryAudit', args);
  listRetention: HostStore['listRetention'] = (...args) => this.#call('listRetention', args);
  getCredential: HostStore['getCredential'] = (...args) => this.#call('getCredential', args);
  listCredentials: HostStore['listCredentials'] = (...args) => this.#call('listCredentials', args);
  getTask: HostStore['getTask'] = (...args) => this.#call('getTask', args);
  listOpenTasks: HostStore['listOpenTasks'] = (...args) => this.#call('listOpenTasks', args);
  listSwitches: HostStore['listSwitches'] = () => this.#call('listSwitches', []);
  getConversation: HostStore['getConversation'] = (...args) => this.#call('getConversation', args);
  listConversations: HostStore['listConversations'] = (...args) => this.#call('listConversations', args);
  listViewConsents: HostStore['listViewConsents'] = (...args) => this.#call('listViewConsents', args);
  listStaleConversations: HostStore['listStaleConversations'] = (...args) => this.#call('listStaleConversations', args);

  /** Closes the store in the worker, then the worker. Further calls reject with `closed`. */
  async close(): Promise<void> {
    if (this.#failure !== undefined) return;
    try {
      await this.#call('close', []);
    } finally {
      this.#closing = true;
      this.#failure = new HostError('closed', 'the store is closed');
      await this.#worker.terminate();
    }
  }
}

/**
 * What an error thrown in the worker says. A driver's own error class (better-sqlite3's SqliteError) crosses the
 * thread boundary as a plain object that kept its code but lost its message.
 */
function workerFailure(error: unknown): string {
  const { message, code } = (typeof error === 'object' && error !== null ? error : {}) as {
    message?: unknown;
    code?: unknown;
  };
  if (typeof message === 'string' && message !== '') return typeof code === 'string' ? `${message} (${code})` : message;
  if (typeof code === 'string') return code;
  return String(error);
}

/** The niceness a background store thread runs at: it yields to the call path's threads, and is not starved. */
export const BACKGROUND_NICENESS = 10;

/** How `serveStore` runs. */
export interface ServeStoreOptions {
  /**
   * Lower this thread's scheduling priority to `BACKGROUND_NICENESS` (Linux, where a thread has its own), so that
   * history writes run on otherwise idle CPU instead of competing with the thread that runs tool calls and with the
   * servers answering them. Default true. Elsewhere, or when the thread already runs lower, nothing changes.
   */
  readonly background?: boolean;
}

/** Lowers the calling worker thread's priority where this system gives threads one of their own. */
function runInBackground(): void {
  if (process.platform !== 'linux' || isMainThread) return;
  try {
    // /proc/thread-self names this thread's own task; its number is the thread id the scheduler knows.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && getPriority(tid) < BACKGROUND_NICENESS)
      setPriority(tid, BACKGROUND_NICENESS);
  } catch {
    // No /proc, or a sandbox that refuses: the store still works, at normal priority.
  }
}

/**
 * Serves a store to a `WorkerStore` on the other side of `port` (the worker's `parentPort`), by default at background
 * priority (see `ServeStoreOptions.background`).
 */
export function serveStore(store: HostStore, port: MessagePort, options: ServeStoreOptions = {}): void {
  if (options.background ?? true) runInBackground();
  /** The last write asked for: the next one starts once it has settled. */
  let writes: Promise<unknown> = Promise.resolve();
  port.on('message', (request: Request) => {
    if (!(METHODS as readonly string[]).includes(request.method)) {
      port.postMessage({
        id: request.id,
        ok: false,
        error: { message: `unknown store method ${String(request.method)}` },
      });
      return;
    }
    const call = (store as unknown as Record<Method, (...args: unknown[]) => Promise<unknown>>)[request.method];
    const run = () => {
      const wire = request.args[0];
      // A write's batch comes compacted by WorkerStore (a client that sends it as is works too).
      const args =
        request.method === 'write' && Array.isArray(wire) ? [decodeBatch(wire as WireWrite[])] : request.args;
      return call.apply(store, args);
    };
    // Writes run one after another in the order sent (the history writer sends a batch without waiting for the one
    // before to be answered, and a store whose write awaits must not interleave two), and every other call after the
    // writes sent before it.
    const done = writes.then(run, run);
    if (request.method === 'write') writes = done;
    done.then(
      (value) => port.postMessage({ id: request.id, ok: true, value } satisfies Reply),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          ok: false,
          error:
            error instanceof HostError
              ? {
                  code: error.code,
                  message: error.message,
                  ...(error.data === undefined ? {} : { data: { ...error.data } }),
                }
              : { message: error instanceof Error ? error.message : String(error) },
        } satisfies Reply),
    );
  });
}
