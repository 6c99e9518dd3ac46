import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { locale, t } from '../i18n.js';
import type { PageState } from '../state.js';

/**
 * The audit page: the tenant's events, filtered by type, tool and server; the export; and the chain's check. The
 * page loads its events when it is first shown (see main.ts), so `state.audit` is set whenever this is drawn.
 */
export function auditView(state: PageState, actions: Actions): TemplateResult {
  const audit = state.audit ?? { events: [] };
  const verification = audit.verification;
  return html`<main class="single">
    <h2>${t('console.audit.title')}</h2>
    <form
      @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        void actions.loadAudit(event.currentTarget as HTMLFormElement);
      }}
    >
      <label
        >${t('console.audit.type')}
        <select name="type">
          <option value="">${t('console.audit.any')}</option>
          <option value="invocation.transition">invocation.transition</option>
          <option value="permission.decision">permission.decision</option>
          <option value="elicitation">elicitation</option>
        </select></label
      >
      <label>${t('console.audit.tool')} <input name="tool" size="16" /></label>
      <label>${t('console.audit.server')} <input name="serverId" size="10" /></label>
      <button type="submit">${t('console.audit.filter')}</button>
      <a href="/api/audit/export" download>${t('console.audit.export')}</a>
      <a href="/api/audit/export?format=seed" download data-export="seed" title=${t('console.audit.export_seed_hint')}
        >${t('console.audit.export_seed')}</a
      >
      <button type="button" data-action="verify" @click=${actions.verifyAudit}>${t('console.audit.verify')}</button>
    </form>
    ${
      verification === undefined
        ? nothing
        : html`<p role="status" class=${verification.ok ? '' : 'error'} data-verified=${String(verification.ok)}>
            ${
              verification.ok
                ? t('console.audit.intact')
                : t('console.audit.broken', { seq: verification.seq, problem: verification.problem })
            }
          </p>`
    }
    ${audit.error ? html`<p class="error" role="alert">${audit.error}</p>` : nothing}
    <table>
      <thead>
        <tr>
          <th>#</th>
          <th>${t('console.audit.time')}</th>
          <th>${t('console.audit.type')}</th>
          <th>${t('console.audit.server_tool')}</th>
          <th>${t('console.audit.risk')}</th>
          <th>${t('console.audit.details')}</th>
        </tr>
      </thead>
      <tbody>
        ${audit.events.map(
          (e) =>
            html`<tr>
              <td>${e.seq}</td>
              <td>${new Date(e.at).toLocaleString(locale)}</td>
              <td>${e.type}</td>
              <td>${e.serverId ?? ''}${e.tool ? ` / ${e.tool}` : ''}</td>
              <td>${e.riskTier ?? ''}</td>
              <td><code>${JSON.stringify(e.data)}</code></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </main>`;
}
