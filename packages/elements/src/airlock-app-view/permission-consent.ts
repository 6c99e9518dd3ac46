import { html } from 'lit';
import type { TemplateResult } from 'lit';
import { msg } from '../shared/localize.js';

/** A browser feature a view's resource may declare (`_meta.ui.permissions`, MCP Apps 2026-01-26). */
export type ViewPermission = 'camera' | 'microphone' | 'geolocation' | 'clipboardWrite';

/** Each feature a view may be granted, with its Permissions Policy name (the frame's `allow`). */
export const VIEW_PERMISSIONS: Readonly<Record<ViewPermission, string>> = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
};

/** The features of a declared list this host knows, each once, in a fixed order; anything else is dropped. */
export function knownPermissions(declared: readonly string[] | undefined): ViewPermission[] {
  const asked = new Set(declared ?? []);
  return (Object.keys(VIEW_PERMISSIONS) as ViewPermission[]).filter((name) => asked.has(name));
}

/** The frame's `allow` attribute for the granted features only ('' when none). */
export function allowAttribute(granted: readonly ViewPermission[]): string {
  return granted.map((name) => VIEW_PERMISSIONS[name]).join('; ');
}

/** The granted features as MCP Apps' `McpUiResourcePermissions` (`{ camera: {} }`). */
export function permissionsObject(granted: readonly ViewPermission[]): Record<string, Record<string, never>> {
  return Object.fromEntries(granted.map((name) => [name, {}]));
}

/** The view a consent is about: its server and its resource. */
export interface ConsentView {
  readonly serverId: string;
  readonly uri: string;
}

/**
 * Where a page keeps the user's answers beyond itself (the console: in its store, so they hold in every tab and on
 * every instance, and can be revoked there). Without one, answers last while the page lives.
 */
export interface ViewConsentKeeper {
  /** The kept answer about the features `asked`: those allowed, or undefined when any of them is unanswered. */
  find(view: ConsentView, asked: readonly ViewPermission[]): Promise<readonly ViewPermission[] | undefined>;
  /** Keeps the user's answer: `granted` allowed, the rest of `asked` refused. */
  keep(view: ConsentView, asked: readonly ViewPermission[], granted: readonly ViewPermission[]): Promise<void>;
}

let keeper: ViewConsentKeeper | undefined;

/**
 * Keeps views' consents with `next` from now on (undefined: in the page only). With a keeper, each view shown asks
 * it first, so an answer given or revoked elsewhere holds here too; a failed read or write leaves the user asked.
 */
export function keepViewConsentsWith(next: ViewConsentKeeper | undefined): void {
  keeper = next;
  answers.clear();
}

/**
 * The user's answers, per view (server, resource and the features it declared) while the page lives and no keeper
 * holds them: a view is asked once, and a second card of the same view is not asked again.
 */
const answers = new Map<string, readonly ViewPermission[]>();

/** Elements waiting for the answer about a view, told when it comes (from any of them, or from the keeper). */
const waiting = new Map<string, Set<(granted: readonly ViewPermission[]) => void>>();

/** Calls `answered` once the user answers about the view of `key`; returns how to stop waiting. */
function onPermissionAnswer(key: string, answered: (granted: readonly ViewPermission[]) => void): () => void {
  const set = waiting.get(key) ?? new Set();
  waiting.set(key, set);
  set.add(answered);
  return () => {
    set.delete(answered);
    if (set.size === 0 && waiting.get(key) === set) waiting.delete(key);
  };
}

/** Keeps the user's answer about a view, and tells every element waiting for it. */
function rememberPermissionAnswer(key: string, granted: readonly ViewPermission[]): void {
  if (keeper === undefined) answers.set(key, granted);
  for (const answered of [...(waiting.get(key) ?? [])]) answered(granted);
}

/** A view's declared features waiting for the user: Allow grants exactly those, Don't allow grants none. */
export interface PendingPermissions {
  readonly asked: readonly ViewPermission[];
  readonly allow: () => void;
  readonly deny: () => void;
}

/**
 * One element's browser features for the view it shows: those granted (its frames' `allow`), or those waiting for
 * the user. A view that declares none is granted none and asks nothing.
 */
export class ViewPermissions {
  /** The features the user allowed this view. */
  granted: readonly ViewPermission[] = [];
  /** The declared features waiting for the user's answer (the view is shown once answered). */
  pending: PendingPermissions | undefined;
  #unlisten: (() => void) | undefined;
  /** The answer that ended the last wait, for the next `settle` (with a keeper nothing else holds it). */
  #given: { readonly key: string; readonly granted: readonly ViewPermission[] } | undefined;

  /**
   * Whether the view's declared features are answered: none declared, or the user answered for this view before.
   * Otherwise they wait for the user, and `answered` is called once the user answers, here or in another element
   * showing the same view (or the keeper finds an answer given elsewhere).
   */
  settle(view: { serverId: string; uri: string; permissions?: readonly string[] }, answered: () => void): boolean {
    // Consumed here only: the element resets its features (stopping the old frame) before it settles again.
    const given = this.#given;
    this.#given = undefined;
    this.reset();
    const asked = knownPermissions(view.permissions);
    const key = `${view.serverId}\n${view.uri}\n${asked.join(',')}`;
    const answer = asked.length === 0 ? [] : given?.key === key ? given.granted : answers.get(key);
    if (answer !== undefined) {
      this.granted = answer;
      return true;
    }
    this.#unlisten = onPermissionAnswer(key, (granted) => {
      this.pending = undefined;
      this.#given = { key, granted };
      answered();
    });
    const about = { serverId: view.serverId, uri: view.uri };
    const decide = (granted: readonly ViewPermission[]) => () => {
      if (this.pending === undefined) return;
      rememberPermissionAnswer(key, granted);
      void keeper?.keep(about, asked, granted).catch(() => undefined);
    };
    const pending = { asked, allow: decide(asked), deny: decide([]) };
    this.pending = pending;
    // An answer kept elsewhere ends the wait of every element showing this view, unless the user answered first.
    keeper?.find(about, asked).then(
      (kept) => {
        if (kept !== undefined && this.pending === pending) rememberPermissionAnswer(key, kept);
      },
      () => undefined,
    );
    return false;
  }

  /** Nothing granted, nothing waiting (the view is gone or replaced). */
  reset(): void {
    this.pending = undefined;
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.granted = [];
  }
}

/** The consent for a view's browser features, in place of the view until the user answers. */
export function renderPermissionConsent(host: HTMLElement, pending: PendingPermissions): TemplateResult {
  const features = pending.asked.map((name) => msg(host, `mcp.app.permission.${name}`)).join(', ');
  return html`<div class="consent" part="permission-consent" role="alertdialog" aria-labelledby="permissions-title">
    <p id="permissions-title" class="consent-title">${msg(host, 'mcp.app.permissions.title', { features })}</p>
    <div class="consent-actions">
      <button type="button" data-permissions="deny" @click=${pending.deny}>
        ${msg(host, 'mcp.app.permissions.deny')}
      </button>
      <button type="button" data-permissions="allow" @click=${pending.allow}>
        ${msg(host, 'mcp.app.permissions.allow')}
      </button>
    </div>
  </div>`;
}
