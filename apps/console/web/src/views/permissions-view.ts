import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { locale, t } from '../i18n.js';
import type { Snapshot } from '../../../src/wire.js';

/** The title a server gave the tool (its name when it gave none, or when the tool is gone from the catalog). */
function toolTitle(snapshot: Snapshot, serverId: string, name: string): string {
  const entry = [...snapshot.modelTools, ...snapshot.userTools].find(({ tool }) =>
    tool.origin.kind === 'mcp'
      ? tool.origin.serverId === serverId && tool.origin.originalName === name
      : tool.name === name,
  );
  return entry?.tool.title ?? name;
}

/** The server by name, with whether it is trusted when it is still configured. */
function serverCell(snapshot: Snapshot, serverId: string): TemplateResult {
  const server = snapshot.servers.find((s) => s.id === serverId);
  return html`<strong>${serverId}</strong>${
      server?.trusted ? html` <small class="hint">(${t('console.servers.trusted')})</small>` : nothing
    }`;
}

/** The decision in words: allow always, deny always, or allow in one named conversation. */
function decisionWord(d: Snapshot['decisions'][number]): string {
  if (d.effect === 'deny') return t('console.permissions.deny');
  return d.conversationId === undefined
    ? t('console.permissions.allow')
    : t('console.permissions.allow_conversation', { conversation: d.conversationId });
}

const riskWord = (tier: string): string =>
  tier === 'low' || tier === 'medium' || tier === 'high' ? t(`console.risk.${tier}`) : tier;

/**
 * The permissions page: the workspace's stored decisions (an allow for one conversation names it), each naming the
 * tool by its title (and name) and its server, with a new expiry and a revoke.
 */
export function permissionsView(snapshot: Snapshot, actions: Actions): TemplateResult {
  const date = (ms: number | null) =>
    ms === null ? t('console.permissions.never') : new Date(ms).toLocaleString(locale);
  return html`<main class="single">
    <h2>${t('console.permissions.title')}</h2>
    ${
      snapshot.decisions.length === 0
        ? html`<p class="hint">${t('console.permissions.empty')}</p>`
        : html`<div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>${t('console.permissions.tool')}</th>
                  <th>${t('console.permissions.server')}</th>
                  <th>${t('console.permissions.decision')}</th>
                  <th>${t('console.permissions.risk')}</th>
                  <th>${t('console.permissions.granted')}</th>
                  <th>${t('console.permissions.expires')}</th>
                  <th><span class="sr-only">${t('console.permissions.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                ${snapshot.decisions.map(
                  (d) =>
                    html`<tr data-decision=${d.id}>
                      <td>
                        <strong>${toolTitle(snapshot, d.serverId, d.tool)}</strong><br /><code class="muted"
                          >${d.tool}</code
                        >
                        ${d.argsHash ? html` <small class="hint">${t('console.permissions.args_only')}</small>` : nothing}
                      </td>
                      <td>${serverCell(snapshot, d.serverId)}</td>
                      <td>${decisionWord(d)}</td>
                      <td>${riskWord(d.riskTier)}</td>
                      <td>${date(d.grantedAt)}</td>
                      <td>
                        ${date(d.expiresAt)}
                        <form
                          @submit=${(event: SubmitEvent) => {
                            event.preventDefault();
                            const input = (event.currentTarget as HTMLFormElement).elements.namedItem(
                              'expires',
                            ) as HTMLInputElement;
                            const expiresAt = input.value === '' ? null : new Date(`${input.value}T23:59:59`).getTime();
                            actions.setExpiry(d.id, expiresAt);
                          }}
                        >
                          <label>${t('console.permissions.new_expiry')} <input name="expires" type="date" /></label>
                          <wa-button type="submit" size="small" appearance="outlined"
                            >${t('console.permissions.set_expiry')}</wa-button
                          >
                        </form>
                      </td>
                      <td>
                        <wa-button
                          size="small"
                          variant="danger"
                          appearance="outlined"
                          @click=${() => actions.revokeDecision(d.id)}
                        >
                          ${t('console.permissions.revoke')}
                        </wa-button>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
  </main>`;
}
