import type { ElicitationAnswerEvent, ElicitationDoneEvent, PermissionDecideEvent } from '@airlock/elements';
import type {
  AuditEvent,
  ElicitationRequest,
  InvocationRecord,
  PermissionRequest,
  StoredDecision,
} from '@airlock/core';
import { api, ApiFailure } from './api-client.js';
import { createChatActions } from './chat-actions.js';
import type { ChatActions } from './chat-actions.js';
import { launcherFields, readLauncherArgs } from './launcher-form.js';
import type { PageStore } from './page-store.js';
import { retryKey } from './reduce.js';
import { signInToServer, signOutOfServer } from './server-sign-in.js';
import { initialState } from './state.js';
import { currentConversation } from './conversation.js';
import type { PageState, Verification } from './state.js';
import type { Card, ServerView, ToolEntry } from '../../src/wire.js';

/** The event stream as actions need it: signing in opens it, signing out closes it. */
export interface StreamControl {
  readonly connect: () => void;
  readonly close: () => void;
}

/** What the page's buttons and forms do: each calls the console's API and shows what came of it. */
export interface Actions {
  /** Answers the permission question on the sheet. */
  readonly decide: (event: PermissionDecideEvent, request: PermissionRequest) => void;
  /** Answers a server's question (a form's fields are checked by the console; their problems come back). */
  readonly answer: (event: ElicitationAnswerEvent, request: ElicitationRequest) => void;
  /** "Done, retry" for a URL flow the user opened. */
  readonly urlDone: (event: ElicitationDoneEvent) => void;
  /** Picks the tool the launcher fills in. */
  readonly chooseLauncherTool: (tool: string | undefined) => void;
  /** Calls the launcher's tool with the arguments filled in. */
  readonly launch: (event: SubmitEvent) => void;
  /**
   * Calls a card's tool again with the same arguments, through the permission gate as usual. The host records a new
   * call (it cannot run an ended one again under its old id); the page shows it in the same card.
   */
  readonly retry: (invocation: InvocationRecord) => void;
  /** Filters the tools panel by a search text. */
  readonly filterTools: (query: string) => void;
  /** The tools panel or the servers panel was opened or closed. */
  readonly toggleTools: (event: Event) => void;
  readonly toggleServers: (event: Event) => void;
  /** Hides the notice of a question that went away unanswered. */
  readonly dismissClosedQuestion: (id: string) => void;
  readonly cancel: (invocationId: string) => void;
  /** The chat: send, stop, and the conversations. */
  readonly chat: ChatActions;
  readonly switchWorkspace: (event: SubmitEvent) => void;
  readonly revokeDecision: (decisionId: string) => void;
  /** Signs the user in to a remote server in a popup, or out of it. */
  readonly signInServer: (serverId: string) => void;
  readonly signOutServer: (serverId: string) => void;
  /** Connects a server that is down afresh (this user's own connection on a server per user). */
  readonly reconnectServer: (serverId: string) => void;
  /** A new expiry for a stored decision, in milliseconds, or null for never. */
  readonly setExpiry: (decisionId: string, expiresAt: number | null) => void;
  /** Reads the audit trail, filtered by the form's fields when a form is given. */
  readonly loadAudit: (form?: HTMLFormElement) => Promise<void>;
  readonly verifyAudit: () => void;
  readonly showSignIn: (error?: string) => Promise<void>;
  readonly submitSignIn: (event: SubmitEvent) => void;
  readonly signOut: () => void;
  readonly dismissNotice: () => void;
  readonly enableNotifications: () => void;
  /** Refetches what changes without a card: servers, tools (with risk and stored decisions) and decisions. */
  readonly refresh: () => Promise<void>;
  /** A result cut for the screen: fetches the whole text once, so "copy" copies all of it. */
  readonly loadFullText: (card: Card) => void;
  /** "Show all" on a block the host cut for the screen: fetches that block's whole text for its card. */
  readonly showAll: (invocationId: string, block: number) => void;
}

const withNotice = (state: PageState, message: string): PageState => ({ ...state, notice: message });

