import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { ElicitationAnswer, ElicitationRequest, FormField } from '@airlock/core';
import type { MessageKey } from '@airlock/core/i18n';
import { trapFocus } from '../airlock-permission-sheet/focus-trap.js';
import { modalFrameStyles } from '../airlock-permission-sheet/permission-sheet-styles.js';
import { elementLocale, msg } from '../shared/localize.js';
import { PresetController } from '../shared/preset-controller.js';
import { presetFrameStyles } from '../shared/preset-frame-styles.js';
import { baseStyles } from '../shared/tokens.js';
import { elicitationDialogStyles } from './elicitation-dialog-styles.js';
import { ElicitationAnswerEvent, ElicitationDoneEvent } from './elicitation-events.js';
import { renderField } from './form-fields.js';
import type { FieldContext } from './form-fields.js';
import { fieldErrorText } from './field-error-text.js';
import { formContent, initialRaw, readField } from './form-values.js';
import type { FieldProblem, RawValue } from './form-values.js';
import { renderUrl } from './url-view.js';

/** The countdown shows in the last this many milliseconds before the deadline. */
export const COUNTDOWN_WINDOW_MS = 30_000;

/** Where the question is: being asked; URL mode after the page was opened (accept sent); answered. */
type Phase = 'asking' | 'opened' | 'answered';

/**
 * `<airlock-elicitation-dialog>`: shows a server's question (MCP elicitation) and sends back the user's answer.
 *
 * Form mode renders `request.form.model` field by field (text, email, URL, date, date-time, multi-line, number,
 * integer, switch, radio group or select, checkbox group), pre-filled from `request.form.initialValues`, checked
 * before submit (required, ranges, lengths, format shapes, item counts; the host checks again), with the server's
 * errors from `request.errors` on their fields. URL mode shows the whole address as text, the site emphasised, and
 * warnings; the page opens only on the user's click, in a new top-level tab whose `opener` is cut; when the question
 * ends (cancel, done, or the host closing it on completion or timeout) the dialog asks that tab to close, which a
 * browser may refuse once the tab shows another origin (Chromium does). Nothing the server sent is rendered as HTML
 * or as a link. A native modal `<dialog>`; Tab stays inside; Esc and the close button cancel.
 * In the last 30 s before `request.deadline` a countdown shows (and is announced).
 *
 * Set `request`, then call `show()` (or set `open`). Setting `request` to undefined, or `close()`, closes it without
 * an answer: the host does that when the server cancels or the question times out.
 *
 * Slots: none (every string comes from the i18n catalog, in the locale of the nearest `lang`).
 *
 * @fires airlock-elicitation-answer - {@link ElicitationAnswerEvent} with `answer` (accept, decline or cancel).
 * @fires airlock-elicitation-done - {@link ElicitationDoneEvent}: URL mode, the user says the page is done.
 *
 * @csspart dialog - the native `<dialog>`.
 * @csspart header - title and close button; `close` is the close button.
 * @csspart message - the server's message.
 * @csspart form - the form; each field is `field`, with `label`, `description` and `error`.
 * @csspart site - the site line: `host` (the emphasised name) and `raw-host` (the punycode host when it differs).
 * @csspart url - the full address, its host in `<strong>`.
 * @csspart warnings - the address warnings under their title.
 * @csspart countdown - "Closing in {seconds}s" (a polite live region).
 * @csspart status - "Opening external page" (a status live region).
 * @csspart actions - the buttons; each is `action` and `action-<accept|decline|cancel|open|done>`.
 * @csspart blocked - why Submit is unavailable (the fields still to fix), the disabled Submit's description.
 *
 * @cssprop --airlock-* - the tokens of `tokens.ts` (font, radius, space, surface, border, primary, focus, warning
 *   and danger colours, shadow, motion).
 */
export class AirlockElicitationDialog extends LitElement {
  static override properties = {
    request: { attribute: false },
    open: { type: Boolean, reflect: true },
    now: { type: Number },
    toolTitle: { attribute: false },
  };

