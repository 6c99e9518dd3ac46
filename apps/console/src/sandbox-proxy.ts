import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

/** Where the sandbox proxy page is served on its own listener. */
export const SANDBOX_PROXY_PATH = '/sandbox';

/**
 * The MCP Apps sandbox proxy: a page on another origin than the console (another port), framed by a view's element.
 * It tells its parent it is ready, takes the view's HTML once (`ui/notifications/sandbox-resource-ready`, the policy
 * already in it), renders it in an inner frame with `sandbox="allow-scripts"` only (an opaque origin: no cookies, no
 * storage, no reach into this page or the console's) and relays JSON-RPC messages between the two, nothing else. It
 * answers only its parent and only the inner frame; what the view sends about the sandbox itself is dropped. A view
 * that navigates its own frame away is removed, and nothing more is relayed (the one request that navigation made has
 * left already: a policy cannot stop a frame navigating itself).
 */
const PROXY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Airlock view sandbox</title>
<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}iframe{border:0;width:100%;height:100%;display:block}</style>
</head>
<body>
<script>
(() => {
  const inner = document.createElement('iframe');
  inner.setAttribute('sandbox', 'allow-scripts');
  inner.setAttribute('allow', '');
  inner.setAttribute('referrerpolicy', 'no-referrer');
  inner.title = 'view';
  let parentOrigin = null;
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
    window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-view-left', params: {} }, parentOrigin === null ? '*' : parentOrigin);
  };
  inner.addEventListener('load', () => {
    loads += 1;
    if (loads >= 2) leave();
  });
  window.addEventListener('message', (event) => {
    if (gone) return;
    const data = event.data;
    if (event.source === window.parent) {
      if (parentOrigin === null) parentOrigin = event.origin;
      if (event.origin !== parentOrigin) return;
      if (data && data.method === 'ui/notifications/sandbox-resource-ready') {
        if (loaded) return;
        loaded = true;
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
      window.parent.postMessage(data, parentOrigin === null ? '*' : parentOrigin);
    }
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
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

/** Serves the sandbox proxy page on its own port (0: any free one) of `hostname`. */
export async function startSandboxProxy(hostname: string, port: number): Promise<RunningSandboxProxy> {
  const app = new Hono();
  app.get(SANDBOX_PROXY_PATH, (c) => {
    c.header('cache-control', 'no-store');
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    return c.html(PROXY_HTML);
  });
  app.notFound((c) => c.text('not found', 404));
  const server = serve({ fetch: app.fetch, hostname, port });
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

/** The proxy's URL as a page reached at `pageHost` (host header: name and port) frames it: same name, its own port. */
export function sandboxProxyUrl(pageHost: string, proxyPort: number, protocol = 'http:'): string {
  const name = pageHost.startsWith('[') ? pageHost.slice(0, pageHost.indexOf(']') + 1) : pageHost.split(':')[0]!;
  return `${protocol}//${name}:${proxyPort}${SANDBOX_PROXY_PATH}`;
}
