import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { AuditEvent, AuditEventType } from '@airlock/core';
import type { Actions } from '../actions.js';
import { callLabel } from '../audit-call-label.js';
import { auditGroups } from '../audit-groups.js';
import { auditSummary } from '../audit-summary.js';
import { CONSOLE_MESSAGES } from '../console-messages.js';
import type { ConsoleMessageKey } from '../console-messages.js';
import { locale, plural, t } from '../i18n.js';
import type { PageState } from '../state.js';

const hasKey = (key: string): key is ConsoleMessageKey => Object.hasOwn(CONSOLE_MESSAGES['en-US'], key);

/** Every type the log keeps, each with its name in the page's words, in the order the filter offers them. */
const AUDIT_KINDS: Record<AuditEventType, ConsoleMessageKey> = {
  'invocation.transition': 'console.audit.kind.invocation.transition',
  'permission.decision': 'console.audit.kind.permission.decision',
  elicitation: 'console.audit.kind.elicitation',
  'resource.read': 'console.audit.kind.resource.read',
  'app.link_opened': 'console.audit.kind.app.link_opened',
  'app.message_sent': 'console.audit.kind.app.message_sent',
  'app.call_refused': 'console.audit.kind.app.call_refused',
  'auth.sign_in': 'console.audit.kind.auth.sign_in',
  'auth.refresh_failed': 'console.audit.kind.auth.refresh_failed',
  'auth.sign_out': 'console.audit.kind.auth.sign_out',
  'server.switched': 'console.audit.kind.server.switched',
  'tool.switched': 'console.audit.kind.tool.switched',
  'model.key': 'console.audit.kind.model.key',
  'audit.checkpoint': 'console.audit.kind.audit.checkpoint',
  'retention.sweep': 'console.audit.kind.retention.sweep',
};

/** A value of the log (a type, decision, origin, state) in the page's language; unknown values as they are. */
function word(prefix: string, value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const key = `${prefix}${text}`;
  return hasKey(key) ? t(key) : text;
}

function eventView(event: AuditEvent): TemplateResult {
  const risk = event.riskTier === null ? '' : ` · ${word('console.risk.', event.riskTier)}`;
  return html`<li class="audit-event" data-seq=${event.seq}>
    <span class="muted">#${event.seq}</span>
    <time datetime=${new Date(event.at).toISOString()}>${new Date(event.at).toLocaleString(locale)}</time>
    <span><strong>${word('console.audit.kind.', event.type)}</strong> ${auditSummary(event, word)}${risk}</span>
    <details>
      <summary>${t('console.audit.raw')}</summary>
      <pre>${JSON.stringify(event.data, null, 2)}</pre>
    </details>
  </li>`;
}

/**
 * The audit page: the tenant's events as a log a person can scan (newest first, grouped per call, values in words,
 * the raw JSON wrapped under each), filtered by type, tool and server; the exports; and the chain's check. The page
 * loads its events when it is first shown (see main.ts), so `state.audit` is set whenever this is drawn.
 */
export function auditView(state: PageState, actions: Actions): TemplateResult {
  const audit = state.audit ?? { events: [] };
  const verification = audit.verification;
  const groups = auditGroups(audit.events);
  return html`<main class="single">
    <h2>${t('console.audit.title')}</h2>
    <form
      class="filters"
      @submit=${(event: SubmitEvent) => {
        event.preventDefault();
        void actions.loadAudit(event.currentTarget as HTMLFormElement);
      }}
    >
      <label
        >${t('console.audit.type')}
        <select name="type">
          <option value="">${t('console.audit.any')}</option>
          ${Object.entries(AUDIT_KINDS).map(([type, key]) => html`<option value=${type}>${t(key)}</option>`)}
        </select></label
      >
      <label>${t('console.audit.tool')} <input name="tool" size="16" /></label>
      <label>${t('console.audit.server')} <input name="serverId" size="10" /></label>
      <wa-button type="submit" variant="brand">${t('console.audit.filter')}</wa-button>
      <wa-button appearance="outlined" data-action="verify" @click=${actions.verifyAudit}
        >${t('console.audit.verify')}</wa-button
      >
      <a href="/api/audit/export" download>${t('console.audit.export')}</a>
      <a href="/api/audit/export?format=seed" download data-export="seed" title=${t('console.audit.export_seed_hint')}
        >${t('console.audit.export_seed')}</a
      >
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
    <p class="hint">${t('console.audit.newest_first')} ${plural('console.count.events', audit.events.length)}</p>
    <ol class="audit-groups">
      ${groups.map((group) => {
        const first = group.events[group.events.length - 1]!;
        const where = [first.serverId, first.tool].filter(Boolean).join(' / ');
        return html`<li class="audit-group" data-invocation=${group.invocationId ?? ''}>
          <h3>
            <span>${where || t('console.audit.no_call')}</span>
            ${
              group.invocationId === null
                ? nothing
                : html`<code class="muted">${t('console.audit.call', { id: callLabel(group.invocationId) })}</code>`
            }
            <span class="count">${plural('console.count.events', group.events.length)}</span>
          </h3>
          <ol>
            ${group.events.map(eventView)}
          </ol>
        </li>`;
      })}
    </ol>
  </main>`;
}
