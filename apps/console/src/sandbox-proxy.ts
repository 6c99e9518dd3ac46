import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/** Where the sandbox proxy page is served on its own listener. */
export const SANDBOX_PROXY_PATH = '/sandbox';
/** The query parameter naming the origin of the page that frames the proxy (the console's). */
export const PARENT_PARAM = 'parent';

/** The browser features a view may be granted, by the name its resource declares them, as `allow` names them. */
export const VIEW_FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const;

/**
 * The MCP Apps sandbox proxy: a page on another origin than the console (another port), framed by a view's element.
 * It is served for one parent origin, the console's (named in the URL and checked by the console's rule): only that
 * origin may frame it (`frame-ancestors`), and it takes messages only from that origin and sends only to it.
 * It tells its parent it is ready, takes the view's HTML once (`ui/notifications/sandbox-resource-ready`, the policy
 * already in it), renders it in an inner frame with `sandbox="allow-scripts"` only (an opaque origin: no cookies, no
 * storage, no reach into this page or the console's) and relays JSON-RPC messages between the two, nothing else. It
 * answers only its parent and only the inner frame; what the view sends about the sandbox itself is dropped. A view
 * that navigates its own frame away is removed, and nothing more is relayed (the one request that navigation made has
 * left already: a policy cannot stop a frame navigating itself). The inner frame is allowed the browser features the
 * parent grants (`permissions`, those the view declared and the user allowed), and no other; the proxy's own frame
 * carries the same list, so the view can never get more than its element gave.
 */
const proxyHtml = (parent: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Airlock view sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head>
<body>
<script>
(() => {
  const PARENT = ${JSON.stringify(parent).replace(/</g, '\\u003c')};
  const FEATURES = ${JSON.stringify(VIEW_FEATURES)};
  const inner = document.createElement('iframe');
  inner.setAttribute('sandbox', 'allow-scripts');
  inner.setAttribute('allow', '');
  inner.setAttribute('referrerpolicy', 'no-referrer');
  inner.title = 'view';
  let loaded = false;
  // A view that navigates its own frame (a policy cannot stop that) leaves the document it was given, and its policy:
  // from the second load on, the frame is removed and nothing is relayed either way.
  // The view's document tells the proxy when it is left (a first script of its own, right after its policy): the
  // proxy stops relaying then, before a document it navigated to can send anything; a second load is a backstop.
  const GUARD = '<script>addEventListener("pagehide",function(){parent.postMessage({jsonrpc:"2.0",method:"ui/notifications/sandbox-view-leaving",params:{}},"*")})<\\/script>';
  const guarded = (html) => {
    const at = html.search(/<meta http-equiv="Content-Security-Policy"[^>]*>/i);
    if (at === -1) return GUARD + html;
    const end = html.indexOf('>', at) + 1;
    return html.slice(0, end) + GUARD + html.slice(end);
  };
  let loads = 0;
  let gone = false;
  const leave = () => {
    if (gone) return;
    gone = true;
    inner.remove();
    window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-view-left', params: {} }, PARENT);
  };
  inner.addEventListener('load', () => {
    loads += 1;
    if (loads >= 2) leave();
  });
  window.addEventListener('message', (event) => {
    if (gone) return;
    const data = event.data;
    if (event.source === window.parent) {
      if (event.origin !== PARENT) return;
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        if (loaded) return;
        loaded = true;
        const asked = (data.params && data.params.permissions) || {};
        const allow = Object.keys(FEATURES).filter((name) => Object.prototype.hasOwnProperty.call(asked, name) && asked[name]);
        inner.setAttribute('allow', allow.map((name) => FEATURES[name] + ' *').join('; '));
        inner.srcdoc = guarded(String((data.params && data.params.html) || ''));
        document.body.appendChild(inner);
        return;
      }
      if (loaded && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
    } else if (loaded && event.source === inner.contentWindow) {
      // Only the opaque origin of the document given: a document the frame was navigated to elsewhere is not relayed.
      if (event.origin !== 'null') return leave();
      if (data && data.method === 'ui/notifications/sandbox-view-leaving') return leave();
      if (data && typeof data.method === 'string' && data.method.startsWith('ui/notifications/sandbox-')) return;
      window.parent.postMessage(data, PARENT);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, PARENT);
})();
</script>
</body>
</html>
`;

/** A listening sandbox proxy: its port (the origin is the page's host name with it), and how to stop it. */
export interface RunningSandboxProxy {
  readonly port: number;
  close(): Promise<void>;
}

/** Who may frame the proxy. */
export interface SandboxProxyOptions {
  /** Whether a page of this origin (the console's, as the proxy URL names it) may frame the proxy. */
  readonly mayFrame: (origin: string) => boolean;
}

/** An http(s) origin exactly as `URL` writes it, or undefined. */
function exactOrigin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Serves the sandbox proxy page on its own port (0: any free one) of `hostname`, at
 * `/sandbox?parent=<the framing page's origin>`: a parent that is not an origin `mayFrame` accepts is refused (403),
 * and the page is served with `frame-ancestors` that origin only.
 */
export async function startSandboxProxy(
  hostname: string,
  port: number,
  options: SandboxProxyOptions,
): Promise<RunningSandboxProxy> {
  const app = new Hono();
  app.get(SANDBOX_PROXY_PATH, (c) => {
    c.header('cache-control', 'no-store');
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    const parent = exactOrigin(c.req.query(PARENT_PARAM));
    if (parent === undefined) {
      return c.text(`the view sandbox needs ?${PARENT_PARAM}= naming the origin of the page that frames it`, 400);
    }
    if (!options.mayFrame(parent)) return c.text(`${parent} may not frame this view sandbox`, 403);
    c.header('content-security-policy', `frame-ancestors ${parent}`);
    return c.html(proxyHtml(parent));
  });
  app.notFound((c) => c.text('not found', 404));
  // Like the console, it leaves the process's own `Response` and `Request` in place.
  const server = serve({ fetch: app.fetch, hostname, port, overrideGlobalObjects: false });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: Error) =>
      reject(new Error(`the view sandbox proxy cannot listen on ${hostname}:${port}: ${error.message}`)),
    );
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

/** The proxy page's URL under `base` (its origin), for a page of origin `parent` to frame. */
export function sandboxProxyUrl(base: string, parent: string): string {
  return `${new URL(base).origin}${SANDBOX_PROXY_PATH}?${PARENT_PARAM}=${encodeURIComponent(parent)}`;
}
