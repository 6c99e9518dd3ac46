import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { DecisionRevokeEvent } from '@airlock/elements';
import type { Actions } from '../actions.js';
import { plural, t } from '../i18n.js';
import type { PageState } from '../state.js';
import type { Snapshot, ToolEntry } from '../../../src/wire.js';
import './server-panel.js';

/** True when a tool's name, title, server or description holds every word of the query (case-insensitive). */
export function toolMatches(entry: ToolEntry, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const { tool } = entry;
  const server = tool.origin.kind === 'mcp' ? tool.origin.serverId : '';
  const haystack = [tool.name, tool.title ?? '', server, tool.description ?? ''].join(' ').toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/**
 * The side of the conversation page: the servers and the tools the model sees, each a collapsible panel whose
 * summary says how many there are. The tools list is compact and searchable, so 25 tools never stand between a
 * person and what they came to do (on a phone this side comes after the work).
 */
export function sideView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  const query = state.toolFilter ?? '';
  // Until the person opens or closes them, the panels are open on a wide screen and closed on a phone.
  const wide = window.matchMedia('(min-width: 1000px)').matches;
  const tools = snapshot.modelTools.filter((entry) => toolMatches(entry, query));
  return html`<aside class="side">
    <details class="panel" ?open=${state.serversOpen ?? wide} @toggle=${actions.toggleServers}>
      <summary>
        <h2 id="servers-title">${t('console.servers.title')}</h2>
        <span class="count">${plural('console.count.servers', snapshot.servers.length)}</span>
      </summary>
      <ul class="servers" aria-labelledby="servers-title">
        ${snapshot.servers.map(
          (s) =>
            html`<li data-server=${s.id}>
              <strong>${s.id}</strong>
              <span class="state" data-state=${s.state}>${t(`console.servers.state.${s.state}`)}</span>
              <span class="muted"
                >${t(s.trusted ? 'console.servers.summary_trusted' : 'console.servers.summary', {
                  transport: s.transport,
                  tools: plural('console.count.tools', s.toolCount),
                })}</span
              >
              ${
                !s.disabled && (s.state === 'failed' || s.state === 'degraded' || s.state === 'closed')
                  ? html`<button type="button" data-reconnect=${s.id} @click=${() => actions.reconnectServer(s.id)}>
                      ${t('console.servers.reconnect', { server: s.id })}
                    </button>`
                  : nothing
              }
              ${
                s.signsIn && s.state === 'needs_auth'
                  ? html`<button type="button" data-sign-in=${s.id} @click=${() => actions.signInServer(s.id)}>
                      ${t('console.servers.sign_in', { server: s.id })}
                    </button>`
                  : nothing
              }
              ${
                s.signsIn && s.state === 'ready'
                  ? html`<button
                      type="button"
                      class="secondary"
                      data-sign-out=${s.id}
                      @click=${() => actions.signOutServer(s.id)}
                    >
                      ${t('console.servers.sign_out', { server: s.id })}
                    </button>`
                  : nothing
              }
              <console-server-panel
                .server=${s}
                ?admin=${snapshot.session.admin}
                .workspace=${snapshot.session.workspaceId}
                .tools=${snapshot.userTools.filter((e) => e.tool.origin.kind === 'mcp' && e.tool.origin.serverId === s.id)}
              ></console-server-panel>
            </li>`,
        )}
      </ul>
    </details>
    <details
      class="panel tools-panel"
      ?open=${state.toolsOpen ?? (wide || query !== '')}
      @toggle=${actions.toggleTools}
    >
      <summary>
        <h2 id="tools-title">${t('console.tools.title')}</h2>
        <span class="count">${plural('console.count.tools', snapshot.modelTools.length)}</span>
      </summary>
      <div class="tool-search">
        <label for="tool-search">${t('console.tools.search')}</label>
        <input
          id="tool-search"
          type="search"
          autocomplete="off"
          .value=${query}
          @input=${(event: Event) => actions.filterTools((event.currentTarget as HTMLInputElement).value)}
        />
        ${
          query === ''
            ? nothing
            : html`<p class="hint" role="status">
                ${
                  tools.length === 0
                    ? t('console.tools.none_match', { query })
                    : t('console.tools.shown', { shown: tools.length, total: snapshot.modelTools.length })
                }
              </p>`
        }
      </div>
      <!-- A scrolling region a keyboard can reach (and scroll) on a wide screen. -->
      <div class="tool-scroll" tabindex="0" role="region" aria-labelledby="tools-title">
        <airlock-tool-list
          compact
          .entries=${tools}
          @airlock-decision-revoke=${(event: DecisionRevokeEvent) => actions.revokeDecision(event.detail.decisionId)}
        ></airlock-tool-list>
      </div>
    </details>
  </aside>`;
}
