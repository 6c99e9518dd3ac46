import { checkPrune, checkpointData } from '../../audit/audit-checkpoint.js';
import { chainEvent } from '../../audit/audit-chain.js';
import type { AuditEvent, AuditEventInput } from '../../store/audit-record.js';
import { HostError } from '../../errors/host-error.js';
import { decisionKey } from '../../store/decision-record.js';
import type { StoredDecision } from '../../store/decision-record.js';
import { sameScope } from '../../scope.js';
import type { Scope } from '../../scope.js';
import type {
  AuditQuery,
  DecisionTenant,
  HostStore,
  RetentionCandidate,
  RetentionQuery,
  StoreWrite,
} from '../../store/host-store.js';
import { isTerminalState } from '../../store/invocation-state.js';
import { retentionCandidates } from './memory-retention.js';
import { MemoryCredentials } from './memory-credentials.js';
import { matches } from './memory-audit-filter.js';
import { MemoryTasks } from './memory-tasks.js';
import { MemorySwitches } from './memory-switches.js';
import { MemoryConversations } from './memory-conversations.js';
import { MemoryViewConsents } from './memory-view-consents.js';
import type {
  InvocationRecord,
  ListInvocationsOptions,
  ResultRecord,
  TransitionRecord,
} from '../../store/invocation-record.js';
import {
  auditPage,
  checkFirstTransition,
  checkTransition,
  closedError,
  duplicateDecision,
  duplicateInvocation,
  duplicateSeq,
  notFound,
  pageSize,
  staleTransition,
  storedAuditInput,
  storedDecision,
  unknownWrite,
} from '../store-checks.js';

interface Entry {
  record: InvocationRecord;
  readonly transitions: TransitionRecord[];
  result: ResultRecord | undefined;
  /** Creation order, to list calls created in the same millisecond newest first. */
  readonly order: number;
}

const sameTenant = (a: Scope, b: Scope) => a.userId === b.userId && a.workspaceId === b.workspaceId;

function scopeKey(scope: Scope): string {
  return JSON.stringify([scope.userId, scope.workspaceId, scope.conversationId]);
}

/**
 * A `HostStore` in the process's memory: the default of a host given no store, and the store of tests. Nothing
 * survives the process.
 *
 * It keeps the same contract as `SqliteStore` (the one contract suite runs over both), including what a database
 * gives for free: rows are copied in and out with `structuredClone`, so neither the caller's later changes to what it
 * passed nor changes to what it got back can reach a stored row; and every write checks everything before it changes
 * anything, so a refused write leaves no trace. Audit events are sealed in the form `SqliteStore` stores them
 * (`storedAuditInput`), so the same inputs make the same chain in either store.
 */
export class MemoryStore implements HostStore {
  readonly #byId = new Map<string, Entry>();
  readonly #byScope = new Map<string, Entry[]>();
  #created = 0;
  #closed = false;
  /** Decisions by `decisionKey`, and each stored id's key (to refuse an id another key holds). */
  readonly #decisions = new Map<string, StoredDecision>();
  readonly #decisionKeyOf = new Map<string, string>();
  /** The audit chain, in seq order: event i has seq i + 1 + #pruned. */
  readonly #events: AuditEvent[] = [];
  /** How many events pruning took from the front of the chain. */
  #pruned = 0;
  readonly #credentials = new MemoryCredentials();
  readonly #tasks = new MemoryTasks();
  readonly #switches = new MemorySwitches();
  readonly #conversations = new MemoryConversations();
  readonly #viewConsents = new MemoryViewConsents();
  readonly #stateOf = (scope: Scope, id: string) => this.#find(scope, id)?.record.state;

