import { html, nothing, render } from 'lit';
import type { TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import '@airlock/elements';
import type {
  DecisionRevokeEvent,
  ElicitationAnswerEvent,
  ElicitationDoneEvent,
  PermissionDecideEvent,
} from '@airlock/elements';
import type { AuditEvent, ElicitationRequest, PermissionRequest, StoredDecision } from '@airlock/core';
import { api, ApiFailure } from './api-client.js';
import { locale, t } from './i18n.js';
import { launcherFields, readLauncherArgs, renderLauncherFields } from './launcher-form.js';
import type { Card, ChatLine, ServerView, Snapshot, ToolEntry } from './types.js';

/** What the console says of the audit chain (no counts: the chain is shared by every tenant). */
type Verification = { ok: true } | { ok: false; seq: number; problem: string };

/** Everything the page shows, rebuilt from the `state` event and kept current by the others. */
interface PageState {
  snapshot?: Snapshot;
  cards: Map<string, Card>;
  fullTexts: Map<string, string>;
  permissionRequests: PermissionRequest[];
  questions: ElicitationRequest[];
  /** Accepted URL flows still waiting for the server (or for "done, retry"). */
  urlFlows: ElicitationRequest[];
  launcherTool?: string;
  launcherError?: string;
  chatLines: ChatLine[];
  chatError?: string;
  audit?: { events: AuditEvent[]; verification?: Verification; error?: string };
  signIn?: { mode: 'local' | 'token'; error?: string };
  notice?: string;
}

/** A page with nothing of anyone's in it: what a tab starts from, and goes back to on every sign-in or new state. */
const emptyState = (): PageState => ({
  cards: new Map(),
  fullTexts: new Map(),
  permissionRequests: [],
  questions: [],
  urlFlows: [],
  chatLines: [],
});

let state: PageState = emptyState();
const root = document.getElementById('app')!;
let events: EventSource | undefined;
const CONVERSATION = 'main';

function update(): void {
  render(view(), root);
}

function route(): 'conversation' | 'permissions' | 'audit' {
  const hash = location.hash.replace(/^#\/?/, '');
  return hash === 'permissions' || hash === 'audit' ? hash : 'conversation';
}

// ---- Live state -------------------------------------------------------------------------------------------------

function connect(): void {
  events?.close();
  const source = new EventSource(`/api/events?conversation=${CONVERSATION}`);
  events = source;
  const on = (name: string, handle: (data: never) => void) =>
    source.addEventListener(name, (event) => {
      handle(JSON.parse((event as MessageEvent<string>).data) as never);
      update();
    });
  on('state', (snapshot: Snapshot) => {
    // Everything is rebuilt from the snapshot: nothing of another session or workspace survives it.
    const launcherTool = snapshot.session.userId === state.snapshot?.session.userId ? state.launcherTool : undefined;
    state = {
      ...emptyState(),
      snapshot,
      cards: new Map(snapshot.cards.map((card) => [card.invocation.id, card])),
      permissionRequests: snapshot.permissionRequests,
      questions: snapshot.elicitations,
      urlFlows: snapshot.urlFlows,
      chatLines: snapshot.chat.lines,
      ...(launcherTool === undefined ? {} : { launcherTool }),
    };
    for (const card of snapshot.cards) loadFullText(card);
  });
  on('failure', ({ message }: { message: string }) => {
    state.notice = t('console.state_failed', { message });
  });
  source.onerror = () => {
    // The browser retries by itself unless the stream was refused (signed out, or the console restarted).
    if (source.readyState !== EventSource.CLOSED) return;
    api('GET', '/api/session').then(
      () => setTimeout(connect, 2000),
      () => void showSignIn(t('console.session_ended')),
    );
  };
  on('invocation', (card: Card) => {
    const known = state.cards.get(card.invocation.id);
    if (known !== undefined && known.invocation.updatedAt > card.invocation.updatedAt) return;
    if (card.invocation.scope.conversationId !== CONVERSATION) return;
    const merged = { ...card, ...(known?.progress && !card.result ? { progress: known.progress } : {}) };
    state.cards.set(card.invocation.id, merged);
    loadFullText(merged);
  });
  on('invocation.progress', ({ invocationId, progress }: { invocationId: string; progress: Card['progress'] }) => {
    const card = state.cards.get(invocationId);
    if (card !== undefined && progress !== undefined) state.cards.set(invocationId, { ...card, progress });
  });
  on('permission.requested', (request: PermissionRequest) => {
    if (!state.permissionRequests.some((r) => r.invocationId === request.invocationId)) {
      state.permissionRequests.push(request);
      notify(
        t('console.notify.permission_title', { tool: request.tool.displayName }),
        t('console.notify.permission_body'),
      );
    }
  });
  on('permission.closed', ({ id }: { id: string }) => {
    state.permissionRequests = state.permissionRequests.filter((r) => r.invocationId !== id);
  });
  on('elicitation.requested', (request: ElicitationRequest) => {
    if (!state.questions.some((q) => q.id === request.id)) {
      state.questions.push(request);
      notify(t('console.notify.question_title', { server: request.serverId }), request.message);
    }
  });
  on('elicitation.closed', ({ id, action }: { id: string; action: string }) => {
    const question = state.questions.find((q) => q.id === id);
    state.questions = state.questions.filter((q) => q.id !== id);
    if (question?.mode === 'url' && action === 'accept' && question.serverElicitationId !== undefined) {
      state.urlFlows.push(question);
    }
  });
  on('elicitation.completed', ({ id }: { id: string }) => {
    state.urlFlows = state.urlFlows.filter((q) => q.id !== id);
  });
  on('chat.line', (line: ChatLine) => {
    if (line.conversationId === CONVERSATION) state.chatLines.push(line);
  });
  on('server.state', () => void refresh());
  on('tools.changed', () => void refresh());
  on('permissions.changed', () => void refresh());
  on('session.workspace', () => connect());
  on('session.ended', () => {
    source.close();
    void showSignIn();
  });
}

/** Refetches what changes without a card: servers, tools (with risk and stored decisions) and decisions. */
async function refresh(): Promise<void> {
  const snapshot = state.snapshot;
  if (snapshot === undefined) return;
  const [servers, modelTools, userTools, decisions] = await Promise.all([
    api<ServerView[]>('GET', '/api/servers'),
    api<ToolEntry[]>('GET', '/api/tools?audience=model'),
    api<ToolEntry[]>('GET', '/api/tools?audience=user'),
    api<StoredDecision[]>('GET', '/api/permissions'),
  ]);
  state.snapshot = { ...snapshot, servers, modelTools, userTools, decisions };
  update();
}

/** A result cut for the screen: fetch the whole text once, so "copy" copies all of it. */
function loadFullText(card: Card): void {
  const id = card.invocation.id;
  const cut = card.result?.blocks.some((b) => 'truncated' in b && b.truncated === true) ?? false;
  if (!cut || state.fullTexts.has(id)) return;
  state.fullTexts.set(id, '');
  api<{ text: string }>('GET', `/api/invocations/${id}/full?conversation=${CONVERSATION}`).then(
    ({ text }) => {
      state.fullTexts.set(id, text);
      update();
    },
    () => state.fullTexts.delete(id),
  );
}

function notify(title: string, body: string): void {
  if (!document.hidden || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  new Notification(title, { body, tag: 'airlock-question' });
}

// ---- Actions ----------------------------------------------------------------------------------------------------

async function act(action: () => Promise<unknown>, onError: (message: string, error: unknown) => void): Promise<void> {
  try {
    await action();
  } catch (error) {
    onError(error instanceof Error ? error.message : String(error), error);
  }
  update();
}

function decide(event: PermissionDecideEvent, request: PermissionRequest): void {
  state.permissionRequests = state.permissionRequests.filter((r) => r !== request);
  void act(
    () => api('POST', `/api/permission-requests/${request.invocationId}`, { decision: event.decision }),
    (message) => (state.notice = message),
  );
}

function answer(event: ElicitationAnswerEvent, request: ElicitationRequest): void {
  if (state.urlFlows.includes(request)) {
    // Giving up on a page already opened: stop showing it; the call ends by its own rules.
    state.urlFlows = state.urlFlows.filter((q) => q !== request);
    update();
    return;
  }
  void act(
    () => api('POST', `/api/elicitations/${request.id}`, { answer: event.answer }),
    (message, error) => {
      // The API names each field's problem; the dialog shows them and the question stays open.
      const errors = error instanceof ApiFailure ? error.body['errors'] : undefined;
      if (state.questions.includes(request) && typeof errors === 'object' && errors !== null) {
        const byField = errors as Record<string, string>;
        state.questions = state.questions.map((q) => (q === request ? { ...q, errors: byField } : q));
      } else state.notice = message;
    },
  );
}

function urlDone(event: ElicitationDoneEvent): void {
  state.urlFlows = state.urlFlows.filter((q) => q.id !== event.requestId);
  void act(
    () => api('POST', `/api/elicitations/${event.requestId}/done`, {}),
    (message) => (state.notice = message),
  );
}

function launch(event: SubmitEvent): void {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const entry = state.snapshot?.userTools.find((t) => t.tool.name === state.launcherTool);
  if (entry === undefined) return;
  state.launcherError = undefined;
  void act(
    async () => {
      const args = readLauncherArgs(form, launcherFields(entry.tool.inputSchema));
      await api('POST', '/api/invocations', { tool: entry.tool.name, args, conversation: CONVERSATION });
    },
    (message) => (state.launcherError = message),
  );
}

function cancel(id: string): void {
  void act(
    () => api('POST', `/api/invocations/${id}/cancel?conversation=${CONVERSATION}`, {}),
    (message) => (state.notice = message),
  );
}

function sendChat(event: SubmitEvent): void {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const box = form.elements.namedItem('message') as HTMLTextAreaElement;
  const message = box.value.trim();
  if (message === '') return;
  state.chatError = undefined;
  void act(
    async () => {
      await api('POST', '/api/chat', { message, conversation: CONVERSATION });
      box.value = '';
    },
    (error) => (state.chatError = error),
  );
}

function switchWorkspace(event: SubmitEvent): void {
  event.preventDefault();
  const input = (event.currentTarget as HTMLFormElement).elements.namedItem('workspace') as HTMLInputElement;
  void act(
    async () => {
      await api('POST', '/api/session/workspace', { workspaceId: input.value.trim() });
      state.audit = undefined;
    },
    (message) => (state.notice = message),
  );
}

async function loadAudit(form?: HTMLFormElement): Promise<void> {
  const params = new URLSearchParams();
  if (form !== undefined) {
    for (const name of ['type', 'tool', 'serverId']) {
      const value = (form.elements.namedItem(name) as HTMLInputElement).value.trim();
      if (value !== '') params.set(name, value);
    }
  }
  await act(
    async () => {
      const events = await api<AuditEvent[]>('GET', `/api/audit?${params.toString()}`);
      state.audit = { events };
    },
    (message) => (state.audit = { events: [], error: message }),
  );
}

function verifyAudit(): void {
  void act(
    async () => {
      const verification = await api<Verification>('POST', '/api/audit/verify', {});
      state.audit = { events: state.audit?.events ?? [], verification };
    },
    (message) => (state.audit = { events: state.audit?.events ?? [], error: message }),
  );
}

async function showSignIn(error?: string): Promise<void> {
  events?.close();
  const { mode } = await api<{ mode: 'local' | 'token' }>('GET', '/api/auth');
  state = { ...emptyState(), signIn: { mode, ...(error === undefined ? {} : { error }) } };
  update();
}

function submitSignIn(event: SubmitEvent): void {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
  const body: Record<string, string> = { workspaceId: value('workspace') || 'default' };
  if (state.signIn?.mode === 'token') body['token'] = value('token');
  else body['userId'] = value('user');
  api('POST', '/api/session', body).then(
    () => {
      state.signIn = undefined;
      connect();
    },
    (error: unknown) => void showSignIn(error instanceof Error ? error.message : String(error)),
  );
}

function signOut(): void {
  void api('DELETE', '/api/session').finally(() => {
    events?.close();
    void showSignIn();
  });
}

// ---- Views ------------------------------------------------------------------------------------------------------

function view(): TemplateResult {
  if (state.signIn !== undefined) return signInView(state.signIn);
  const snapshot = state.snapshot;
  if (snapshot === undefined) return html`<p class="loading">${t('console.connecting')}</p>`;
  const page = route();
  const permission = state.permissionRequests[0];
  const question = state.questions[0] ?? state.urlFlows[0];
  return html`${header(snapshot, page)}
    ${
      state.notice
        ? html`<p class="error single" role="alert">
            ${state.notice}
            <button type="button" @click=${() => ((state.notice = undefined), update())}>
              ${t('console.dismiss')}
            </button>
          </p>`
        : nothing
    }
    ${page === 'permissions' ? permissionsPage(snapshot) : page === 'audit' ? auditPage() : conversationPage(snapshot)}
    <airlock-permission-sheet
      .request=${permission}
      .open=${live(permission !== undefined)}
      @airlock-permission-decide=${(event: PermissionDecideEvent) => permission && decide(event, permission)}
    ></airlock-permission-sheet>
    <airlock-elicitation-dialog
      .request=${question}
      .open=${live(question !== undefined)}
      @airlock-elicitation-answer=${(event: ElicitationAnswerEvent) => question && answer(event, question)}
      @airlock-elicitation-done=${urlDone}
    ></airlock-elicitation-dialog>`;
}

function signInView(signIn: NonNullable<PageState['signIn']>): TemplateResult {
  return html`<main class="signin">
    <h1>${t('console.title')}</h1>
    <form @submit=${submitSignIn}>
      ${
        signIn.mode === 'token'
          ? html`<label
              >${t('console.signin.token')}
              <input name="token" type="password" autocomplete="current-password" required
            /></label>`
          : html`<label
              >${t('console.signin.name')}
              <input name="user" autocomplete="username" required pattern="[A-Za-z0-9][A-Za-z0-9._@\\-]{0,63}"
            /></label>`
      }
      <label>${t('console.workspace')} <input name="workspace" value="default" /></label>
      <button type="submit">${t('console.signin.submit')}</button>
      ${signIn.error ? html`<p class="error" role="alert">${signIn.error}</p>` : nothing}
    </form>
  </main>`;
}

function header(snapshot: Snapshot, page: string): TemplateResult {
  const link = (hash: string, label: string, name: string) =>
    html`<a href=${hash} aria-current=${page === name ? 'page' : 'false'}>${label}</a>`;
  return html`<header class="top">
    <h1>Airlock</h1>
    <nav aria-label=${t('console.nav.label')}>
      ${link('#/', t('console.nav.conversation'), 'conversation')}
      ${link('#/permissions', t('console.nav.permissions'), 'permissions')}
      ${link('#/audit', t('console.nav.audit'), 'audit')}
    </nav>
    <div class="who">
      <span>${t('console.signed_in_as')} <strong>${snapshot.session.userId}</strong></span>
      <form @submit=${switchWorkspace} aria-label=${t('console.workspace')}>
        <label
          >${t('console.workspace')} <input name="workspace" size="12" .value=${snapshot.session.workspaceId}
        /></label>
        <button type="submit">${t('console.workspace.switch')}</button>
      </form>
      ${
        typeof Notification !== 'undefined' && Notification.permission === 'default'
          ? html`<button type="button" @click=${() => void Notification.requestPermission().then(update)}>
              ${t('console.notify.enable')}
            </button>`
          : nothing
      }
      <button type="button" @click=${signOut}>${t('console.signout')}</button>
    </div>
  </header>`;
}

function conversationPage(snapshot: Snapshot): TemplateResult {
  return html`<main class="layout">
    <aside>
      <section class="panel" aria-labelledby="servers-title">
        <h2 id="servers-title">${t('console.servers.title')}</h2>
        <ul class="servers">
          ${snapshot.servers.map(
            (s) =>
              html`<li data-server=${s.id}>
                <strong>${s.id}</strong>
                <span class="state" data-state=${s.state}>${s.state}</span>
                <span class="muted"
                  >${t(s.trusted ? 'console.servers.summary_trusted' : 'console.servers.summary', { transport: s.transport, tools: s.toolCount })}</span
                >
                ${s.error ? html`<span class="error">${s.error}</span>` : nothing}
              </li>`,
          )}
        </ul>
      </section>
      <section class="panel" aria-labelledby="tools-title">
        <h2 id="tools-title">${t('console.tools.title')}</h2>
        <airlock-tool-list
          .entries=${snapshot.modelTools}
          @airlock-decision-revoke=${(event: DecisionRevokeEvent) =>
            void act(
              () => api('DELETE', `/api/permissions/${event.detail.decisionId}`),
              (m) => (state.notice = m),
            )}
        ></airlock-tool-list>
      </section>
    </aside>
    <div>
      ${chatPanel(snapshot)} ${launcherPanel(snapshot)}
      <section class="panel" aria-labelledby="cards-title">
        <h2 id="cards-title">${t('console.cards.title')}</h2>
        ${state.cards.size === 0 ? html`<p class="hint">${t('console.cards.empty')}</p>` : nothing}
        <ol class="cards">
          ${[...state.cards.values()].map((card) => cardView(snapshot, card))}
        </ol>
      </section>
    </div>
  </main>`;
}

function cardView(snapshot: Snapshot, card: Card): TemplateResult {
  const { invocation } = card;
  const entry =
    snapshot.userTools.find((t) => t.tool.name === invocation.tool) ??
    snapshot.modelTools.find((t) => t.tool.name === invocation.tool);
  const server = snapshot.servers.find((s) => s.id === invocation.serverId);
  const fullText = state.fullTexts.get(invocation.id);
  const active = invocation.state === 'pending' || invocation.state === 'running';
  return html`<li data-invocation=${invocation.id} data-state=${invocation.state}>
    <airlock-tool-card
      .invocation=${invocation}
      .tool=${entry?.tool}
      .server=${server === undefined ? undefined : { id: server.id, trusted: server.trusted }}
      .result=${card.result}
      .progress=${card.progress}
      .fullText=${fullText === '' ? undefined : fullText}
      @airlock-tool-retry=${() =>
        void act(
          () =>
            api('POST', '/api/invocations', {
              tool: invocation.tool,
              args: invocation.args,
              conversation: CONVERSATION,
            }),
          (m) => (state.notice = m),
        )}
    ></airlock-tool-card>
    ${
      active
        ? html`<div class="card-actions">
            <button type="button" data-action="cancel" @click=${() => cancel(invocation.id)}>
              ${t('console.cards.cancel')}
            </button>
          </div>`
        : nothing
    }
  </li>`;
}

function launcherPanel(snapshot: Snapshot): TemplateResult {
  const entry = snapshot.userTools.find((t) => t.tool.name === state.launcherTool);
  const fields = entry === undefined ? [] : launcherFields(entry.tool.inputSchema);
  return html`<section class="panel" aria-labelledby="launcher-title">
    <h2 id="launcher-title">${t('console.launcher.title')}</h2>
    <form class="launcher" @submit=${launch}>
      <label
        >Tool
        <select
          name="tool"
          @change=${(event: Event) => {
            state.launcherTool = (event.currentTarget as HTMLSelectElement).value || undefined;
            state.launcherError = undefined;
            update();
          }}
        >
          <option value="">${t('console.launcher.choose')}</option>
          ${snapshot.userTools.map(
            (option) =>
              html`<option value=${option.tool.name} ?selected=${option.tool.name === state.launcherTool}>
                ${t('console.launcher.option', {
                  tool: option.tool.name,
                  risk: t(`console.risk.${option.risk.tier}`),
                })}
              </option>`,
          )}
        </select></label
      >
      ${
        entry === undefined
          ? nothing
          : html`${entry.tool.description ? html`<p class="hint">${entry.tool.description}</p>` : nothing}
              ${renderLauncherFields(fields)}
              <details>
                <summary>${t('console.launcher.json_title')}</summary>
                <label>${t('console.launcher.json_label')}<textarea name="raw-args" rows="4"></textarea></label>
              </details>
              <button type="submit">${t('console.launcher.submit', { tool: entry.tool.name })}</button>`
      }
      ${state.launcherError ? html`<p class="error" role="alert">${state.launcherError}</p>` : nothing}
    </form>
  </section>`;
}

function chatPanel(snapshot: Snapshot): TemplateResult {
  if (!snapshot.chat.configured) {
    return html`<section class="panel" aria-labelledby="chat-title">
      <h2 id="chat-title">${t('console.chat.title')}</h2>
      <p class="hint">${t('console.chat.not_configured')}</p>
    </section>`;
  }
  return html`<section class="panel" aria-labelledby="chat-title">
    <h2 id="chat-title">${t('console.chat.title')}</h2>
    <ol class="chat-lines" aria-live="polite">
      ${state.chatLines.map(
        (line) =>
          html`<li data-role=${line.role} class=${line.role === 'error' ? 'error' : ''}>
            ${
              line.role === 'error'
                ? nothing
                : html`<strong>${t(line.role === 'user' ? 'console.chat.you' : 'console.chat.model')}:</strong> `
            }<span class="text">${line.text}</span>
          </li>`,
      )}
    </ol>
    <form @submit=${sendChat}>
      <label for="chat-message">${t('console.chat.message')}</label>
      <textarea id="chat-message" name="message" rows="2"></textarea>
      <button type="submit">${t('console.chat.send')}</button>
      ${state.chatError ? html`<p class="error" role="alert">${state.chatError}</p>` : nothing}
    </form>
  </section>`;
}

function permissionsPage(snapshot: Snapshot): TemplateResult {
  const date = (ms: number | null) =>
    ms === null ? t('console.permissions.never') : new Date(ms).toLocaleString(locale);
  return html`<main class="single">
    <h2>${t('console.permissions.title')}</h2>
    ${
      snapshot.decisions.length === 0
        ? html`<p class="hint">
            No stored decisions in this workspace. "Allow always" and "Deny always" are kept here.
          </p>`
        : html`<table>
            <thead>
              <tr>
                <th>${t('console.permissions.tool')}</th>
                <th>${t('console.permissions.server')}</th>
                <th>${t('console.permissions.decision')}</th>
                <th>${t('console.permissions.risk')}</th>
                <th>${t('console.permissions.granted')}</th>
                <th>${t('console.permissions.expires')}</th>
                <th><span class="sr-only">${t('console.permissions.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              ${snapshot.decisions.map(
                (d) =>
                  html`<tr data-decision=${d.id}>
                    <td>
                      ${d.tool}${d.argsHash ? html` <small class="hint">${t('console.permissions.args_only')}</small>` : nothing}
                    </td>
                    <td>${d.serverId}</td>
                    <td>${t(d.effect === 'allow' ? 'console.permissions.allow' : 'console.permissions.deny')}</td>
                    <td>${d.riskTier}</td>
                    <td>${date(d.grantedAt)}</td>
                    <td>
                      ${date(d.expiresAt)}
                      <form
                        @submit=${(event: SubmitEvent) => {
                          event.preventDefault();
                          const input = (event.currentTarget as HTMLFormElement).elements.namedItem(
                            'expires',
                          ) as HTMLInputElement;
                          const expiresAt = input.value === '' ? null : new Date(`${input.value}T23:59:59`).getTime();
                          void act(
                            () => api('PATCH', `/api/permissions/${d.id}`, { expiresAt }),
                            (m) => (state.notice = m),
                          );
                        }}
                      >
                        <label>${t('console.permissions.new_expiry')} <input name="expires" type="date" /></label>
                        <button type="submit">${t('console.permissions.set_expiry')}</button>
                      </form>
                    </td>
                    <td>
                      <button
                        type="button"
                        @click=${() =>
                          void act(
                            () => api('DELETE', `/api/permissions/${d.id}`),
                            (m) => (state.notice = m),
                          )}
                      >
                        ${t('console.permissions.revoke')}
                      </button>
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </main>`;
}

function auditPage(): TemplateResult {
  if (state.audit === undefined) {
    state.audit = { events: [] };
    void loadAudit();
  }
  const audit = state.audit;
  const verification = audit.verification;
  return html`<main class="single">
    <h2>${t('console.audit.title')}</h2>
    <form
      @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        void loadAudit(event.currentTarget as HTMLFormElement);
      }}
    >
      <label
        >${t('console.audit.type')}
        <select name="type">
          <option value="">${t('console.audit.any')}</option>
          <option value="invocation.transition">invocation.transition</option>
          <option value="permission.decision">permission.decision</option>
          <option value="elicitation">elicitation</option>
        </select></label
      >
      <label>${t('console.audit.tool')} <input name="tool" size="16" /></label>
      <label>${t('console.audit.server')} <input name="serverId" size="10" /></label>
      <button type="submit">${t('console.audit.filter')}</button>
      <a href="/api/audit/export" download>${t('console.audit.export')}</a>
      <button type="button" data-action="verify" @click=${verifyAudit}>${t('console.audit.verify')}</button>
    </form>
    ${
      verification === undefined
        ? nothing
        : html`<p role="status" class=${verification.ok ? '' : 'error'} data-verified=${String(verification.ok)}>
            ${
              verification.ok
                ? t('console.audit.intact')
                : t('console.audit.broken', { seq: verification.seq, problem: verification.problem })
            }
          </p>`
    }
    ${audit.error ? html`<p class="error" role="alert">${audit.error}</p>` : nothing}
    <table>
      <thead>
        <tr>
          <th>#</th>
          <th>${t('console.audit.time')}</th>
          <th>${t('console.audit.type')}</th>
          <th>${t('console.audit.server_tool')}</th>
          <th>${t('console.audit.risk')}</th>
          <th>${t('console.audit.details')}</th>
        </tr>
      </thead>
      <tbody>
        ${audit.events.map(
          (e) =>
            html`<tr>
              <td>${e.seq}</td>
              <td>${new Date(e.at).toLocaleString(locale)}</td>
              <td>${e.type}</td>
              <td>${e.serverId ?? ''}${e.tool ? ` / ${e.tool}` : ''}</td>
              <td>${e.riskTier ?? ''}</td>
              <td><code>${JSON.stringify(e.data)}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </main>`;
}

// ---- Start ------------------------------------------------------------------------------------------------------

window.addEventListener('hashchange', () => {
  if (route() === 'audit') state.audit = undefined;
  if (route() === 'permissions') void refresh();
  update();
});
render(html`<p class="loading">${t('console.loading')}</p>`, root);
api('GET', '/api/session').then(
  () => connect(),
  (error: unknown) => {
    if (error instanceof ApiFailure && error.status === 401) void showSignIn();
    else root.textContent = t('console.unreachable', { error: String(error) });
  },
);
