import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { locale, t } from '../i18n.js';
import type { Snapshot } from '../types.js';

/** The permissions page: the workspace's stored decisions, each with a new expiry and a revoke. */
export function permissionsView(snapshot: Snapshot, actions: Actions): TemplateResult {
  const date = (ms: number | null) =>
    ms === null ? t('console.permissions.never') : new Date(ms).toLocaleString(locale);
  return html`<main class="single">
    <h2>${t('console.permissions.title')}</h2>
    ${
      snapshot.decisions.length === 0
        ? html`<p class="hint">
            No stored decisions in this workspace. "Allow always" and "Deny always" are kept here.
          </p>`
        : html`<table>
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
                      ${d.tool}${d.argsHash ? html` <small class="hint">${t('console.permissions.args_only')}</small>` : nothing}
                    </td>
                    <td>${d.serverId}</td>
                    <td>${t(d.effect === 'allow' ? 'console.permissions.allow' : 'console.permissions.deny')}</td>
                    <td>${d.riskTier}</td>
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
                        <button type="submit">${t('console.permissions.set_expiry')}</button>
                      </form>
                    </td>
                    <td>
                      <button type="button" @click=${() => actions.revokeDecision(d.id)}>
                        ${t('console.permissions.revoke')}
                      </button>
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </main>`;
}
