/**
 * A user's answer about a browser feature an MCP Apps view asked for (its resource's `_meta.ui.permissions`:
 * camera, microphone, geolocation, clipboard write), kept per user, workspace, server, view and feature, so it holds
 * in every tab and on every instance until it is revoked.
 */
export interface ViewConsentRecord {
  readonly userId: string;
  readonly workspaceId: string;
  readonly serverId: string;
  /** The view's resource URI (`ui://…`). */
  readonly uri: string;
  /** The feature's name as the view declares it (`camera`, `microphone`, `geolocation`, `clipboardWrite`). */
  readonly permission: string;
  readonly decision: ViewConsentDecision;
  /** When the user answered, in milliseconds. */
  readonly decidedAt: number;
}

/** Whether the user let the view have the feature. */
export type ViewConsentDecision = 'allow' | 'deny';

/** What identifies a consent: one per user, workspace, server, view and feature. */
export type ViewConsentKey = Omit<ViewConsentRecord, 'decision' | 'decidedAt'>;

/** Which of a tenant's consents a read gives: all, or one server's, or one view's. */
export interface ViewConsentFilter {
  readonly serverId?: string;
  readonly uri?: string;
}
