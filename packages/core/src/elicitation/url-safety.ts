import { domainToUnicode } from 'node:url';

/** What a person must see before consenting to open a URL a server sent: all of it, the host, and what is odd. */
export interface UrlInspection {
  /** The URL exactly as the server sent it: shown whole, never shortened. */
  readonly url: string;
  /** The host as sent (ASCII, punycode where the name is international). */
  readonly host: string;
  /** The host as a person would read it (Unicode); differs from `host` for punycode names. */
  readonly displayHost: string;
  readonly scheme: string;
  readonly https: boolean;
  readonly punycode: boolean;
  /** Warning codes for the surface: `not_https`, `punycode`, `credentials_in_url`, `ip_address`. */
  readonly warnings: readonly UrlWarning[];
}

export type UrlWarning = 'not_https' | 'punycode' | 'credentials_in_url' | 'ip_address';

/**
 * Inspects a URL-mode elicitation's URL without fetching it. Only http(s) URLs are acceptable at all (a
 * `javascript:` or `file:` URL is refused); plain http, punycode hosts, embedded credentials and bare IP addresses
 * are flagged for the surface to warn about.
 */
export function inspectUrl(url: unknown): { ok: true; inspection: UrlInspection } | { ok: false; reason: string } {
  if (typeof url !== 'string' || url.length === 0) return { ok: false, reason: 'the request has no URL' };
  if (url.length > 8_192) return { ok: false, reason: 'the URL is longer than 8192 characters' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `not a valid URL: ${url.slice(0, 200)}` };
  }
  const scheme = parsed.protocol.replace(/:$/, '');
  if (scheme !== 'https' && scheme !== 'http') {
    return { ok: false, reason: `only http and https URLs can be opened, not ${scheme}:` };
  }
  const host = parsed.hostname;
  const punycode = host.split('.').some((label) => label.startsWith('xn--'));
  const warnings: UrlWarning[] = [];
  if (scheme !== 'https') warnings.push('not_https');
  if (punycode) warnings.push('punycode');
  if (parsed.username !== '' || parsed.password !== '') warnings.push('credentials_in_url');
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[')) warnings.push('ip_address');
  return {
    ok: true,
    inspection: {
      url,
      host,
      displayHost: punycode ? domainToUnicode(host) || host : host,
      scheme,
      https: scheme === 'https',
      punycode,
      warnings,
    },
  };
}