/** The page's actions over its store; `stream` is the event stream they open and close. */
export function createActions({ store, stream }: { store: PageStore; stream: StreamControl }): Actions {
  /** Runs one request; on failure the state shows why. Either way the page is drawn after. */
  async function act(
    action: () => Promise<unknown>,
    onError: (state: PageState, message: string, error: unknown) => PageState,
  ): Promise<void> {
    try {
      await action();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      store.update((state) => onError(state, message, error));
    }
    store.render();
  }

  const actions: Actions = {
    chat: createChatActions(store),

    decide(event, request) {
      store.update((s) => ({ ...s, permissionRequests: s.permissionRequests.filter((r) => r !== request) }));
      void act(
        () => api('POST', `/api/permission-requests/${request.invocationId}`, { decision: event.decision }),
        withNotice,
      );
    },

    answer(event, request) {
      if (store.state.urlFlows.includes(request)) {
        // Giving up on a page already opened: stop showing it; the call ends by its own rules.
        store.update((s) => ({ ...s, urlFlows: s.urlFlows.filter((q) => q !== request) }));
        store.render();
        return;
      }
      void act(
        () => api('POST', `/api/elicitations/${request.id}`, { answer: event.answer }),
        (state, message, error) => {
          // The API names each field's problem; the dialog shows them and the question stays open.
          const errors = error instanceof ApiFailure ? error.body['errors'] : undefined;
          if (state.questions.includes(request) && typeof errors === 'object' && errors !== null) {
            const byField = errors as Record<string, string>;
            return { ...state, questions: state.questions.map((q) => (q === request ? { ...q, errors: byField } : q)) };
          }
          return withNotice(state, message);
        },
      );
    },

    urlDone(event) {
      store.update((s) => ({ ...s, urlFlows: s.urlFlows.filter((q) => q.id !== event.requestId) }));
      void act(() => api('POST', `/api/elicitations/${event.requestId}/done`, {}), withNotice);
    },

    chooseLauncherTool(tool) {
      store.update((s) => ({ ...s, launcherTool: tool, launcherError: undefined }));
      store.render();
    },

    launch(event) {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const entry = store.state.snapshot?.userTools.find((t) => t.tool.name === store.state.launcherTool);
      if (entry === undefined) return;
      store.update((s) => ({ ...s, launcherError: undefined }));
      void act(
        async () => {
          const args = readLauncherArgs(form, launcherFields(entry.tool.inputSchema));
          await api('POST', '/api/invocations', { tool: entry.tool.name, args, conversation: currentConversation() });
        },
        (state, message) => ({ ...state, launcherError: message }),
      );
    },

    retry(invocation) {
      const slot = store.state.retries.get(invocation.id) ?? invocation.id;
      const wanted = { slot, tool: invocation.tool, args: retryKey(invocation.args) };
      store.update((s) => ({ ...s, retrying: [...s.retrying, wanted] }));
      void act(
        async () => {
          const { invocationId } = await api<{ invocationId: string }>('POST', '/api/invocations', {
            tool: invocation.tool,
            args: invocation.args,
            conversation: currentConversation(),
          });
          // The stream may have shown the new call already (and matched it); if not, it joins the card now.
          store.update((s) =>
            s.retries.has(invocationId)
              ? s
              : {
                  ...s,
                  retries: new Map(s.retries).set(invocationId, slot),
                  retrying: s.retrying.filter((r) => r !== wanted),
                },
          );
        },
        (state, message) => {
          // The card went to "Running…" on the press; a fresh copy of its call takes it back to what it was.
          const shown = state.cards.get(invocation.id);
          const cards =
            shown === undefined
              ? state.cards
              : new Map(state.cards).set(invocation.id, { ...shown, invocation: { ...shown.invocation } });
          return { ...withNotice(state, message), cards, retrying: state.retrying.filter((r) => r !== wanted) };
        },
      );
    },

    filterTools(query) {
      store.update((s) => ({ ...s, toolFilter: query }));
      store.render();
    },

    toggleTools(event) {
      const open = (event.currentTarget as HTMLDetailsElement).open;
      store.update((s) => ({ ...s, toolsOpen: open }));
    },

    toggleServers(event) {
      const open = (event.currentTarget as HTMLDetailsElement).open;
      store.update((s) => ({ ...s, serversOpen: open }));
    },

    dismissClosedQuestion(id) {
      store.update((s) => ({ ...s, closedQuestions: s.closedQuestions.filter((q) => q.id !== id) }));
      store.render();
    },

    cancel(invocationId) {
      void act(
        () => api('POST', `/api/invocations/${invocationId}/cancel?conversation=${currentConversation()}`, {}),
        withNotice,
      );
    },

    switchWorkspace(event) {
      event.preventDefault();
      const input = (event.currentTarget as HTMLFormElement).elements.namedItem('workspace') as HTMLInputElement;
      void act(async () => {
        await api('POST', '/api/session/workspace', { workspaceId: input.value.trim() });
        store.update((s) => ({ ...s, audit: undefined }));
      }, withNotice);
    },

    signInServer(serverId) {
      void act(() => signInToServer(serverId), withNotice);
    },

    reconnectServer(serverId) {
      void act(async () => {
        await api('POST', `/api/servers/${encodeURIComponent(serverId)}/restart`);
        await actions.refresh();
      }, withNotice);
    },

    signOutServer(serverId) {
      void act(async () => {
        await signOutOfServer(serverId);
        await actions.refresh();
      }, withNotice);
    },

    revokeDecision(decisionId) {
      void act(() => api('DELETE', `/api/permissions/${decisionId}`), withNotice);
    },

    setExpiry(decisionId, expiresAt) {
      void act(() => api('PATCH', `/api/permissions/${decisionId}`, { expiresAt }), withNotice);
    },

    async loadAudit(form) {
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
          store.update((s) => ({ ...s, audit: { events } }));
        },
        (state, message) => ({ ...state, audit: { events: [], error: message } }),
      );
    },

    verifyAudit() {
      void act(
        async () => {
          const verification = await api<Verification>('POST', '/api/audit/verify', {});
          store.update((s) => ({ ...s, audit: { events: s.audit?.events ?? [], verification } }));
        },
        (state, message) => ({ ...state, audit: { events: state.audit?.events ?? [], error: message } }),
      );
    },

    async showSignIn(error) {
      stream.close();
      const { mode } = await api<{ mode: 'local' | 'token' }>('GET', '/api/auth');
      store.update(() => ({ ...initialState(), signIn: { mode, ...(error === undefined ? {} : { error }) } }));
      store.render();
    },

    submitSignIn(event) {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
      const body: Record<string, string> = { workspaceId: value('workspace') || 'default' };
      if (store.state.signIn?.mode === 'token') body['token'] = value('token');
      else body['userId'] = value('user');
      api('POST', '/api/session', body).then(
        () => {
          store.update((s) => ({ ...s, signIn: undefined }));
          stream.connect();
        },
        (error: unknown) => void actions.showSignIn(error instanceof Error ? error.message : String(error)),
      );
    },

    signOut() {
      void api('DELETE', '/api/session').finally(() => {
        stream.close();
        void actions.showSignIn();
      });
    },

    dismissNotice() {
      store.update((s) => ({ ...s, notice: undefined }));
      store.render();
    },

    enableNotifications() {
      void Notification.requestPermission().then(() => store.render());
    },

    async refresh() {
      const snapshot = store.state.snapshot;
      if (snapshot === undefined) return;
      const [servers, modelTools, userTools, decisions] = await Promise.all([
        api<ServerView[]>('GET', '/api/servers'),
        api<ToolEntry[]>('GET', '/api/tools?audience=model'),
        api<ToolEntry[]>('GET', '/api/tools?audience=user'),
        api<StoredDecision[]>('GET', '/api/permissions'),
      ]);
      store.update((s) => ({ ...s, snapshot: { ...snapshot, servers, modelTools, userTools, decisions } }));
      store.render();
    },

    loadFullText(card) {
      const id = card.invocation.id;
      const cut = card.result?.blocks.some((b) => 'truncated' in b && b.truncated === true) ?? false;
      if (!cut || store.state.fullTexts.has(id) || store.state.expiredResults.has(id)) return;
      const fullTexts = (change: (texts: Map<string, string>) => void) =>
        store.update((s) => {
          const texts = new Map(s.fullTexts);
          change(texts);
          return { ...s, fullTexts: texts };
        });
      fullTexts((texts) => texts.set(id, ''));
      api<{ text: string }>('GET', `/api/invocations/${id}/full?conversation=${currentConversation()}`).then(
        ({ text }) => {
          fullTexts((texts) => texts.set(id, text));
          store.render();
        },
        (error: unknown) => {
          fullTexts((texts) => texts.delete(id));
          // Retention removed the whole text: the card says when, instead of offering a text that is gone.
          const expiredAt = error instanceof ApiFailure ? error.body['expiredAt'] : undefined;
          if (error instanceof ApiFailure && error.code === 'result_expired' && typeof expiredAt === 'number') {
            store.update((s) => ({ ...s, expiredResults: new Map(s.expiredResults).set(id, expiredAt) }));
            store.render();
          }
        },
      );
    },

    showAll(invocationId, block) {
      const path = `/api/invocations/${invocationId}/blocks/${block}?conversation=${currentConversation()}`;
      // A failure is the card's to show (its button comes back with the reason); asking again clears it.
      const failure = (reason: string | undefined) =>
        store.update((s) => {
          const blocks = new Map(s.wholeTextErrors.get(invocationId));
          if (reason === undefined) blocks.delete(block);
          else blocks.set(block, reason);
          return { ...s, wholeTextErrors: new Map(s.wholeTextErrors).set(invocationId, blocks) };
        });
      failure(undefined);
      store.render();
      api<{ text: string }>('GET', path).then(
        ({ text }) => {
          store.update((s) => {
            const blocks = new Map(s.wholeTexts.get(invocationId)).set(block, text);
            return { ...s, wholeTexts: new Map(s.wholeTexts).set(invocationId, blocks) };
          });
          store.render();
        },
        (error: unknown) => {
          failure(error instanceof Error ? error.message : String(error));
          store.render();
        },
      );
    },
  };
  return actions;
}
