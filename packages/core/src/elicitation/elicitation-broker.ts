import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import type { Clock } from '../clock.js';
import { HostError } from '../errors/host-error.js';
import type { AuditEventInput } from '../store/audit-record.js';
import { auditEvent } from '../audit/audit-event-builder.js';
import type { Scope } from '../scope.js';
import { sameScope } from '../scope.js';
import type { CallInFlight } from '../invocations/call-in-flight.js';
import { InFlightList } from '../invocations/in-flight-list.js';
import type { ElicitationAsker } from './elicitation-request.js';
import type { ElicitationAnswer, ElicitationMode, ElicitationRequest } from './elicitation-request.js';
import { checkElicitationAnswer } from './check-elicitation-answer.js';
import { buildFormModel, initialValues } from './form-model.js';
import { UrlFlows } from './url-flows.js';
import { ELICITATION_REASON_META_KEY, questionTimeout } from './question-timeout.js';
import { inspectUrl } from './url-safety.js';

/** Why a question closed. */
export type ElicitationEnd =
  | 'answered'
  | 'timeout'
  | 'server_cancelled'
  | 'call_ended'
  | 'workspace_switch'
  | 'invalid_request'
  | 'surface_failed';

/** What the broker tells listeners. */
export interface ElicitationEvents {
  requested(request: ElicitationRequest): void;
  closed(event: { request: ElicitationRequest; action: ElicitationAnswer['action']; end: ElicitationEnd }): void;
  completed(event: { scope: Scope; serverId: string; elicitationId: string }): void;
  audit(event: AuditEventInput): void;
  /** Something a server sent that the host corrected (a question's timeout out of bounds), for the server's log. */
  warning?(event: { serverId: string; message: string }): void;
}

interface Pending {
  readonly request: ElicitationRequest;
  /** The form schema as sent, for the final validation. */
  readonly schema: unknown;
  readonly answer: (answer: ElicitationAnswer) => void;
}

const MAX_SURFACE_TRIES = 3;
const NO_HOLD = (): void => undefined;

/**
 * One handler for `elicitation/create`, for both protocol eras: the 2025 pushed request and the 2026 input-required
 * round the client fulfils through the same handler. It ties each question to the call that caused it (and so to
 * its tenant), queues questions per conversation, hands each to the surface (or to `respond`, for surfaces that answer
 * over an API), validates form answers before anything is sent, and closes questions on timeout, server cancel, the
 * end of the call, or a workspace switch, always sending the server `cancel` rather than inventing an answer.
 */
export class ElicitationBroker {
  readonly #calls = new AsyncLocalStorage<CallInFlight>();
  readonly #inFlight = new Map<string, InFlightList<CallInFlight>>();
  readonly #pending = new Map<string, Pending>();
  readonly #queues = new Map<string, Promise<void>>();
  readonly #closers = new Map<string, (end: ElicitationEnd) => void>();
  /** URL flows the user agreed to open, awaiting the server's completion. */
  readonly #urlFlows: UrlFlows;

