import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ElicitationAnswerEvent, PermissionDecideEvent } from '@airlock/elements';
import type { Actions } from '../actions.js';
import { t } from '../i18n.js';
import type { PageRoute } from '../route.js';
import type { ClosedQuestion, Notice, PageState } from '../state.js';
import type { Snapshot } from '../../../src/wire.js';
import { auditView } from './audit-view.js';
import { conversationView } from './conversation-view.js';
import { headerView } from './header-view.js';
import { permissionsView } from './permissions-view.js';
import './resources-page.js';
import { signInView } from './sign-in-view.js';

const noticeText = (notice: Notice): string => (typeof notice === 'string' ? notice : t(notice.key, notice.params));

/** The title of a tool by its host-unique name, for the question dialog's heading. */
function toolTitle(snapshot: Snapshot, name: string): string | undefined {
  return [...snapshot.userTools, ...snapshot.modelTools].find((entry) => entry.tool.name === name)?.tool.title;
}

const CLOSED_KEYS = {
  timeout: 'console.question_closed.timeout',
  server_cancelled: 'console.question_closed.server_cancelled',
  call_ended: 'console.question_closed.call_ended',
} as const;

/** The notice a question leaves when it goes away unanswered (withdrawn, timed out, its call ended). */
function closedQuestionView(question: ClosedQuestion, actions: Actions): TemplateResult {
  const key =
    question.end in CLOSED_KEYS
      ? CLOSED_KEYS[question.end as keyof typeof CLOSED_KEYS]
      : 'console.question_closed.other';
  return html`<wa-callout
    variant="warning"
    class="single notice-box"
    role="status"
    data-closed-question=${question.end}
  >
    <span>${t(key, { server: question.serverId, tool: question.tool })}</span>
    <wa-button size="small" appearance="outlined" @click=${() => actions.dismissClosedQuestion(question.id)}
      >${t('console.dismiss')}</wa-button
    >
  </wa-callout>`;
}

/**
 * The whole page for a state: sign-in, or the signed-in page with its header, the notice, the page the address
 * names, and the permission sheet and question dialog over it (the oldest open question of each kind).
 */
export function pageView(state: PageState, route: PageRoute, actions: Actions): TemplateResult {
  if (state.signIn !== undefined) return signInView(state.signIn, actions);
  const snapshot = state.snapshot;
  if (snapshot === undefined) return html`<p class="loading">${t('console.connecting')}</p>`;
  const permission = state.permissionRequests[0];
  const question = state.questions[0] ?? state.urlFlows[0];
  return html`${headerView(snapshot, route, actions)}
    ${
      state.notice
        ? html`<wa-callout variant="danger" class="single notice-box" role="alert">
            <span>${noticeText(state.notice)}</span>
            <wa-button size="small" appearance="outlined" @click=${() => actions.dismissNotice()}
              >${t('console.dismiss')}</wa-button
            >
          </wa-callout>`
        : nothing
    }
    ${state.closedQuestions.map((q) => closedQuestionView(q, actions))}
    ${
      route === 'permissions'
        ? permissionsView(snapshot, actions)
        : route === 'audit'
          ? auditView(state, actions)
          : route === 'resources'
            ? html`<console-resources-page></console-resources-page>`
            : conversationView(state, snapshot, actions)
    }
    <airlock-permission-sheet
      .request=${permission}
      .open=${live(permission !== undefined)}
      @airlock-permission-decide=${(event: PermissionDecideEvent) => permission && actions.decide(event, permission)}
    ></airlock-permission-sheet>
    <airlock-elicitation-dialog
      .request=${question}
      .toolTitle=${question === undefined ? undefined : toolTitle(snapshot, question.tool)}
      .open=${live(question !== undefined)}
      @airlock-elicitation-answer=${(event: ElicitationAnswerEvent) => question && actions.answer(event, question)}
      @airlock-elicitation-done=${actions.urlDone}
    ></airlock-elicitation-dialog>`;
}
