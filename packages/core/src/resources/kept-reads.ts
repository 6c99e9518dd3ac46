import { randomUUID } from 'node:crypto';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import { DAY_MS, resolveRetention } from '../retention/retention-config.js';
import type { RetentionConfig } from '../retention/retention-config.js';

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

/** Where reads are kept when several hosts share a store: the store's two methods, and how long reads last there. */
export interface SharedKeptReads {
  readonly store: Required<Pick<HostStore, 'keepRead' | 'findKeptRead'>>;
  readonly now: () => number;
  /** How long a read is kept, in milliseconds (the results' retention); null: until deleted by hand. */
  readonly keepMs: number | null;
}

/**
 * The whole of recent resource reads, behind handles (`airlock:read/<uuid>`), so the model's cut notice, a screen's
 * "show all" and a full-size view fetch the read that was bounded rather than ask the server again (which may answer
 * differently, or be slow). A host alone keeps them in this process's memory, within a count and a size: the oldest
 * is let go first, and a host that restarts keeps none. Hosts sharing a store (`shared`) keep them there, for the
 * results' retention, so a handle made on one opens on any. A handle reads only in its own tenant.
 */
export class KeptReads {
  readonly #kept = new Map<string, Kept>();
  readonly #forgotten = new Set<string>();
  readonly #limit: { readonly count: number; readonly chars: number };
  readonly #shared: SharedKeptReads | undefined;
  #chars = 0;

  constructor(limit: { readonly count?: number; readonly chars?: number } = {}, shared?: SharedKeptReads) {
    this.#limit = { ...DEFAULT_KEPT_READS, ...limit };
    this.#shared = shared;
  }

  /**
   * Keeps a read whole; resolves with its handle once it is kept (in the shared store, before any host is told of
   * it). A read larger than the whole budget is not kept (undefined).
   */
  async keep(scope: Scope, read: WholeRead): Promise<string | undefined> {
    const text = JSON.stringify(read.contents);
    const chars = text.length;
    if (chars > this.#limit.chars) return undefined;
    const id = randomUUID();
    if (this.#shared !== undefined) {
      const { store, now, keepMs } = this.#shared;
      const keptAt = now();
      const { userId, workspaceId } = scope;
      const record = { id, userId, workspaceId, serverId: read.serverId, uri: read.uri, contents: text, keptAt };
      try {
        await store.keepRead(record, keepMs === null ? null : keptAt - keepMs);
      } catch {
        // The read itself succeeded: it is returned bounded, without a handle to a whole the store could not keep.
        return undefined;
      }
      return `airlock:read/${id}`;
    }
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
  async whole(scope: Scope, handle: string): Promise<WholeRead> {
    const id = HANDLE.exec(handle)?.[1];
    if (id === undefined) throw new HostError('not_found', `not a read handle: ${JSON.stringify(handle)}`);
    if (this.#shared !== undefined) {
      const { store, now, keepMs } = this.#shared;
      const found = await store.findKeptRead(scope, id, keepMs === null ? null : now() - keepMs);
      if (found === undefined) {
        throw new HostError(
          'not_found',
          `no read behind ${handle} (it was dropped with the results' retention, or never kept)`,
        );
      }
      const contents = JSON.parse(found.contents) as WholeRead['contents'];
      return { serverId: found.serverId, uri: found.uri, contents };
    }
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

/**
 * Where a host keeps its reads: in a store that offers to keep them (several hosts share it), for the results'
 * retention window (the default's 7 days when the config says nothing; forever when it says null); else undefined,
 * in memory.
 */
export function sharedKeptReads(
  store: HostStore,
  retention: RetentionConfig | undefined,
  now: () => number,
): SharedKeptReads | undefined {
  if (store.keepRead === undefined || store.findKeptRead === undefined) return undefined;
  const days = resolveRetention(retention).results;
  return {
    store: { keepRead: store.keepRead.bind(store), findKeptRead: store.findKeptRead.bind(store) },
    now,
    keepMs: days === null ? null : days * DAY_MS,
  };
}
