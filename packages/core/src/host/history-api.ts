import type { HistoryEntry, HistoryReader, ResultSlice } from '../history/history-reader.js';
import type { Scope } from '../scope.js';
import type { InvocationRecord } from '../store/invocation-record.js';

/** `host.history`: a conversation's calls, newest first, and one call with its transitions and result. */
export interface HostHistoryApi {
  /**
   * Newest first, a page at a time; `allConversations` lists every conversation of the scope's user there, and
   * `modelCallId` only the calls made under the model's id for them.
   */
  list(options: {
    scope: Scope;
    limit?: number;
    before?: number;
    allConversations?: boolean;
    modelCallId?: string;
  }): Promise<InvocationRecord[]>;
  get(options: { scope: Scope; invocationId: string }): Promise<HistoryEntry | undefined>;
}

/** `host.results`: the whole result behind a handle. */
export interface HostResultsApi {
  /** Reads the whole serialized result behind a handle, a slice at a time. Another tenant's handle: not_found. */
  read(options: { scope: Scope; handle: string; offset?: number; length?: number }): Promise<ResultSlice>;
}

/** The `host.history` object over the history reader. */
export function hostHistoryApi(history: HistoryReader): HostHistoryApi {
  return {
    list: (options) => history.list(options),
    get: (options) => history.get(options),
  };
}

/** The `host.results` object over the history reader. */
export function hostResultsApi(history: HistoryReader): HostResultsApi {
  return { read: (options) => history.readResult(options) };
}
