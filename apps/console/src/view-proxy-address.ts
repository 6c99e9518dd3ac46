import { LOOPBACK_HOSTS } from './console-config.js';
import type { ConsoleConfig } from './console-config.js';
import { sandboxProxyUrl } from './sandbox-proxy.js';

/** Where pages find the views' sandbox proxy, and which pages may frame it. */
export interface ViewProxyAddress {
  /** The console's origin as the page that sent a request sees it: `publicUrl`'s when set, else the request's. */
  pageOrigin(request: { readonly url: string; readonly host: string | undefined }): string;
  /** The sandbox proxy page's URL for a page of `pageOrigin` (that origin named in it, for the proxy to check). */
  proxyUrl(pageOrigin: string): string;
  /** Whether a page of `origin` may frame the proxy: only the console's own origins. */
  mayFrame(origin: string): boolean;
}

/** A host name as it goes in a URL (an IPv6 address in brackets). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** `host:port` with the scheme's default port written out, as `allowedHosts` may name it. */
function withPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/**
 * The views' sandbox proxy as the console's pages reach it. Its URL: `console.viewProxyUrl` when set (its own host
 * name behind a TLS proxy), else the host name of `console.publicUrl` (or, without one, of the page's own Host header)
 * with the proxy's port. Who may frame it: `publicUrl`'s origin when set; else, on loopback, the loopback names with
 * the console's port; else the `allowedHosts`; else (no list: the page answers any name) any http(s) origin.
 */
export function viewProxyAddress(
  config: Pick<ConsoleConfig, 'host' | 'publicUrl' | 'viewProxyUrl' | 'allowedHosts'>,
  ports: { readonly console: () => number; readonly proxy: () => number },
): ViewProxyAddress {
  const publicOrigin = config.publicUrl === undefined ? undefined : new URL(config.publicUrl).origin;
  const fallback = () => `http://${urlHost(config.host)}:${ports.console()}`;
  return {
    pageOrigin({ url, host }) {
      if (publicOrigin !== undefined) return publicOrigin;
      try {
        return new URL(`${new URL(url).protocol}//${host || `${urlHost(config.host)}:${ports.console()}`}`).origin;
      } catch {
        return fallback();
      }
    },
    proxyUrl(pageOrigin) {
      const page = new URL(publicOrigin ?? pageOrigin);
      const base = config.viewProxyUrl ?? `${page.protocol}//${page.hostname}:${ports.proxy()}`;
      return sandboxProxyUrl(base, pageOrigin);
    },
    mayFrame(origin) {
      if (publicOrigin !== undefined) return origin === publicOrigin;
      const url = new URL(origin);
      if (LOOPBACK_HOSTS.has(config.host)) {
        const port = ports.console();
        return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(origin);
      }
      if (config.allowedHosts !== undefined) {
        return config.allowedHosts.includes(url.host) || config.allowedHosts.includes(withPort(url));
      }
      return url.protocol === 'http:' || url.protocol === 'https:';
    },
  };
}
