import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { t } from '../i18n.js';
import type { SignInState } from '../state.js';
import { submitOnEnter } from '../submit-on-enter.js';

/** The sign-in form: a name on a local console, a token on a shared one; a workspace either way. */
export function signInView(signIn: SignInState, actions: Actions): TemplateResult {
  return html`<main class="signin">
    <h1>${t('console.title')}</h1>
    <form @submit=${actions.submitSignIn} @keydown=${submitOnEnter}>
      ${
        signIn.mode === 'token'
          ? html`<label
              >${t('console.signin.token')}
              <input name="token" type="password" autocomplete="current-password" required
            /></label>`
          : html`<label
              >${t('console.signin.name')}
              <input name="user" autocomplete="username" required pattern="[A-Za-z0-9][A-Za-z0-9._@\\-]{0,63}"
            /></label>`
      }
      <label>${t('console.workspace')} <input name="workspace" value="default" /></label>
      <wa-button type="submit" variant="brand">${t('console.signin.submit')}</wa-button>
      ${signIn.error ? html`<p class="error" role="alert">${signIn.error}</p>` : nothing}
    </form>
  </main>`;
}