  /** The shadow root's styles: the shared base, then this element's own. */
  static override styles = [baseStyles, modalFrameStyles, elicitationDialogStyles, presetFrameStyles];

  constructor() {
    super();
    // Keeps `data-preset` in step with the page's `data-airlock-preset` (R9).
    new PresetController(this);
  }

  /** The question. Setting it to undefined closes the dialog without an answer. */
  request: ElicitationRequest | undefined;
  /** Whether the dialog is showing. */
  open = false;
  /** A fixed current time in ms, for tests; undefined: the real clock, ticking each second near the deadline. */
  now: number | undefined;
  /** The title of the tool whose call asks (the host knows it); the heading names it. Default: the tool's name. */
  toolTitle: string | undefined;

  #phase: Phase = 'asking';
  #values = new Map<string, RawValue>();
  #badInput = new Set<string>();
  #touched = new Set<string>();
  #edited = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The tab the user opened for a URL question, asked to close when the question ends (cancel, done, the host). */
  #page: Window | null = null;

  /** Opens the dialog as a modal (once a `request` is set). */
  show(): void {
    this.open = true;
  }

  /** Closes the dialog without an answer (the server cancelled, the question timed out). No event fires. */
  close(): void {
    this.open = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) this.#scheduleTick();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopTimer();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The question is over (answered, cancelled, completed, timed out) or another took its place: its tab goes too.
    if (changed.has('request') || (changed.has('open') && !this.open)) this.#closePage();
    if (changed.has('request')) {
      this.#phase = 'asking';
      this.#values.clear();
      this.#badInput.clear();
      this.#touched.clear();
      this.#edited.clear();
      const form = this.request?.form;
      for (const field of form?.model.fields ?? []) {
        this.#values.set(field.name, initialRaw(field, form?.initialValues[field.name]));
      }
      if (this.request === undefined) this.open = false;
    }
    if (changed.has('open') && this.open && changed.get('open') === false) this.#phase = 'asking';
  }

  protected override updated(changed: PropertyValues<this>): void {
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog === null) return;
    const wanted = this.open && this.request !== undefined;
    if (wanted && !dialog.open) {
      dialog.showModal();
      this.#focusFirst();
    } else if (!wanted && dialog.open) {
      dialog.close();
    } else if (wanted && changed.has('request')) {
      this.#focusFirst();
    }
    this.#scheduleTick();
  }

  #focusFirst(): void {
    // A form starts on its first field; URL mode on the heading, so no stray Enter opens or cancels anything.
    const first = this.renderRoot.querySelector<HTMLElement>('form input, form select, form textarea');
    (first ?? this.renderRoot.querySelector<HTMLElement>('h2'))?.focus();
  }

  /** Re-renders each second while the deadline is within the countdown window; one timeout until then. */
  #scheduleTick(): void {
    this.#stopTimer();
    const request = this.request;
    if (!this.open || request === undefined || this.now !== undefined || this.#phase === 'answered') return;
    const left = request.deadline - Date.now();
    if (left <= 0) return;
    const wait = left > COUNTDOWN_WINDOW_MS ? left - COUNTDOWN_WINDOW_MS : left % 1000 || 1000;
    this.#timer = setTimeout(() => this.requestUpdate(), wait);
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Seconds left when within the countdown window, else undefined. */
  #secondsLeft(request: ElicitationRequest): number | undefined {
    const left = request.deadline - (this.now ?? Date.now());
    return left <= COUNTDOWN_WINDOW_MS ? Math.max(0, Math.ceil(left / 1000)) : undefined;
  }

  #answer(answer: ElicitationAnswer): void {
    if (this.request === undefined || !this.open || this.#phase === 'answered') return;
    const urlAccept = answer.action === 'accept' && this.request.mode === 'url';
    this.#phase = urlAccept ? 'opened' : 'answered';
    // Closed first, so a listener that shows the next question right away is not undone.
    if (!urlAccept) this.open = false;
    this.requestUpdate();
    this.dispatchEvent(new ElicitationAnswerEvent(answer));
  }

  #fields(): readonly FormField[] {
    return this.request?.form?.model.fields ?? [];
  }

  /** A problem as a sentence naming the field ("Age must be between 0 and 150."). */
  #errorText(field: FormField, problem: FieldProblem): string {
    const format = new Intl.NumberFormat(elementLocale(this));
    return fieldErrorText(
      (key, params) => msg(this, key, params),
      field,
      problem,
      (n) => format.format(n),
    );
  }

  #problem(field: FormField): FieldProblem | undefined {
    const reading = readField(field, this.#values.get(field.name), this.#badInput.has(field.name));
    return reading.ok ? undefined : reading.problem;
  }

  #fieldContext: FieldContext = {
    value: (field) => this.#values.get(field.name),
    error: (field) => {
      const problem = this.#problem(field);
      if (problem !== undefined && this.#touched.has(field.name)) {
        return this.#errorText(field, problem);
      }
      return this.#edited.has(field.name) ? undefined : this.request?.errors?.[field.name];
    },
    set: (field, raw, badInput = false) => {
      this.#values.set(field.name, raw);
      if (badInput) this.#badInput.add(field.name);
      else this.#badInput.delete(field.name);
      this.#edited.add(field.name);
      this.requestUpdate();
    },
    touch: (field) => {
      if (this.#touched.has(field.name)) return;
      this.#touched.add(field.name);
      this.requestUpdate();
    },
  };

  #onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    const fields = this.#fields();
    if (fields.some((field) => this.#problem(field) !== undefined)) {
      for (const field of fields) this.#touched.add(field.name);
      this.requestUpdate();
      return;
    }
    this.#answer({ action: 'accept', content: formContent(fields, (field) => this.#values.get(field.name)) });
  };

  #openPage = (): void => {
    const url = this.request?.url;
    if (url === undefined) return;
    // A blank tab first, its way back to this page cut (opener null), then sent to the address: the page there
    // cannot reach this one, and the handle kept lets the question's end close it where the browser allows (Chromium
    // refuses once the tab is on another origin, the opener being cut). The referrer follows the embedding page's
    // policy (the console sends none).
    this.#closePage();
    const page = window.open('about:blank', '_blank');
    if (page !== null) {
      page.opener = null;
      page.location.replace(url.url);
    }
    this.#page = page;
    if (this.#phase === 'asking') this.#answer({ action: 'accept' });
  };

  #closePage(): void {
    const page = this.#page;
    this.#page = null;
    if (page !== null && !page.closed) page.close();
  }

  #done = (): void => {
    const request = this.request;
    if (request === undefined || this.#phase !== 'opened') return;
    this.#phase = 'answered';
    this.open = false;
    this.dispatchEvent(new ElicitationDoneEvent(request.id));
  };

  #cancel = (): void => this.#answer({ action: 'cancel' });

  #onCancelEvent = (event: Event): void => {
    event.preventDefault();
    this.#cancel();
  };

  #onClose = (): void => {
    // The event is queued: the dialog may have been shown again since. When the browser closed the dialog by itself
    // while this element meant it open, that was a dismissal: cancel.
    if (this.renderRoot.querySelector('dialog')?.open === true) return;
    if (this.open) this.#cancel();
    this.open = false;
  };

  #onKeydown = (event: KeyboardEvent): void => {
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog !== null && this.renderRoot instanceof ShadowRoot) trapFocus(event, dialog, this.renderRoot);
  };

  protected override render(): TemplateResult {
    const request = this.request;
    return html`<dialog
      part="dialog"
      role="dialog"
      aria-modal="true"
      aria-label=${
        request === undefined
          ? nothing
          : msg(this, 'mcp.elicitation.dialog_label_tool', { tool: this.#toolName(request), server: request.serverId })
      }
      @cancel=${this.#onCancelEvent}
      @close=${this.#onClose}
      @keydown=${this.#onKeydown}
    >
      ${request === undefined ? nothing : keyed(request, this.#content(request))}
    </dialog>`;
  }

  #content(request: ElicitationRequest): TemplateResult {
    const seconds = this.#secondsLeft(request);
    const url = request.mode === 'url' ? request.url : undefined;
    return html`<div class="top" part="header">
        <h2 tabindex="-1">
          ${msg(this, 'mcp.elicitation.title_tool', { tool: this.#toolName(request), server: request.serverId })}
        </h2>
        <button
          type="button"
          class="close"
          part="close"
          aria-label=${msg(this, 'mcp.permission.close')}
          @click=${this.#cancel}
        >
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <p class="message" part="message">${request.message}</p>
      ${url === undefined ? this.#form(request) : html`<div class="body">${renderUrl(this, url)}</div>`}
      <p class="status" part="status" role="status">
        ${this.#phase === 'opened' ? msg(this, 'mcp.elicitation.url_mode.opening') : ''}
      </p>
      <p class="countdown" part="countdown" aria-live="polite">
        ${seconds === undefined ? '' : msg(this, 'mcp.elicitation.timeout_warning', { seconds })}
      </p>
      <div class="actions" part="actions">${url === undefined ? this.#formActions() : this.#urlActions()}</div>`;
  }

  #form(request: ElicitationRequest): TemplateResult {
    const formError = this.#edited.size === 0 ? request.errors?.[''] : undefined;
    return html`<form id="form" part="form" novalidate @submit=${this.#onSubmit}>
      ${formError === undefined ? nothing : html`<p class="form-error" part="error">${formError}</p>`}
      ${this.#fields().map((field, i) => renderField(this.#fieldContext, field, `field-${i}`))}
    </form>`;
  }

  /** The tool that asks, as a person knows it: the title the host gave, else the tool's own name. */
  #toolName(request: ElicitationRequest): string {
    return this.toolTitle ?? request.tool;
  }

  #formActions(): TemplateResult {
    const blocked = this.#fields().flatMap((field) => {
      const problem = this.#problem(field);
      return problem === undefined ? [] : [this.#errorText(field, problem)];
    });
    // A disabled Submit says why: the sentence is shown beside it and is its description.
    const why =
      blocked.length === 0
        ? undefined
        : msg(this, 'mcp.elicitation.submit_blocked', {
            fields: blocked.map((sentence) => sentence.replace(/[.。]$/, '')).join('; '),
          });
    return html`${why === undefined ? nothing : html`<p class="blocked" id="submit-why" part="blocked">${why}</p>`}
      ${this.#button('decline', 'mcp.elicitation.action.reject', () => this.#answer({ action: 'decline' }))}
      ${this.#button('cancel', 'mcp.elicitation.action.cancel', this.#cancel)}
      <button
        type="submit"
        form="form"
        class="primary"
        part="action action-accept"
        ?disabled=${why !== undefined}
        aria-describedby=${why === undefined ? nothing : 'submit-why'}
      >
        ${msg(this, 'mcp.elicitation.action.accept')}
      </button>`;
  }

  #urlActions(): TemplateResult {
    const opened = this.#phase !== 'asking';
    return html`${
      opened
        ? nothing
        : this.#button('decline', 'mcp.elicitation.action.reject', () => this.#answer({ action: 'decline' }))
    }
    ${this.#button('cancel', 'mcp.elicitation.action.cancel', this.#cancel)}
    ${this.#button('open', 'mcp.elicitation.url_mode.open', this.#openPage, !opened)}
    ${opened ? this.#button('done', 'mcp.elicitation.url_mode.done', this.#done, true) : nothing}`;
  }

  #button(
    name: 'decline' | 'cancel' | 'open' | 'done',
    key: MessageKey,
    onClick: () => void,
    primary = false,
  ): TemplateResult {
    return html`<button type="button" class=${primary ? 'primary' : ''} part="action action-${name}" @click=${onClick}>
      ${msg(this, key)}
    </button>`;
  }
}

if (customElements.get('airlock-elicitation-dialog') === undefined) {
  customElements.define('airlock-elicitation-dialog', AirlockElicitationDialog);
}

declare global {
  interface HTMLElementTagNameMap {
    'airlock-elicitation-dialog': AirlockElicitationDialog;
  }
}