  /**
   * Applies the writes in order, all or none: a refused write undoes the ones before it, audit events included. It
   * runs in one synchronous step, so no other call can land between its writes (and be undone with them).
   */
  write(batch: readonly StoreWrite[]): Promise<void> {
    return this.#call(() => {
      const undo: (() => void)[] = [];
      const eventCount = this.#events.length;
      try {
        for (const w of batch) this.#apply(w, undo);
      } catch (error) {
        for (const step of undo.reverse()) step();
        this.#events.length = eventCount;
        throw error;
      }
    });
  }

  /** Applies one write of a batch and its audit events, pushing onto `undo` what takes its changes back. */
  #apply(w: StoreWrite, undo: (() => void)[]): void {
    switch (w.kind) {
      case 'create': {
        this.#create(w.record, w.first);
        const id = w.record.id;
        undo.push(() => this.#remove(id));
        break;
      }
      case 'transition': {
        const entry = this.#find(w.scope, w.transition.invocationId);
        const saved = entry && { record: entry.record, count: entry.transitions.length, result: entry.result };
        this.#transition(w.scope, w.transition, w.result);
        if (entry !== undefined && saved !== undefined) {
          undo.push(() => {
            entry.record = saved.record;
            entry.transitions.length = saved.count;
            entry.result = saved.result;
          });
        }
        break;
      }
      case 'audit':
        break;
      case 'decision.put':
        undo.push(this.#putDecision(w.decision));
        break;
      case 'decision.delete':
        undo.push(this.#deleteDecisions(w.scope, w.ids));
        this.#events.push(...this.#seal(w.audit));
        return;
      case 'audit.prune':
        undo.push(this.#prune(w.throughSeq, w.checkpoint));
        return;
      case 'retention.delete':
        undo.push(this.#retain(w.expireResults, w.deleteInvocations, w.at));
        break;
      case 'credential.put':
      case 'credential.delete':
        undo.push(this.#credentials.apply(w));
        break;
      case 'switch.put':
      case 'switch.delete':
        undo.push(this.#switches.apply(w));
        break;
      case 'conversation.put':
      case 'conversation.delete':
        undo.push(this.#conversations.apply(w));
        return;
      case 'viewConsent.put':
      case 'viewConsent.delete':
        undo.push(this.#viewConsents.apply(w));
        return;
      case 'task.put':
        undo.push(this.#tasks.put(w.task, this.#stateOf));
        break;
      default:
        throw unknownWrite(w);
    }
    if (w.audit !== undefined) this.#events.push(...this.#seal([w.audit]));
  }

  /** Appends the checkpoint, then drops the events through `throughSeq`; returns what puts them back. */
  #prune(throughSeq: number, checkpoint: AuditEventInput): () => void {
    const data = checkpointData(checkpoint);
    const deleting = Math.max(0, Math.min(throughSeq - this.#pruned, this.#events.length));
    checkPrune(throughSeq, data, this.#events[throughSeq - this.#pruned - 1], deleting);
    this.#events.push(...this.#seal([checkpoint]));
    const removed = this.#events.splice(0, deleting);
    this.#pruned += deleting;
    return () => {
      this.#events.unshift(...removed);
      this.#pruned -= deleting;
    };
  }

  /** Empties ended calls' whole results and deletes ended calls (running ones: nothing); returns what undoes it. */
  #retain(expire: readonly string[], remove: readonly string[], at: number): () => void {
    const ended = (id: string) => {
      const entry = this.#byId.get(id);
      return entry !== undefined && isTerminalState(entry.record.state) ? entry : undefined;
    };
    const emptied: [Entry, ResultRecord][] = [];
    for (const id of expire) {
      const entry = ended(id);
      const result = entry?.result;
      if (entry === undefined || result === undefined || result.expiredAt !== undefined) continue;
      emptied.push([entry, result]);
      entry.result = { ...result, fullText: '', rawJson: '', expiredAt: at };
    }
    const removed = remove.map(ended).filter((entry) => entry !== undefined);
    for (const entry of removed) this.#remove(entry.record.id);
    return () => {
      for (const entry of removed) this.#restore(entry);
      for (const [entry, result] of emptied) entry.result = result;
    };
  }

  /** Ended calls a sweep may touch, oldest first. */
  listRetention(query: RetentionQuery): Promise<RetentionCandidate[]> {
    return this.#call(() => retentionCandidates(this.#byId.values(), query));
  }

  /** Puts a removed entry back (an undone retention batch). */
  #restore(entry: Entry): void {
    this.#byId.set(entry.record.id, entry);
    const key = scopeKey(entry.record.scope);
    const list = this.#byScope.get(key);
    if (list === undefined) this.#byScope.set(key, [entry]);
    else list.push(entry);
  }

  /** Replaces the decision of the same key (its id included); returns what takes it back. */
  #putDecision(decision: StoredDecision): () => void {
    const d = storedDecision(decision);
    const key = decisionKey(d);
    const keyOfId = this.#decisionKeyOf.get(d.id);
    if (keyOfId !== undefined && keyOfId !== key) throw duplicateDecision(d.id);
    const previous = this.#decisions.get(key);
    if (previous !== undefined) this.#decisionKeyOf.delete(previous.id);
    this.#decisions.set(key, structuredClone(d));
    this.#decisionKeyOf.set(d.id, key);
    return () => {
      this.#decisionKeyOf.delete(d.id);
      if (previous === undefined) this.#decisions.delete(key);
      else {
        this.#decisions.set(key, previous);
        this.#decisionKeyOf.set(previous.id, key);
      }
    };
  }

  /** Deletes the tenant's decisions among `ids` (others' and unknown ids: nothing); returns what takes it back. */
  #deleteDecisions(scope: DecisionTenant, ids: readonly string[]): () => void {
    const deleted: [string, StoredDecision][] = [];
    for (const id of ids) {
      const key = this.#decisionKeyOf.get(id);
      const d = key === undefined ? undefined : this.#decisions.get(key);
      if (key === undefined || d === undefined || d.userId !== scope.userId || d.workspaceId !== scope.workspaceId) {
        continue;
      }
      this.#decisions.delete(key);
      this.#decisionKeyOf.delete(id);
      deleted.push([key, d]);
    }
    return () => {
      for (const [key, d] of deleted) {
        this.#decisions.set(key, d);
        this.#decisionKeyOf.set(d.id, key);
      }
    };
  }

  listDecisions(filter: { readonly userId?: string; readonly workspaceId?: string }): Promise<StoredDecision[]> {
    return this.#call(() => {
      const { userId, workspaceId } = filter;
      const found: StoredDecision[] = [];
      for (const d of this.#decisions.values()) {
        if (
          (userId === undefined || d.userId === userId) &&
          (workspaceId === undefined || d.workspaceId === workspaceId)
        ) {
          found.push(structuredClone(d));
        }
      }
      return found;
    });
  }

  queryAudit(query: AuditQuery): Promise<AuditEvent[]> {
    return this.#call(() => {
      const { limit, afterSeq } = auditPage(query);
      const found: AuditEvent[] = [];
      // Event i has seq i + 1 + #pruned, so the events after afterSeq start at index afterSeq - #pruned.
      for (let i = Math.max(0, afterSeq - this.#pruned); i < this.#events.length && found.length < limit; i += 1) {
        const e = this.#events[i];
        if (e !== undefined && matches(e, query)) found.push(structuredClone(e));
      }
      return found;
    });
  }

  /** Seals inputs as the next events of the chain without storing them: the caller stores them once all checks pass. */
  #seal(inputs: readonly AuditEventInput[]): AuditEvent[] {
    const stored = inputs.map(storedAuditInput);
    let last = this.#events.at(-1);
    return stored.map((input) => (last = chainEvent(input, last)));
  }

  #remove(id: string): void {
    const entry = this.#byId.get(id);
    if (entry === undefined) return;
    this.#byId.delete(id);
    const list = this.#byScope.get(scopeKey(entry.record.scope));
    if (list !== undefined) list.splice(list.indexOf(entry), 1);
  }

  #create(record: InvocationRecord, first: TransitionRecord): void {
    checkFirstTransition(record, first);
    if (this.#byId.has(record.id)) throw duplicateInvocation(record.id);
    const entry: Entry = {
      record: structuredClone(record),
      transitions: [structuredClone(first)],
      result: undefined,
      order: this.#created++,
    };
    this.#byId.set(record.id, entry);
    const key = scopeKey(record.scope);
    const list = this.#byScope.get(key);
    if (list === undefined) this.#byScope.set(key, [entry]);
    else list.push(entry);
  }

  #transition(scope: Scope, transition: TransitionRecord, result: ResultRecord | undefined): void {
    checkTransition(transition, result);
    const entry = this.#find(scope, transition.invocationId);
    if (entry === undefined) throw notFound(transition.invocationId);
    if (entry.record.state !== transition.from) throw staleTransition(transition, entry.record.state);
    if (entry.transitions.some((t) => t.seq === transition.seq)) throw duplicateSeq(transition);
    const stored = structuredClone(transition);
    const storedResult = result === undefined ? undefined : structuredClone(result);
    entry.record = {
      ...entry.record,
      state: stored.to,
      outcome: stored.outcome,
      error: stored.error,
      updatedAt: stored.at,
    };
    entry.transitions.push(stored);
    if (storedResult !== undefined) entry.result = storedResult;
  }

  getCredential: HostStore['getCredential'] = (key) => this.#call(() => this.#credentials.get(key));
  getTask: HostStore['getTask'] = (scope, id) =>
    this.#call(() => this.#tasks.get(scope, id, this.#find(scope, id) !== undefined));
  listOpenTasks: HostStore['listOpenTasks'] = (filter) => this.#call(() => this.#tasks.listOpen(filter, this.#stateOf));
  listCredentials: HostStore['listCredentials'] = (filter) => this.#call(() => this.#credentials.list(filter));
  listSwitches: HostStore['listSwitches'] = () => this.#call(() => this.#switches.list());
  getConversation: HostStore['getConversation'] = (tenant, id) => this.#call(() => this.#conversations.get(tenant, id));
  listConversations: HostStore['listConversations'] = (tenant, options) =>
    this.#call(() => this.#conversations.list(tenant, options));
  listViewConsents: HostStore['listViewConsents'] = (tenant, filter) =>
    this.#call(() => this.#viewConsents.list(tenant, filter));
  listStaleConversations: HostStore['listStaleConversations'] = (query) =>
    this.#call(() => this.#conversations.stale(query));

  getInvocation(scope: Scope, id: string): Promise<InvocationRecord | undefined> {
    return this.#call(() => {
      const entry = this.#find(scope, id);
      return entry === undefined ? undefined : structuredClone(entry.record);
    });
  }

  listInvocations(scope: Scope, options?: ListInvocationsOptions): Promise<InvocationRecord[]> {
    return this.#call(() => {
      const limit = pageSize(options);
      const before = options?.before;
      const entries = options?.allConversations
        ? [...this.#byScope.values()].flat().filter(({ record }) => sameTenant(record.scope, scope))
        : (this.#byScope.get(scopeKey(scope)) ?? []);
      return entries
        .filter((entry) => before === undefined || entry.record.createdAt < before)
        .filter((entry) => options?.modelCallId === undefined || entry.record.modelCallId === options.modelCallId)
        .sort((a, b) => b.record.createdAt - a.record.createdAt || b.order - a.order)
        .slice(0, limit)
        .map((entry) => structuredClone(entry.record));
    });
  }

  listTransitions(scope: Scope, invocationId: string): Promise<TransitionRecord[]> {
    return this.#call(() => {
      const transitions = this.#find(scope, invocationId)?.transitions ?? [];
      return structuredClone(transitions).sort((a, b) => a.seq - b.seq);
    });
  }

  getResult(scope: Scope, invocationId: string): Promise<ResultRecord | undefined> {
    return this.#call(() => {
      const result = this.#find(scope, invocationId)?.result;
      return result === undefined ? undefined : structuredClone(result);
    });
  }

  /** Drops every row. Idempotent; every other call then rejects with `closed`. */
  close(): Promise<void> {
    this.#closed = true;
    this.#byId.clear();
    this.#byScope.clear();
    this.#decisions.clear();
    this.#decisionKeyOf.clear();
    this.#credentials.clear();
    this.#tasks.clear();
    this.#events.length = 0;
    this.#pruned = 0;
    return Promise.resolve();
  }

  /** The entry with this id when it belongs to this scope; another tenant's entry is as absent as a missing one. */
  #find(scope: Scope, id: string): Entry | undefined {
    const entry = this.#byId.get(id);
    return entry !== undefined && sameScope(entry.record.scope, scope) ? entry : undefined;
  }

  #call<T>(run: () => T): Promise<T> {
    try {
      if (this.#closed) throw closedError('memory store');
      return Promise.resolve(run());
    } catch (error) {
      if (error instanceof HostError) return Promise.reject(error);
      // structuredClone refuses values JSON could not keep either (functions, symbols): the write fails as a store error.
      const message = error instanceof Error ? error.message : String(error);
      return Promise.reject(
        new HostError('store_error', `the memory store could not copy a row: ${message}`, { cause: error }),
      );
    }
  }
}
