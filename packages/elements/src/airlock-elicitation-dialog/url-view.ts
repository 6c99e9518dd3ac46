import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { UrlInspection } from '@airlock/core';
import { msg } from '../shared/localize.js';

/**
 * The URL split around its host, so the host can be emphasised inside the full address: the host is looked for
 * after the scheme and after any `user:password@`, so a look-alike user name is never the part that stands out.
 * Undefined when the address does not spell the host as parsed (a Unicode host sent raw): the site line still
 * shows it.
 */
export function splitAtHost(url: string, host: string): [string, string, string] | undefined {
  if (host === '') return undefined;
  const slashes = url.indexOf('//');
  const authorityStart = slashes < 0 ? 0 : slashes + 2;
  const rest = url.slice(authorityStart);
  const authorityEnd = rest.search(/[/?#\\]/);
  const authority = authorityEnd < 0 ? rest : rest.slice(0, authorityEnd);
  const hostStart = authorityStart + authority.lastIndexOf('@') + 1;
  const at = url.toLowerCase().indexOf(host.toLowerCase(), hostStart);
  if (at !== hostStart) return undefined;
  return [url.slice(0, at), url.slice(at, at + host.length), url.slice(at + host.length)];
}

/**
 * URL mode's body: the full address as text (never a link, never fetched), the site emphasised (the Unicode name,
 * and the raw punycode host beside it when they differ), and a warning for each odd thing about the address.
 */
export function renderUrl(host: HTMLElement, url: UrlInspection): TemplateResult {
  const parts = splitAtHost(url.url, url.host);
  return html`<div class="site" part="site">
      <span class="muted">${msg(host, 'mcp.elicitation.url_mode.host')}:</span>
      <mark part="host">${url.displayHost}</mark>
      ${url.displayHost === url.host ? nothing : html`<code class="raw-host" part="raw-host">${url.host}</code>`}
    </div>
    <p class="url" part="url">
      ${parts === undefined ? url.url : html`${parts[0]}<strong>${parts[1]}</strong>${parts[2]}`}
    </p>
    ${
      url.warnings.length === 0
        ? nothing
        : html`<div class="warnings" part="warnings">
            <p class="warning-title">
              <span aria-hidden="true">⚠ </span>${msg(host, 'mcp.elicitation.url_mode.warning_title')}
            </p>
            <ul>
              ${url.warnings.map((code) => html`<li>${msg(host, `mcp.elicitation.url_mode.warning.${code}`)}</li>`)}
            </ul>
          </div>`
    }`;
}
