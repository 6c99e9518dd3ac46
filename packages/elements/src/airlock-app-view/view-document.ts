import { WEBRTC_GUARD } from './webrtc-guard.js';

/** The origins a view declared in its resource's `_meta.ui.csp`, as the host read them (already checked origins). */
export interface ViewCsp {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

/** Only `scheme://host[:port]` (with an optional `*.` subdomain wildcard) ever reaches the policy. */
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d{1,5})?$/;

function sources(list: readonly string[] | undefined, base: readonly string[] = []): string {
  const all = [...base, ...(list ?? []).filter((origin) => ORIGIN.test(origin))];
  return all.length === 0 ? "'none'" : all.join(' ');
}

/**
 * The Content-Security-Policy of a view: nothing beyond what its resource declares. Inline script and style run (a
 * view is one HTML document); network, resources and frames reach only the declared origins; no plugins, no form
 * posts, no base URL elsewhere. Declared entries that are not plain origins are dropped, never widened.
 */
export function viewCsp(csp: ViewCsp | undefined): string {
  const resources = csp?.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${sources(resources, ["'unsafe-inline'"])}`,
    `style-src ${sources(resources, ["'unsafe-inline'"])}`,
    `img-src ${sources(resources, ['data:', 'blob:'])}`,
    `font-src ${sources(resources, ['data:'])}`,
    `media-src ${sources(resources, ['data:', 'blob:'])}`,
    `connect-src ${sources(csp?.connectDomains)}`,
    `frame-src ${sources(csp?.frameDomains)}`,
    `base-uri ${sources(csp?.baseUriDomains)}`,
    "object-src 'none'",
    "form-action 'none'",
    // The directive that governs WebRTC, where a browser enforces it (Chromium 156 does not, and logs that it is
    // unknown): `connect-src` does not cover peer connections.
    "webrtc 'block'",
  ].join('; ');
}

/** A doctype, after any leading comments and blanks: the policy goes right after it, before anything that can run. */
const LEAD = /^(\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>)/i;

/**
 * The view's HTML with its policy as the first element of the document (right after the doctype, so the page keeps
 * standards mode and no markup of the view comes before it), then the WebRTC guard. A policy the view adds itself can
 * only narrow this one.
 */
export function viewDocument(html: string, csp: ViewCsp | undefined): string {
  const policy = viewCsp(csp).replace(/"/g, '&quot;');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">${WEBRTC_GUARD}`;
  const lead = LEAD.exec(html);
  if (lead === null) return `<!doctype html>${meta}${html}`;
  return `${lead[1]}${meta}${html.slice(lead[1]!.length)}`;
}
