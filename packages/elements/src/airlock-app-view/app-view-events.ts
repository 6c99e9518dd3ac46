/** A tool result as a view receives it (MCP `CallToolResult`, loosely typed: the page passes the host's own). */
export interface AppCallResult {
  readonly content: readonly Record<string, unknown>[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** What `airlock-app-call` carries: the call the view asked for, and how the page answers it. */
export interface AppCallDetail {
  /** The server whose view asked: the page calls as `{ kind: 'app', serverId }`, so the host holds it to that server. */
  readonly serverId: string;
  /** The tool name exactly as the view sent it (its server's own name for the tool). */
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /**
   * The page's answer: a promise of the result the view gets. Rejecting (or never calling this) gives the view a
   * JSON-RPC error with the message, so a refusal is explained to it.
   */
  respondWith(result: Promise<AppCallResult>): void;
}

/**
 * `airlock-app-call`: a view asked to call a tool (`tools/call`). The element never calls anything itself: the page
 * routes the call through the host's one path as caller app (visibility, the permission gate, history, audit).
 */
export class AppCallEvent extends Event {
  static readonly eventName = 'airlock-app-call';
  readonly detail: AppCallDetail;
  #answer: Promise<AppCallResult> | undefined;

  constructor(detail: Omit<AppCallDetail, 'respondWith'>) {
    super(AppCallEvent.eventName, { bubbles: true, composed: true });
    this.detail = { ...detail, respondWith: (result) => void (this.#answer = result) };
  }

  /** The page's answer, or undefined when no one answered. */
  get answer(): Promise<AppCallResult> | undefined {
    return this.#answer;
  }
}

/** What `airlock-app-refused` carries: a request of the view this host does not grant, and the reason given to it. */
export interface AppRefusedDetail {
  readonly method: string;
  readonly reason: string;
}

/** `airlock-app-refused`: the view asked for something refused (a link, a message, a display mode); told to it. */
export class AppRefusedEvent extends Event {
  static readonly eventName = 'airlock-app-refused';
  readonly detail: AppRefusedDetail;

  constructor(detail: AppRefusedDetail) {
    super(AppRefusedEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-app-call': AppCallEvent;
    'airlock-app-refused': AppRefusedEvent;
  }
}

/** How the page describes a link before the user consents: what the host's URL inspection gives (`inspectUrl`). */
export interface AppLinkInspection {
  readonly url: string;
  readonly host: string;
  readonly displayHost: string;
  readonly warnings: readonly ('not_https' | 'punycode' | 'credentials_in_url' | 'ip_address')[];
  readonly scheme: string;
  readonly https: boolean;
  readonly punycode: boolean;
}

/** What `airlock-app-open-link` carries: the link a view asked to open, and how the page describes it. */
export interface AppOpenLinkDetail {
  readonly serverId: string;
  readonly tool: string;
  readonly url: string;
  /** The page's inspection of the URL; rejecting refuses the link with that reason. Unanswered: refused. */
  respondWith(inspection: Promise<AppLinkInspection>): void;
}

/**
 * `airlock-app-open-link`: a view asked to open a link. Once the page describes it, the element shows the whole
 * address and opens it in a new tab (noopener, never in the frame) only if the user presses Open; then it fires
 * `airlock-app-link-opened` for the page to record.
 */
export class AppOpenLinkEvent extends Event {
  static readonly eventName = 'airlock-app-open-link';
  readonly detail: AppOpenLinkDetail;
  #answer: Promise<AppLinkInspection> | undefined;

  constructor(detail: Omit<AppOpenLinkDetail, 'respondWith'>) {
    super(AppOpenLinkEvent.eventName, { bubbles: true, composed: true });
    this.detail = { ...detail, respondWith: (inspection) => void (this.#answer = inspection) };
  }

  get answer(): Promise<AppLinkInspection> | undefined {
    return this.#answer;
  }
}

/** `airlock-app-link-opened`: the user consented and the link was opened in a new tab. */
export class AppLinkOpenedEvent extends Event {
  static readonly eventName = 'airlock-app-link-opened';
  readonly detail: { readonly serverId: string; readonly tool: string; readonly url: string };

  constructor(detail: { serverId: string; tool: string; url: string }) {
    super(AppLinkOpenedEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-app-open-link': AppOpenLinkEvent;
    'airlock-app-link-opened': AppLinkOpenedEvent;
  }
}

/** What the page kept of a view's context for the model: the text, and whether it was cut to the bound. */
export interface AppModelContext {
  readonly text: string;
  readonly truncated: boolean;
}

/** What `airlock-app-model-context` carries: what a view asks to add to the model's context, and the page's answer. */
export interface AppModelContextDetail {
  readonly serverId: string;
  readonly tool: string;
  readonly content: readonly unknown[];
  readonly structuredContent?: unknown;
  /** What the page kept; rejecting refuses the update with that reason. Unanswered: refused. */
  respondWith(kept: Promise<AppModelContext>): void;
}

/**
 * `airlock-app-model-context`: a view asked to update the model's context (`ui/update-model-context`). The page keeps
 * it for the conversation; the element shows what was kept under the view.
 */
export class AppModelContextEvent extends Event {
  static readonly eventName = 'airlock-app-model-context';
  readonly detail: AppModelContextDetail;
  #answer: Promise<AppModelContext> | undefined;

  constructor(detail: Omit<AppModelContextDetail, 'respondWith'>) {
    super(AppModelContextEvent.eventName, { bubbles: true, composed: true });
    this.detail = { ...detail, respondWith: (kept) => void (this.#answer = kept) };
  }

  get answer(): Promise<AppModelContext> | undefined {
    return this.#answer;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-app-model-context': AppModelContextEvent;
  }
}

/** What `airlock-app-message` carries: a view's message the user consented to send, and the page's answer. */
export interface AppMessageDetail {
  readonly serverId: string;
  readonly tool: string;
  readonly text: string;
  /** Settles once the page has put it into the conversation; rejecting tells the view why it was not. */
  respondWith(sent: Promise<unknown>): void;
}

/** `airlock-app-message`: the user pressed Send on a view's message (`ui/message`); the page sends it. */
export class AppMessageEvent extends Event {
  static readonly eventName = 'airlock-app-message';
  readonly detail: AppMessageDetail;
  #answer: Promise<unknown> | undefined;

  constructor(detail: Omit<AppMessageDetail, 'respondWith'>) {
    super(AppMessageEvent.eventName, { bubbles: true, composed: true });
    this.detail = { ...detail, respondWith: (sent) => void (this.#answer = sent) };
  }

  get answer(): Promise<unknown> | undefined {
    return this.#answer;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-app-message': AppMessageEvent;
  }
}
