/** What `airlock-tool-retry` carries: the invocation the user asked to run again. */
export interface ToolRetryDetail {
  readonly invocationId: string;
}

/** What `airlock-tool-copy` carries: the exact, full text placed on the clipboard. */
export interface ToolCopyDetail {
  readonly text: string;
}

/**
 * `airlock-tool-retry`: the user pressed Retry on a failed call. The card does not run anything itself; the host
 * starts a new call (and feeds the card its states) when it handles this event.
 */
export class ToolRetryEvent extends Event {
  static readonly eventName = 'airlock-tool-retry';
  readonly detail: ToolRetryDetail;

  constructor(detail: ToolRetryDetail) {
    super(ToolRetryEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/**
 * `airlock-tool-copy`: the user copied a value (a block, the whole result or the arguments). The card writes it to
 * `navigator.clipboard` as well unless the host cancels the event (`preventDefault()`) to copy by itself.
 */
export class ToolCopyEvent extends Event {
  static readonly eventName = 'airlock-tool-copy';
  readonly detail: ToolCopyDetail;

  constructor(detail: ToolCopyDetail) {
    super(ToolCopyEvent.eventName, { bubbles: true, composed: true, cancelable: true });
    this.detail = detail;
  }
}

/** What `airlock-tool-cancel` carries: the call the user asked to stop. */
export interface ToolCancelDetail {
  readonly invocationId: string;
}

/**
 * `airlock-tool-cancel`: the user pressed "Cancel call" on a waiting or running call (shown when the card is
 * `cancellable`). The card stops nothing itself; the host aborts the call and feeds the card its cancelled state.
 */
export class ToolCancelEvent extends Event {
  static readonly eventName = 'airlock-tool-cancel';
  readonly detail: ToolCancelDetail;

  constructor(detail: ToolCancelDetail) {
    super(ToolCancelEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/** What `airlock-tool-resource-open` carries: the linked resource, and the server of the call that linked it. */
export interface ToolResourceOpenDetail {
  readonly uri: string;
  readonly serverId: string | null;
}

/**
 * `airlock-tool-resource-open`: the user pressed a result's resource link. The card fetches nothing itself (a link is
 * a server's claim); the host reads the resource through its own path, as the user, and shows it.
 */
export class ToolResourceOpenEvent extends Event {
  static readonly eventName = 'airlock-tool-resource-open';
  readonly detail: ToolResourceOpenDetail;

  constructor(detail: ToolResourceOpenDetail) {
    super(ToolResourceOpenEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

/** What `airlock-tool-show-all` carries: the call, and which block (0-based index) the user wants whole. */
export interface ToolShowAllDetail {
  readonly invocationId: string;
  readonly block: number;
}

/**
 * `airlock-tool-show-all`: the user pressed "Show all" on a text the host cut for the screen. The card holds only the
 * screen payload; the host reads the block's whole text behind the result's handle and sets it in `wholeTexts`.
 */
export class ToolShowAllEvent extends Event {
  static readonly eventName = 'airlock-tool-show-all';
  readonly detail: ToolShowAllDetail;

  constructor(detail: ToolShowAllDetail) {
    super(ToolShowAllEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'airlock-tool-resource-open': ToolResourceOpenEvent;
    'airlock-tool-cancel': ToolCancelEvent;
    'airlock-tool-retry': ToolRetryEvent;
    'airlock-tool-copy': ToolCopyEvent;
    'airlock-tool-show-all': ToolShowAllEvent;
  }
}
