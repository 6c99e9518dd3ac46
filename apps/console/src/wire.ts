// What the console's API and event stream send, shared by the server and the page (types only: no Node, no DOM).
import type {
  ConfigInput,
  ElicitationRequest,
  InvocationRecord,
  PermissionRequest,
  RiskAssessment,
  ScreenPayload,
  ServerInfo,
  StoredDecision,
  Tool,
  ToolProgress,
} from '@airlock/core';

/** A server as a tenant sees it: its state; its command line or URL (`origin`) only when they are an administrator. */
export type ServerView = Pick<
  ServerInfo,
  | 'id'
  | 'state'
  | 'transport'
  | 'trusted'
  | 'toolCount'
  | 'error'
  | 'retryAt'
  | 'disabled'
  | 'resourceCount'
  | 'promptCount'
  | 'protocolVersion'
  | 'isolation'
  | 'signsIn'
  | 'authChallenge'
  | 'about'
> &
  Partial<Pick<ServerInfo, 'origin'>>;

/** One card as the page draws it: the call, its screen payload once finished, its latest progress. */
export interface Card {
  readonly invocation: InvocationRecord;
  readonly result?: ScreenPayload;
  readonly progress?: ToolProgress;
  /** When the call's task began (its handle's `createdAt`), while the task is open: the card counts from it. */
  readonly taskStartedAt?: number;
}

/** A tool as the page lists and launches it (sent as JSON, so without `run`), its risk and the stored decision. */
export interface ToolEntry {
  readonly tool: Omit<Tool, 'run'>;
  readonly risk: RiskAssessment;
  readonly decision?: StoredDecision;
}

/**
 * One line of a conversation as the page shows it: the user's message, the model's reply (markdown, streamed into
 * it), a call the model made (`invocationId`: the page shows its card there), an error, or where the user stopped
 * the turn.
 */
export interface ChatLine {
  /** Its place in the conversation, from 1. */
  readonly id: number;
  readonly conversationId: string;
  readonly role: 'user' | 'assistant' | 'call' | 'error' | 'stopped';
  readonly text: string;
  readonly invocationId?: string;
  readonly at: number;
}

/** One MCP Apps view's share of the model's context: what its last `ui/update-model-context` said, as text. */
export interface ViewContext {
  readonly serverId: string;
  readonly tool: string;
  readonly text: string;
  readonly truncated: boolean;
}

/** A conversation as the list shows it. */
export interface ConversationView {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
}

/** The first event of every tab's stream: everything the page draws, and every question waiting for its tenant. */
export interface Snapshot {
  /** Who the tab is signed in as; `admin`: an administrator (server logs, switches, command lines). */
  readonly session: { readonly userId: string; readonly workspaceId: string; readonly admin: boolean };
  readonly conversationId: string;
  readonly servers: ServerView[];
  readonly modelTools: ToolEntry[];
  readonly userTools: ToolEntry[];
  readonly decisions: StoredDecision[];
  readonly cards: Card[];
  readonly permissionRequests: PermissionRequest[];
  readonly elicitations: ElicitationRequest[];
  /** URL flows the user opened that still wait for the server (or for "done, retry"). */
  readonly urlFlows: ElicitationRequest[];
  readonly chat: {
    readonly configured: boolean;
    readonly busy: boolean;
    readonly lines: ChatLine[];
    /** The tenant's kept conversations, most recently updated first. */
    readonly conversations: ConversationView[];
    /** The models the page may choose from, the default first (none without a chat). */
    readonly models: readonly { readonly id: string; readonly label: string }[];
  };
}

/** One of a server's inputs as the panel shows it: what it is, whether it has a value, and whose value it is. */
export interface InputView {
  readonly id: string;
  readonly type: ConfigInput['type'];
  readonly description?: string;
  readonly password: boolean;
  readonly options?: readonly string[];
  readonly set: boolean;
  /** True when one value serves several users (a shared or per-workspace connection), which administrators set. */
  readonly shared: boolean;
}

/** A model whose users may keep their own key, as the page sees it: never the key, only whether one is kept. */
export interface ModelKeyView {
  /** The model's id in the chat (its place in the list: "0" is the default). */
  readonly id: string;
  readonly label: string;
  /** The host (and port) of the endpoint the key is sent to; models at one endpoint share the key. */
  readonly endpoint: string;
  /** Whether this user keeps a key of their own for the endpoint. */
  readonly kept: boolean;
  /** Whether the environment gives a key, used when the user keeps none. */
  readonly fromEnvironment: boolean;
}
