import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** Slots of the shared counters: checkpoints asked, checkpoints done, and whether the thread gave up. */
const ASKED = 0;
const DONE = 1;
const FAILED = 2;
/** A pass that copied fewer frames than this leaves the rest to the writer (a few commits' pages). */
const TAIL_FRAMES = 200;

/**
 * The checkpointer's thread: its own connection to the file (Node's `node:sqlite` where it loads, else better-sqlite3
 * from where core resolves it), waiting on the shared counters for the next ask, then a PASSIVE checkpoint. Its code
 * is inline so the thread needs no file of its own beside core's built output.
 */
const THREAD = `
const { workerData } = require('node:worker_threads');
const counters = new Int32Array(workerData.counters);
let db;
try {
  try {
    db = new (require('node:sqlite').DatabaseSync)(workerData.path);
  } catch {
    db = new (require(workerData.betterSqlite))(workerData.path);
  }
  db.exec('PRAGMA busy_timeout = 5000');
} catch {
  Atomics.store(counters, ${FAILED}, 1);
}
let seen = 0;
while (Atomics.load(counters, ${FAILED}) === 0) {
  Atomics.wait(counters, ${ASKED}, seen);
  seen = Atomics.load(counters, ${ASKED});
  try {
    // Passes again while a pass copied much (what the writer wrote meanwhile), so the writer's tail stays small.
    let previous = -1;
    for (let pass = 0; pass < 4; pass++) {
      const [{ checkpointed }] = db.prepare('PRAGMA wal_checkpoint(PASSIVE)').all();
      if (previous >= 0 && checkpointed - previous < ${TAIL_FRAMES}) break;
      previous = checkpointed;
    }
  } catch {
    Atomics.store(counters, ${FAILED}, 1);
  }
  Atomics.store(counters, ${DONE}, seen);
}
`;

/**
 * Checkpoints a SQLite file's WAL on a thread of its own, so that the writer's thread (which runs calls, or serves a
 * console's history) does not copy a burst's pages and sync the file itself. A PASSIVE checkpoint runs beside the
 * writer in WAL mode and never blocks it. The writer learns it finished from shared counters, read at each write with
 * no need for its event loop to turn (a loop of calls that never waits on I/O would otherwise never hear it), and
 * then checkpoints the little written meanwhile itself: a checkpoint beside a writer that never pauses leaves the WAL
 * unable to start over (530 MB after 10,000 strict commits here), and one on the writer's thread, with only that
 * tail left, lets the next commit start it over.
 */
export class SqliteCheckpointer {
  readonly #path: string;
  readonly #counters = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  #worker: Worker | undefined;
  /** The last checkpoint whose end the writer has taken in. */
  #taken = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** False once the thread could not open the file or checkpoint it: the store checkpoints inline again. */
  get usable(): boolean {
    return Atomics.load(this.#counters, FAILED) === 0;
  }

  /** True while a checkpoint asked for has not ended. */
  get running(): boolean {
    return Atomics.load(this.#counters, DONE) !== Atomics.load(this.#counters, ASKED);
  }

  /** True once for each checkpoint that ended since the writer last asked (the writer then finishes the tail). */
  takeFinished(): boolean {
    const done = Atomics.load(this.#counters, DONE);
    if (done === this.#taken) return false;
    this.#taken = done;
    return true;
  }

  /** Asks for a checkpoint (none while one runs); returns at once. */
  request(): void {
    if (!this.usable || this.running) return;
    this.#thread();
    Atomics.add(this.#counters, ASKED, 1);
    Atomics.notify(this.#counters, ASKED);
  }

  #thread(): void {
    if (this.#worker !== undefined) return;
    let betterSqlite: string | undefined;
    try {
      betterSqlite = require.resolve('better-sqlite3');
    } catch {
      // node:sqlite, or no thread at all: the thread says so through FAILED.
    }
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { path: this.#path, betterSqlite, counters: this.#counters.buffer },
    });
    worker.unref();
    worker.on('error', () => Atomics.store(this.#counters, FAILED, 1));
    this.#worker = worker;
  }

  /** Ends the thread (its connection with it). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    Atomics.store(this.#counters, FAILED, 1);
    Atomics.notify(this.#counters, ASKED);
    await worker?.terminate();
  }
}
