import { HostError } from '../errors/host-error.js';
import { resultHandle } from '../invocations/bound-result.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../store/invocation-record.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import type { HistoryWriter } from './history-writer.js';

/** One invocation with its transitions and the result exactly as the model was given it. */
export interface HistoryEntry {
  readonly invocation: InvocationRecord;
  readonly transitions: readonly TransitionRecord[];
  readonly result?: ResultRecord;
}

/** A slice of the whole serialized result behind a handle. */
export interface ResultSlice {
  readonly text: string;
  readonly offset: number;
  readonly totalChars: number;
  /** True when the slice reaches the end. */
  readonly done: boolean;
}

/** How many characters of a result `readResult` returns when the caller names no length. */
export const DEFAULT_RESULT_SLICE_CHARS = 25_000;

const HANDLE = /^airlock:result\/([0-9a-f-]{36})$/;

/**
 * History as callers read it: a tenant's invocations, one invocation whole, and the full result behind a handle, a
 * slice at a time. Every read drains the history writer first, so history never shows less than what callers got;
 * every read takes the caller's scope, and another tenant's rows are as absent as missing ones.
 */
export class HistoryReader {
  readonly #store: HostStore;
  readonly #writes: HistoryWriter;

  constructor(deps: { readonly store: HostStore; readonly writes: HistoryWriter }) {
    this.#store = deps.store;
    this.#writes = deps.writes;
  }

  /** The tenant's invocations, newest first, a page at a time. */
  async list(options: { scope: Scope } & ListInvocationsOptions): Promise<InvocationRecord[]> {
    const { scope, limit, before, allConversations, modelCallId } = options;
    const checked = assertScope(scope);
    await this.#writes.drain();
    return this.#store.listInvocations(checked, {
      ...(limit === undefined ? {} : { limit }),
      ...(before === undefined ? {} : { before }),
      ...(allConversations === true ? { allConversations } : {}),
      ...(modelCallId === undefined ? {} : { modelCallId }),
    });
  }

  /** One invocation with its transitions and result; undefined when the tenant has no such invocation. */
  async get(options: { scope: Scope; invocationId: string }): Promise<HistoryEntry | undefined> {
    const { scope, invocationId } = options;
    const checked = assertScope(scope);
    await this.#writes.drain();
    const invocation = await this.#store.getInvocation(checked, invocationId);
    if (invocation === undefined) return undefined;
    const [transitions, result] = await Promise.all([
      this.#store.listTransitions(checked, invocationId),
      this.#store.getResult(checked, invocationId),
    ]);
    return { invocation, transitions, ...(result === undefined ? {} : { result }) };
  }

  /** Reads the whole serialized result behind a handle, a slice at a time. Another tenant's handle: not_found. */
  async readResult(options: { scope: Scope; handle: string; offset?: number; length?: number }): Promise<ResultSlice> {
    const { scope, handle, offset = 0, length = DEFAULT_RESULT_SLICE_CHARS } = options;
    const match = HANDLE.exec(handle);
    const id = match?.[1];
    if (id === undefined) throw new HostError('not_found', `not a result handle: ${handle}`);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(length) || length <= 0) {
      throw new HostError('invalid_arguments', 'offset must be an integer >= 0 and length an integer > 0');
    }
    const checked = assertScope(scope);
    await this.#writes.drain();
    const result = await this.#store.getResult(checked, id);
    if (result === undefined || resultHandle(id) !== handle) {
      throw new HostError('not_found', `no result behind ${handle}`);
    }
    if (result.expiredAt !== undefined) {
      throw new HostError(
        'result_expired',
        `the whole result behind ${handle} expired on ${new Date(result.expiredAt).toISOString()} (retention); ` +
          'what the model and the screen were given is still in history',
        { data: { invocationId: id, expiredAt: result.expiredAt } },
      );
    }
    const text = result.fullText.slice(offset, offset + length);
    return { text, offset, totalChars: result.fullText.length, done: offset + length >= result.fullText.length };
  }
}
