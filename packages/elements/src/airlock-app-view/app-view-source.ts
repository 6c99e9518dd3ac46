import type { ViewCsp } from './view-document.js';

/** One view as the host read it (`host.apps.view`): its HTML and the origins its resource declares. */
export interface AppViewSource {
  readonly serverId: string;
  readonly tool: string;
  readonly uri: string;
  readonly html: string;
  readonly csp?: ViewCsp;
  /**
   * The browser features its resource declares (`_meta.ui.permissions`: camera, microphone, geolocation,
   * clipboardWrite). The user is asked once per view; only those allowed reach the frames' `allow`.
   */
  readonly permissions?: readonly string[];
}

/** The view's frame: same-origin access never; scripts only; no popups, forms, top navigation or downloads. */
export const VIEW_SANDBOX = 'allow-scripts';

/** What this host answers to each request a view may make and does not grant, told to the view as the error. */
export const REFUSALS = {
  'ui/open-link': 'this page does not open links from views; show the address as text for the user to copy',
  'ui/message': 'this page has no conversation to take messages from views (no model is configured)',
  'ui/update-model-context': "this host does not add a view's context to the model's yet",
  'ui/download-file': 'this host does not save files from views',
  'resources/read': 'this host does not read resources for views',
  'resources/list': 'this host does not list resources for views',
  'resources/templates/list': 'this host does not list resource templates for views',
  'prompts/list': 'this host does not list prompts for views',
  'sampling/createMessage': 'this host does not offer sampling to views',
} as const;
