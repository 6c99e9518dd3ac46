import { randomUUID } from 'node:crypto';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';

/** What a read handle gives back: the read's server and URI, and its contents whole, as the server sent them. */
export interface WholeRead {
  readonly serverId: string;
  readonly uri: string;
  readonly contents: ReadResourceResult['contents'];
}

interface Kept extends WholeRead {
  readonly userId: string;
  readonly workspaceId: string;
  /** The contents' serialized length, what the budget counts. */
  readonly chars: number;
}

/** How much the host keeps of recent reads, by default: the most recent 256, and 64 Mi characters of contents. */
export const DEFAULT_KEPT_READS = { count: 256, chars: 64 * 1024 * 1024 } as const;

const HANDLE = /^airlock:read\/([0-9a-f-]{36})$/;
/** How many let-go handles are remembered, so reading one says it was let go rather than that it never was. */
const FORGOTTEN = 4096;

/**
 * The whole of recent resource reads, behind handles (`airlock:read/<uuid>`), so the model's cut notice, a screen's
 * "show all" and a full-size view fetch the read that was bounded rather than ask the server again (which may answer
 * differently, or be slow). Kept in this process's memory only, within a count and a size: the oldest is let go
 * first, and a host that restarts keeps none. A handle reads only in its own tenant (another's finds nothing).
 */
export class KeptReads {
  readonly #kept = new Map<string, Kept>();
  readonly #forgotten = new Set<string>();
  readonly #limit: { readonly count: number; readonly chars: number };
  #chars = 0;

  constructor(limit: { readonly count?: number; readonly chars?: number } = {}) {
    this.#limit = { ...DEFAULT_KEPT_READS, ...limit };
  }

  /** Keeps a read whole; returns its handle. A read larger than the whole budget is not kept (undefined). */
  keep(scope: Scope, read: WholeRead): string | undefined {
    const chars = JSON.stringify(read.contents).length;
    if (chars > this.#limit.chars) return undefined;
    const id = randomUUID();
    this.#kept.set(id, { ...read, userId: scope.userId, workspaceId: scope.workspaceId, chars });
    this.#chars += chars;
    for (const [oldest, kept] of this.#kept) {
      if (this.#kept.size <= this.#limit.count && this.#chars <= this.#limit.chars) break;
      this.#letGo(oldest, kept);
    }
    return `airlock:read/${id}`;
  }

  /**
   * The read behind `handle`, for its own tenant. Not a read handle, or another tenant's: `not_found`. One the host
   * let go (older reads past the budget): `result_expired`, saying to read the resource again.
   */
  whole(scope: Scope, handle: string): WholeRead {
    const id = HANDLE.exec(handle)?.[1];
    if (id === undefined) throw new HostError('not_found', `not a read handle: ${JSON.stringify(handle)}`);
    const kept = this.#kept.get(id);
    if (kept === undefined || kept.userId !== scope.userId || kept.workspaceId !== scope.workspaceId) {
      if (kept === undefined && this.#forgotten.has(id)) {
        throw new HostError(
          'result_expired',
          `the whole read behind ${handle} is no longer kept (the host keeps only its most recent reads, in memory); ` +
            'read the resource again',
          { data: { handle } },
        );
      }
      throw new HostError('not_found', `no read behind ${handle} (reads are kept in memory until the host restarts)`);
    }
    return { serverId: kept.serverId, uri: kept.uri, contents: kept.contents };
  }

  #letGo(id: string, kept: Kept): void {
    this.#kept.delete(id);
    this.#chars -= kept.chars;
    this.#forgotten.add(id);
    if (this.#forgotten.size > FORGOTTEN) this.#forgotten.delete(this.#forgotten.values().next().value!);
  }
}
