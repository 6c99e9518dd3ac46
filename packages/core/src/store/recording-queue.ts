import type { StoreWrite } from './host-store.js';

/**
 * What the call path needs of the history writer (history/history-writer.ts implements it): queue a write, put a
 * recording step off until the call is on its way, and refuse new calls once history stopped taking writes. The call
 * path names only this, so it does not depend on the writer's module (which reads the invocations it records).
 */
export interface RecordingQueue {
  /** Throws the write failure that stopped the queue, if any. */
  assertHealthy(): void;
  /** Queues a write; it is stored after every write queued before it. */
  write(write: StoreWrite): void;
  /** Puts off a recording step until the end of this turn of the event loop; returns a function that runs it now. */
  defer(run: () => void): () => void;
  /** What a call waits for before it is sent: the commit of its rows under durability 'strict', else undefined. */
  beforeSend(): Promise<void> | undefined;
}