  constructor(
    private readonly deps: {
      surface: ElicitationAsker | undefined;
      clock: Clock;
      events: ElicitationEvents;
      timeoutMs: (tool: string) => number;
      /**
       * Whether a server's questions can arrive in the async context of the call that caused them (see
       * `ServerConnection.questionsInCallContext`); default yes. Only then does `around` carry the call in async
       * context: on Node 20 that makes every promise of the process slower, and a stdio 2025 question never has it.
       */
      questionsInCallContext?: (serverId: string) => boolean;
      /**
       * The tenant key of a scope on a server with a connection per user or workspace (undefined when shared): a
       * question asked on a tenant's connection is matched only against that tenant's calls.
       */
      tenantOf?: (serverId: string, scope: Scope) => string | undefined;
    },
  ) {
    this.#urlFlows = new UrlFlows({
      clock: deps.clock,
      timeoutMs: () => deps.timeoutMs(''),
      completed: (event) => deps.events.completed(event),
    });
  }

  /** The modes the host can answer, declared as the client capability; none without a surface that elicits. */
  modes(): readonly ElicitationMode[] {
    if (this.deps.surface?.elicit === undefined) return [];
    return this.deps.surface.elicitationModes ?? ['form'];
  }

  /** Runs an MCP tool call so that questions its server asks meanwhile are tied to it. */
  around<T>(call: CallInFlight, run: () => Promise<T>): Promise<T> {
    const serverId = call.serverId;
    if (serverId === null) return run();
    const channel = channelOf(serverId, this.deps.tenantOf?.(serverId, call.scope));
    let calls = this.#inFlight.get(channel);
    if (calls === undefined) this.#inFlight.set(channel, (calls = new InFlightList()));
    const node = calls.add(call);
    const list = calls;
    // The last call of a channel takes its list along: channels come and go with users, the map does not grow.
    const done = () => list.remove(node) && list.size === 0 && this.#inFlight.delete(channel);
    const linked = this.deps.questionsInCallContext?.(serverId) ?? true;
    return (linked ? this.#calls.run(call, run) : run()).then(
      (value) => {
        done();
        return value;
      },
      (error: unknown) => {
        done();
        throw error;
      },
    );
  }

  /** The `elicitation/create` handler for one server connection (a tenant's, on a server per tenant). */
  handler(
    serverId: string,
    tenant?: string,
  ): (request: ElicitRequest, context: { mcpReq: { signal: AbortSignal } }) => Promise<ElicitResult> {
    return (request, context) => this.#handle(serverId, tenant, request.params, context.mcpReq.signal);
  }

  /** `notifications/elicitation/complete` from a server: the URL flow the user opened has finished. */
  completed(serverId: string, elicitationId: unknown): void {
    this.#urlFlows.completed(serverId, elicitationId);
  }

  /** The user's own "done, retry" for a URL flow of theirs; false when no such flow is waiting. */
  completeByUser(scope: Scope, serverId: string, elicitationId: string): boolean {
    return this.#urlFlows.completeByUser(scope, serverId, elicitationId);
  }

  /**
   * A call refused with -32042: each URL is shown for consent like a URL-mode question; after each accept the host
   * waits for the server's completion notification (or the user's "done, retry") until the elicitation deadline, the
   * call's idle timeout held meanwhile. True when every flow completed, so the call may be retried.
   */
  urlRequired(
    serverId: string,
    tenant: string | undefined,
    elicitations: readonly unknown[],
    signal: AbortSignal,
  ): Promise<boolean> {
    // The call that was refused: while the user is in the browser its idle timeout waits, as while a question is open.
    let call: CallInFlight | undefined;
    try {
      call = this.#callFor(serverId, tenant);
    } catch {
      call = undefined; // no call to tie the flow to: asking fails below and the server's -32042 error stands
    }
    return this.#urlFlows.required({
      serverId,
      elicitations,
      signal,
      ask: (params) => this.#handle(serverId, tenant, params, signal),
      hold: () => (call === undefined ? NO_HOLD : call.hold()),
    });
  }

  /** The tenant's open questions, oldest first. */
  pending(scope: Scope): ElicitationRequest[] {
    return [...this.#pending.values()].map((p) => p.request).filter((r) => sameScope(r.scope, scope));
  }

  /**
   * Answers an open question from an API (a console tab). Another tenant's id is not found; a form answer that fails
   * validation is refused with the errors by field, and the question stays open.
   */
  respond(scope: Scope, id: string, answer: unknown): void {
    const pending = this.#pending.get(id);
    if (pending === undefined || !sameScope(pending.request.scope, scope)) {
      throw new HostError('not_found', `no open question ${id}`);
    }
    const checked = checkElicitationAnswer({ request: pending.request, schema: pending.schema, answer });
    if (!checked.ok) {
      throw new HostError(
        'invalid_arguments',
        `the answer does not fit the form: ${Object.entries(checked.errors)
          .map(([k, v]) => `${k || 'form'}: ${v}`)
          .join('; ')}`,
        {
          data: { errors: checked.errors },
        },
      );
    }
    pending.answer(checked.answer);
  }

  /**
   * The user moved to `workspaceId`: their open questions close (cancel is sent) in `from`, the workspace left, or
   * when `from` is not given, in every workspace but the new one. Moving to the workspace one is in closes nothing.
   */
  switchWorkspace(userId: string, workspaceId: string, from?: string): number {
    if (from === workspaceId) return 0;
    let closed = 0;
    for (const pending of this.#pending.values()) {
      const s = pending.request.scope;
      if (s.userId === userId && s.workspaceId !== workspaceId && (from === undefined || s.workspaceId === from)) {
        this.#closers.get(pending.request.id)?.('workspace_switch');
        closed += 1;
      }
    }
    return closed;
  }

  async #handle(
    serverId: string,
    tenant: string | undefined,
    params: ElicitRequest['params'],
    serverSignal: AbortSignal,
  ): Promise<ElicitResult> {
    const call = this.#callFor(serverId, tenant);
    const mode: ElicitationMode = params.mode === 'url' ? 'url' : 'form';
    if (!this.modes().includes(mode)) {
      throw new ProtocolError(-32602, `this host cannot answer ${mode}-mode elicitation now`);
    }
    const now = this.deps.clock.now();
    const timeout = questionTimeout(params._meta, this.deps.timeoutMs(call.invocation.tool), serverId);
    if (timeout.warning !== undefined) this.deps.events.warning?.({ serverId, message: timeout.warning });
    const base = {
      id: randomUUID(),
      scope: call.invocation.scope,
      invocationId: call.invocation.id,
      serverId,
      tool: call.invocation.tool,
      mode,
      message: typeof params.message === 'string' ? params.message : '',
      createdAt: now,
      deadline: now + timeout.ms,
    };
    let request: ElicitationRequest;
    let schema: unknown;
    if (mode === 'form') {
      schema = (params as { requestedSchema?: unknown }).requestedSchema;
      const built = buildFormModel(schema);
      if (!built.ok) return this.#refuse(base, `the form is outside what MCP forms allow: ${built.reason}`);
      request = { ...base, form: { model: built.model, initialValues: initialValues(built.model) } };
    } else {
      const inspected = inspectUrl((params as { url?: unknown }).url);
      if (!inspected.ok) return this.#refuse(base, inspected.reason);
      const flowId = (params as { elicitationId?: unknown }).elicitationId;
      request = {
        ...base,
        url: inspected.inspection,
        ...(typeof flowId === 'string' ? { serverElicitationId: flowId } : {}),
      };
    }
    const serverElicitationId = request.serverElicitationId;
    const { answer, end } = await this.#ask(request, schema, [serverSignal, call.signal], () => call.hold());
    if (mode === 'url' && answer.action === 'accept' && typeof serverElicitationId === 'string') {
      this.#urlFlows.accepted(serverId, serverElicitationId, request.scope);
    }
    this.#audit(request, answer, end);
    if (answer.action === 'accept') {
      return mode === 'form'
        ? { action: 'accept', content: { ...(answer.content ?? {}) } as ElicitResult['content'] }
        : { action: 'accept' };
    }
    // MCP has no timeout message: the answer is cancel, its `_meta` saying that nobody answered in time.
    return end === 'timeout'
      ? { action: 'cancel', _meta: { [ELICITATION_REASON_META_KEY]: 'timeout' } }
      : { action: answer.action };
  }

  /** The call a question belongs to: the one whose async context asked (2026 rounds), else the one call in flight. */
  #callFor(serverId: string, tenant: string | undefined): CallInFlight {
    const own = this.#calls.getStore();
    if (own !== undefined && own.serverId === serverId) return own;
    const calls = [...(this.#inFlight.get(channelOf(serverId, tenant)) ?? [])];
    if (calls.length === 0) {
      throw new ProtocolError(-32600, `no tool call of this host is in progress on server "${serverId}" to ask for`);
    }
    const first = calls[0]!;
    if (calls.every((c) => sameScope(c.invocation.scope, first.invocation.scope))) return calls[calls.length - 1]!;
    // Over stdio a 2025 request carries no link to the call that caused it: with calls of several tenants in flight
    // the host cannot tell whose question it is, and says so rather than risk showing it to the wrong person.
    throw new ProtocolError(
      -32600,
      `calls of several users or conversations are in progress on server "${serverId}"; the question cannot be tied to one`,
    );
  }

  async #ask(
    request: ElicitationRequest,
    schema: unknown,
    signals: AbortSignal[],
    hold: () => () => void,
  ): Promise<{ answer: ElicitationAnswer; end: ElicitationEnd }> {
    const key = `${request.scope.userId}\u0000${request.scope.workspaceId}\u0000${request.scope.conversationId}`;
    const previous = this.#queues.get(key) ?? Promise.resolve();
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const chained = previous.then(() => turn);
    this.#queues.set(key, chained);
    const controller = new AbortController();
    let settle!: (result: { answer: ElicitationAnswer; end: ElicitationEnd }) => void;
    const outcome = new Promise<{ answer: ElicitationAnswer; end: ElicitationEnd }>((resolve) => (settle = resolve));
    let done = false;
    const finish = (answer: ElicitationAnswer, end: ElicitationEnd) => {
      if (done) return;
      done = true;
      cancelTimer();
      releaseHold();
      for (const s of signals) s.removeEventListener('abort', onAbort);
      this.#pending.delete(request.id);
      this.#closers.delete(request.id);
      controller.abort();
      this.deps.events.closed({ request, action: answer.action, end });
      settle({ answer, end });
    };
    const onAbort = () =>
      finish({ action: 'cancel' }, signals[0]?.aborted === true ? 'server_cancelled' : 'call_ended');
    for (const s of signals) s.addEventListener('abort', onAbort, { once: true });
    const releaseHold = hold();
    const cancelTimer = this.deps.clock.setTimer(
      () => finish({ action: 'cancel' }, 'timeout'),
      request.deadline - this.deps.clock.now(),
    );
    this.#closers.set(request.id, (end) => finish({ action: 'cancel' }, end));
    this.#pending.set(request.id, { request, schema, answer: (answer) => finish(answer, 'answered') });
    if (signals.some((s) => s.aborted)) onAbort();
    try {
      await previous;
      if (!done) {
        this.deps.events.requested(request);
        void this.#askSurface(request, schema, controller.signal, finish);
      }
      return await outcome;
    } finally {
      release();
      if (this.#queues.get(key) === chained) this.#queues.delete(key);
    }
  }

  async #askSurface(
    request: ElicitationRequest,
    schema: unknown,
    signal: AbortSignal,
    finish: (answer: ElicitationAnswer, end: ElicitationEnd) => void,
  ): Promise<void> {
    const elicit = this.deps.surface?.elicit?.bind(this.deps.surface);
    if (elicit === undefined) return; // answered through respond()
    let asked = request;
    for (let attempt = 0; attempt < MAX_SURFACE_TRIES && !signal.aborted; attempt++) {
      let answer: unknown;
      try {
        answer = await elicit(asked, signal);
      } catch {
        if (!signal.aborted) finish({ action: 'cancel' }, 'surface_failed');
        return;
      }
      if (signal.aborted) return;
      const pending = this.#pending.get(request.id);
      if (pending === undefined) return;
      const checked = checkElicitationAnswer({ request: pending.request, schema: pending.schema, answer });
      if (checked.ok) return finish(checked.answer, 'answered');
      asked = { ...request, errors: checked.errors };
    }
    if (!signal.aborted) finish({ action: 'cancel' }, 'surface_failed');
  }

  #refuse(base: Omit<ElicitationRequest, 'form' | 'url'>, reason: string): ElicitResult {
    this.deps.events.audit(this.#auditEvent(base, { action: 'decline', reason }, 'invalid_request'));
    return { action: 'decline' };
  }

  #audit(request: ElicitationRequest, answer: ElicitationAnswer, end: ElicitationEnd): void {
    this.deps.events.audit(this.#auditEvent(request, answer, end));
  }

  #auditEvent(
    request: Omit<ElicitationRequest, 'form' | 'url'>,
    answer: ElicitationAnswer,
    end: ElicitationEnd,
  ): AuditEventInput {
    const filled = answer.action === 'accept' && answer.content !== undefined ? Object.keys(answer.content).sort() : [];
    return auditEvent({
      type: 'elicitation',
      at: this.deps.clock.now(),
      scope: request.scope,
      serverId: request.serverId,
      tool: request.tool,
      invocationId: request.invocationId,
      data: {
        elicitationId: request.id,
        mode: request.mode,
        action: answer.action,
        end,
        fieldsFilled: filled,
        durationMs: this.deps.clock.now() - request.createdAt,
        ...(answer.action === 'decline' && answer.reason !== undefined ? { reason: answer.reason } : {}),
      },
    });
  }
}

/** The key of one connection's calls: the server, and the tenant on a server with a connection per tenant. */
function channelOf(serverId: string, tenant: string | undefined): string {
  return tenant === undefined ? serverId : `${serverId}\u0000${tenant}`;
}
