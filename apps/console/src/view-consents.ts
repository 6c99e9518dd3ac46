import { systemClock } from '@airlock/core';
import type { Clock, HostStore, StoreWrite, ViewConsentDecision, ViewConsentRecord } from '@airlock/core';
import type { Tenant } from '@airlock/web-kit';

/** The browser features a view may ask for (MCP Apps' `_meta.ui.permissions`), as the page's element names them. */
export const VIEW_FEATURES = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const;

/** A consent as the page reads it: the tenant's own, so without its user and workspace. */
export type ViewConsentView = Omit<ViewConsentRecord, 'userId' | 'workspaceId'>;

/** Which view a consent is about. */
export interface ConsentedView {
  readonly serverId: string;
  readonly uri: string;
}

/**
 * Views' browser-permission consents, kept in the host's store per user, workspace, server, view and feature: an
 * answer given in one tab holds in every other and on every instance sharing the store, and a revoke on any of them
 * holds for the next view shown anywhere.
 */
export class ViewConsents {
  readonly #store: HostStore;
  readonly #clock: Clock;

  constructor(options: { readonly store: HostStore; readonly clock?: Clock }) {
    this.#store = options.store;
    this.#clock = options.clock ?? systemClock;
  }

  /** The tenant's consents, of one server or one view when named, in key order. */
  async list(tenant: Tenant, filter: Partial<ConsentedView> = {}): Promise<ViewConsentView[]> {
    const records = await this.#store.listViewConsents(
      { userId: tenant.userId, workspaceId: tenant.workspaceId },
      {
        ...(filter.serverId === undefined ? {} : { serverId: filter.serverId }),
        ...(filter.uri === undefined ? {} : { uri: filter.uri }),
      },
    );
    return records.map(({ userId: _u, workspaceId: _w, ...consent }) => consent);
  }

  /** Keeps the user's answer for each feature named, all in one write; returns the view's consents now. */
  async decide(
    tenant: Tenant,
    view: ConsentedView,
    decisions: Readonly<Partial<Record<(typeof VIEW_FEATURES)[number], ViewConsentDecision>>>,
  ): Promise<ViewConsentView[]> {
    const decidedAt = this.#clock.now();
    const writes: StoreWrite[] = Object.entries(decisions).map(([permission, decision]) => ({
      kind: 'viewConsent.put',
      record: { userId: tenant.userId, workspaceId: tenant.workspaceId, ...view, permission, decision, decidedAt },
    }));
    if (writes.length > 0) await this.#store.write(writes);
    return this.list(tenant, view);
  }

  /** Forgets the answers about the view: one feature's, or (none named) every feature's. */
  async revoke(tenant: Tenant, view: ConsentedView, permission?: string): Promise<ViewConsentView[]> {
    const features = permission === undefined ? VIEW_FEATURES : [permission];
    const writes: StoreWrite[] = features.map((name) => ({
      kind: 'viewConsent.delete',
      key: { userId: tenant.userId, workspaceId: tenant.workspaceId, ...view, permission: name },
    }));
    await this.#store.write(writes);
    return this.list(tenant, view);
  }
}
