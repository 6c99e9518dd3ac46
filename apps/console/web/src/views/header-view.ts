import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { conversationHash } from '../conversation.js';
import { t } from '../i18n.js';
import type { PageRoute } from '../route.js';
import type { Snapshot } from '../../../src/wire.js';

/** The top bar: the pages, who is signed in, the workspace switch, notifications and sign-out. */
export function headerView(snapshot: Snapshot, route: PageRoute, actions: Actions): TemplateResult {
  const link = (hash: string, label: string, name: PageRoute) =>
    html`<a href=${hash} aria-current=${route === name ? 'page' : 'false'}>${label}</a>`;
  return html`<header class="top">
    <h1><span class="brand-name">Airlock</span></h1>
    <nav aria-label=${t('console.nav.label')}>
      ${link(conversationHash(snapshot.conversationId), t('console.nav.conversation'), 'conversation')}
      ${link('#/permissions', t('console.nav.permissions'), 'permissions')}
      ${link('#/audit', t('console.nav.audit'), 'audit')}
      ${link('#/resources', t('console.nav.resources'), 'resources')}
    </nav>
    <div class="who">
      <span
        ><span class="signed-in-label">${t('console.signed_in_as')}</span>
        <strong>${snapshot.session.userId}</strong></span
      >
      <form @submit=${actions.switchWorkspace} aria-label=${t('console.workspace')}>
        <label
          ><span class="label-text">${t('console.workspace')}</span>
          <input name="workspace" size="12" .value=${snapshot.session.workspaceId}
        /></label>
        <wa-button type="submit" size="small" variant="brand" class="switch"
          ><svg
            slot="start"
            class="arrow"
            viewBox="0 0 16 16"
            width="16"
            height="16"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
            stroke-linejoin="round"
            aria-hidden="true"
          >
            <path d="M2.5 8h10M9 4.5 12.5 8 9 11.5" /></svg
          ><span class="switch-label">${t('console.workspace.switch')}</span></wa-button
        >
      </form>
      ${
        typeof Notification !== 'undefined' && Notification.permission === 'default'
          ? html`<wa-button
              class="notify"
              size="small"
              appearance="outlined"
              @click=${() => actions.enableNotifications()}
            >
              <svg
                slot="start"
                class="bell"
                viewBox="0 0 16 16"
                width="16"
                height="16"
                fill="currentColor"
                aria-hidden="true"
              >
                <path
                  d="M8 1.5a4.5 4.5 0 0 0-4.5 4.5v3L2 11.5h12L12.5 9V6A4.5 4.5 0 0 0 8 1.5zM6.5 13a1.5 1.5 0 0 0 3 0"
                />
              </svg>
              <span class="notify-label">${t('console.notify.enable')}</span>
            </wa-button>`
          : nothing
      }
      <wa-button class="signout" size="small" appearance="outlined" @click=${actions.signOut}
        >${t('console.signout')}</wa-button
      >
    </div>
  </header>`;
}
