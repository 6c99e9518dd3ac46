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

/**
 * The user's answers, per view (server, resource and the features it declared) while the page lives: a view is asked
 * once, and a second card of the same view is not asked again.
 */
const answers = new Map<string, readonly ViewPermission[]>();

/** Elements waiting for the answer about a view, told when it comes (from any of them). */
const waiting = new Map<string, Set<() => void>>();

/** Calls `answered` once the user answers about the view of `key`; returns how to stop waiting. */
function onPermissionAnswer(key: string, answered: () => void): () => void {
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
  answers.set(key, granted);
  for (const answered of [...(waiting.get(key) ?? [])]) answered();
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

  /**
   * Whether the view's declared features are answered: none declared, or the user answered for this view before.
   * Otherwise they wait for the user, and `answered` is called once the user answers, here or in another element
   * showing the same view.
   */
  settle(view: { serverId: string; uri: string; permissions?: readonly string[] }, answered: () => void): boolean {
    this.reset();
    const asked = knownPermissions(view.permissions);
    const key = `${view.serverId}\n${view.uri}\n${asked.join(',')}`;
    const answer = asked.length === 0 ? [] : answers.get(key);
    if (answer !== undefined) {
      this.granted = answer;
      return true;
    }
    this.#unlisten = onPermissionAnswer(key, () => {
      this.pending = undefined;
      answered();
    });
    const decide = (granted: readonly ViewPermission[]) => () => {
      if (this.pending !== undefined) rememberPermissionAnswer(key, granted);
    };
    this.pending = { asked, allow: decide(asked), deny: decide([]) };
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
