import { LitElement, html, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { PermissionDecision, PermissionRequest } from '@airlock/core';
import type { MessageKey } from '@airlock/core/i18n';
import { msg } from '../shared/localize.js';
import { PresetController } from '../shared/preset-controller.js';
import { presetFrameStyles } from '../shared/preset-frame-styles.js';
import { baseStyles } from '../shared/tokens.js';
import { trapFocus } from './focus-trap.js';
import { PermissionDecideEvent } from './permission-decide-event.js';
import { modalFrameStyles, permissionSheetStyles } from './permission-sheet-styles.js';
import { argsPreview, hintKeys, inlineIcon, reasonKey } from './permission-view.js';

/** The generic tool glyph, drawn inline (no font or file to fetch). */
/** How long a permission lookup may take before the sheet says "Checking permissions…" (seed 003 R4.1). */
export const CHECKING_DELAY_MS = 100;

const WRENCH = html`<svg viewBox="0 0 24 24" width="24" height="24" fill="currentColor">
  <g transform="rotate(45 12 12)">
    <rect x="10.5" y="10" width="3" height="13" rx="1.5" />
    <path d="M7.5 1.5h2.5v4.5h4V1.5h2.5v5.5a4.5 4.5 0 0 1-9 0z" />
  </g>
</svg>`;

/**
 * The actions in the seed's 2x2 layout (deny always, deny once on top; allow once, allow always below), then allow
 * for this conversation across the width: the seed's four keep their places, and the order on screen is the order of
 * Tab.
 */
const ACTIONS = [
  'deny_always',
  'deny_once',
  'allow_once',
  'allow_always',
  'allow_conversation',
] as const satisfies readonly PermissionDecision[];

/**
 * `<airlock-permission-sheet>`: asks the user whether one tool call may run, in five grains (allow once, allow for
 * this conversation, allow always, deny once, deny always). Shows the tool, its server and trust, the risk badge,
 * what the annotations say (marked unverified for an untrusted server) and the arguments. A native modal `<dialog>`:
 * a centred card on wide screens, a bottom sheet at 600px and below; Tab stays inside; Esc and the close button mean
 * deny once, the cautious answer. Allow always is shown but refused (`aria-disabled`, with the reason beside it) when
 * the request does not offer it; allow for this conversation is left out where the request does not offer it (a
 * native tool, asked each time). Focus starts on `request.defaultAction`.
 *
 * Set `request`, then call `show()` (or set `open`); or call `show(request, onDecision)` to be called back with the
 * decision as well as the event. While the host is still looking up stored decisions, set
 * `checking`: the actions give way at once, and "Checking permissions…" shows only once the lookup has taken
 * `CHECKING_DELAY_MS` (seed 003 R4.1), so a lookup that answers quickly never flashes it.
 *
 * Slots: none (every string comes from the i18n catalog, in the locale of the nearest `lang`).
 *
 * @fires airlock-permission-decide - {@link PermissionDecideEvent}, with `decision`; at most once per opening, then
 *   the sheet closes.
 *
 * @csspart dialog - the native `<dialog>`.
 * @csspart header - tool, server and risk, with the close button.
 * @csspart caller - the line saying an app view, not the model, asks for the call (a view's own call).
 * @csspart reason - the line under the title saying why the user is asked (first time, the tool or its server
 *   changed, a decision expired, ...), when the request gives a reason.
 * @csspart icon - the tool's icon (inline raster icons only) or a generic glyph.
 * @csspart tool-name - the tool's display name (`original-name` below it when it differs).
 * @csspart server - the "From {server}" chip with the server's trust.
 * @csspart risk - the risk badge; also `risk-low`, `risk-medium` or `risk-high`.
 * @csspart hints - the "This tool will:" list; `unverified` is the untrusted-server note.
 * @csspart arguments - the arguments preview; `show-more` its toggle.
 * @csspart actions - the buttons; each is `action` and `action-<decision>`.
 * @csspart allow-always-reason - why allow always is not offered.
 * @csspart checking - the "Checking permissions…" status.
 * @csspart close - the close button.
 *
 * @cssprop --airlock-color-success-container, --airlock-color-warning-container, --airlock-color-danger-container -
 *   risk badge backgrounds for low, medium and high (text: the same names without `-container`).
 * @cssprop --airlock-* - every other token of `tokens.ts` (font, radius, space, surface, border, primary, focus,
 *   shadow, motion).
 */
export class AirlockPermissionSheet extends LitElement {
  static override properties = {
    request: { attribute: false },
    open: { type: Boolean, reflect: true },
    checking: { type: Boolean, reflect: true },
    expanded: { state: true },
  };

  /** The shadow root's styles: the shared base, then this element's own. */
  static override styles = [baseStyles, modalFrameStyles, permissionSheetStyles, presetFrameStyles];

  constructor() {
    super();
    // Keeps `data-preset` in step with the page's `data-airlock-preset` (R9).
    new PresetController(this);
  }

  /** The call to ask about. Setting it to undefined closes the sheet without a decision. */
  request: PermissionRequest | undefined;
  /** Whether the sheet is showing. */
  open = false;
  /** True while the host is still resolving the permission: the actions give way to a status line. */
  checking = false;
  /** Whether the "Checking permissions…" line shows: `checking` for at least `CHECKING_DELAY_MS`. */
  #checkingShown = false;
  #checkingTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether the full arguments are shown. */
  protected expanded = false;
  #decided = false;

  /** The callback `show(request, onDecision)` was given, for that request only. */
  #callback:
    { readonly request: PermissionRequest; readonly onDecision: (decision: PermissionDecision) => void } | undefined;

  /**
   * Opens the sheet as a modal dialog: on the `request` it is given, else on the one already set. `onDecision` (seed
   * 003 R7's `show(toolCall, onDecision)`) is called once with the user's decision on that request, after the
   * `airlock-permission-decide` event; it is not called when the request is withdrawn or replaced first.
   */
  show(request?: PermissionRequest, onDecision?: (decision: PermissionDecision) => void): void {
    if (request !== undefined) this.request = request;
    const asked = this.request;
    this.#callback = onDecision === undefined || asked === undefined ? undefined : { request: asked, onDecision };
    this.open = true;
  }

  /** Closes the sheet without a decision (the host withdrew the question). No event fires. */
  close(): void {
    this.open = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('request')) {
      this.expanded = false;
      this.#decided = false;
      if (this.request === undefined) this.open = false;
    }
    if (changed.has('open') && this.open) this.#decided = false;
    if (changed.has('checking')) this.#followChecking();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#checkingTimer);
  }

  /** Starts the delay before "Checking permissions…" shows, or ends it when the lookup is done. */
  #followChecking(): void {
    if (this.checking && this.#checkingTimer !== undefined) return;
    clearTimeout(this.#checkingTimer);
    this.#checkingTimer = undefined;
    this.#checkingShown = false;
    if (!this.checking) return;
    this.#checkingTimer = setTimeout(() => {
      this.#checkingShown = true;
      this.requestUpdate();
    }, CHECKING_DELAY_MS);
  }

  protected override updated(changed: PropertyValues<this>): void {
    const dialog = this.#dialog;
    if (dialog === null) return;
    const wanted = this.open && this.request !== undefined;
    if (wanted && !dialog.open) {
      dialog.showModal();
      this.#focusDefault();
    } else if (!wanted && dialog.open) {
      dialog.close();
    } else if (wanted && (changed.has('checking') || changed.has('request'))) {
      this.#focusDefault();
    }
  }

  get #dialog(): HTMLDialogElement | null {
    return this.renderRoot.querySelector('dialog');
  }

  #focusDefault(): void {
    const action = this.checking ? null : this.request?.defaultAction;
    const target = this.renderRoot.querySelector<HTMLElement>(
      action === null || action === undefined ? 'button.close' : `button[data-decision="${action}"]`,
    );
    target?.focus();
  }

  #decide(decision: PermissionDecision): void {
    const request = this.request;
    if (request === undefined || this.#decided || !this.open) return;
    if (decision === 'allow_always' && !request.allowAlways.offered) return;
    if (decision === 'allow_conversation' && !request.allowConversation.offered) return;
    this.#decided = true;
    // Closed first, so a listener that shows the next request right away is not undone.
    this.open = false;
    this.dispatchEvent(new PermissionDecideEvent(decision));
    const callback = this.#callback;
    this.#callback = undefined;
    if (callback?.request === request) callback.onDecision(decision);
  }

  #onCancel = (event: Event): void => {
    event.preventDefault();
    this.#decide('deny_once');
  };

  #onClose = (): void => {
    // The event is queued: the sheet may have been shown again since. When the browser closed the dialog by itself
    // while the sheet meant it open, that was a dismissal: deny once.
    if (this.#dialog?.open === true) return;
    if (this.open) this.#decide('deny_once');
    this.open = false;
  };

  #onKeydown = (event: KeyboardEvent): void => {
    const dialog = this.#dialog;
    if (dialog !== null && this.renderRoot instanceof ShadowRoot) trapFocus(event, dialog, this.renderRoot);
  };

  protected override render(): TemplateResult {
    const request = this.request;
    return html`<dialog
      part="dialog"
      role="dialog"
      aria-modal="true"
      aria-label=${request === undefined ? nothing : msg(this, 'mcp.permission.dialog_label', { tool: request.tool.displayName })}
      aria-describedby=${request === undefined ? nothing : reasonKey(request) === undefined ? 'meta hints' : 'reason meta hints'}
      @cancel=${this.#onCancel}
      @close=${this.#onClose}
      @keydown=${this.#onKeydown}
    >
      ${request === undefined ? nothing : this.#content(request)}
    </dialog>`;
  }

  #content(request: PermissionRequest): TemplateResult {
    return html`${this.#header(request)} ${this.#hints(request)} ${this.#args(request)}
      <p class="checking" part="checking" role="status" ?hidden=${!this.#checkingShown}>
        ${this.#checkingShown ? msg(this, 'mcp.permission.checking') : ''}
      </p>
      ${this.checking ? nothing : this.#actions(request)}`;
  }

  #header(request: PermissionRequest): TemplateResult {
    const { tool, server, risk } = request;
    const icon = inlineIcon(request);
    const trust = server?.trusted === true ? 'mcp.permission.trusted' : 'mcp.permission.untrusted';
    const reason = reasonKey(request);
    return html`<div class="top" part="header">
      <div>
        <p class="eyebrow">${msg(this, 'mcp.permission.title')}</p>
        ${reason === undefined ? nothing : html`<p class="reason" id="reason" part="reason">${msg(this, reason)}</p>`}
        ${
          // A view's own call: the person must know the model did not ask for it (the view's server did).
          request.caller.kind === 'app'
            ? html`<p class="reason" part="caller" data-caller="app">
                ${msg(this, 'mcp.permission.caller.app', { server: request.caller.serverId })}
              </p>`
            : nothing
        }
        <div class="tool">
          <span class="icon" part="icon" aria-hidden="true"
            >${icon === undefined ? WRENCH : html`<img src=${icon} alt="" />`}</span
          >
          <div>
            <h2 id="tool-name" part="tool-name">${tool.displayName}</h2>
            ${
              tool.originalName === tool.displayName
                ? nothing
                : html`<div class="original" part="original-name">${tool.originalName}</div>`
            }
          </div>
        </div>
        <div class="meta" id="meta">
          ${
            server === null
              ? nothing
              : html`<span class="chip" part="server"
                  >${msg(this, 'mcp.permission.from', { server: server.id })} · ${msg(this, trust)}</span
                >`
          }
          <span class="risk ${risk.tier}" part="risk risk-${risk.tier}"
            >${msg(this, `mcp.permission.risk.${risk.tier}`)}</span
          >
        </div>
      </div>
      <button
        type="button"
        class="close"
        part="close"
        aria-label=${msg(this, 'mcp.permission.close')}
        @click=${() => this.#decide('deny_once')}
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>`;
  }

  #hints(request: PermissionRequest): TemplateResult {
    const keys = hintKeys(request);
    const unverified = request.risk.unverified && keys.length > 0;
    // The server's own `_meta["airlock/risk"]` set the tier (a trusted server's, or an untrusted one's raise).
    const ratedByServer = request.risk.ratedBy === 'server';
    return html`<section id="hints" part="hints">
      <h3>${msg(this, 'mcp.permission.annotations')}</h3>
      ${
        unverified
          ? html`<p class="unverified" part="unverified">
              <span aria-hidden="true">⚠ </span>${msg(this, 'mcp.permission.unverified')}
            </p>`
          : nothing
      }
      ${
        keys.length === 0
          ? ratedByServer
            ? nothing
            : html`<p class="muted">${msg(this, noAnnotationsKey(request))}</p>`
          : html`<ul class=${unverified ? 'unverified-hints' : ''}>
              ${keys.map((key: MessageKey) => html`<li>${msg(this, key)}</li>`)}
            </ul>`
      }
      ${
        ratedByServer
          ? html`<p class="muted" part="rated-by-server">${msg(this, 'mcp.permission.rated_by_server')}</p>`
          : nothing
      }
    </section>`;
  }

  #args(request: PermissionRequest): TemplateResult {
    const preview = argsPreview(request.args);
    return html`<section part="arguments">
      <h3>${msg(this, 'mcp.permission.arguments')}</h3>
      <pre id="args">${this.expanded ? preview.full : preview.short}</pre>
      ${
        preview.cut
          ? html`<button
              type="button"
              class="more"
              part="show-more"
              aria-expanded=${this.expanded ? 'true' : 'false'}
              aria-controls="args"
              @click=${() => (this.expanded = !this.expanded)}
            >
              ${msg(this, this.expanded ? 'mcp.card.show_less' : 'mcp.card.show_more')}
            </button>`
          : nothing
      }
    </section>`;
  }

  #actions(request: PermissionRequest): TemplateResult {
    const refused = !request.allowAlways.offered;
    // The catalog's sentence when the refusal is the destructive rule (it is localised); the engine's reason else.
    const reason =
      request.risk.destructive || request.allowAlways.reason === undefined
        ? msg(this, 'mcp.permission.allow_always_refused')
        : request.allowAlways.reason;
    return html`<div class="actions" part="actions">
        ${ACTIONS.filter((d) => d !== 'allow_conversation' || request.allowConversation.offered).map((decision) => {
          const off = decision === 'allow_always' && refused;
          return html`<button
            type="button"
            class=${decision === request.defaultAction ? 'primary' : ''}
            part="action action-${decision}"
            data-decision=${decision}
            aria-disabled=${off ? 'true' : nothing}
            aria-describedby=${off ? 'allow-always-reason' : nothing}
            @click=${() => this.#decide(decision)}
          >
            ${msg(this, `mcp.permission.action.${decision}`)}
          </button>`;
        })}
      </div>
      ${refused ? html`<p id="allow-always-reason" class="reason" part="allow-always-reason">${reason}</p>` : nothing}`;
  }
}

/** What the sheet says of a tool without annotations: the worst case, or rated by the host's policy (not destructive). */
function noAnnotationsKey(request: PermissionRequest): MessageKey {
  return request.risk.destructive ? 'mcp.permission.no_annotations' : 'mcp.permission.no_annotations_policy';
}

if (customElements.get('airlock-permission-sheet') === undefined) {
  customElements.define('airlock-permission-sheet', AirlockPermissionSheet);
}

declare global {
  interface HTMLElementTagNameMap {
    'airlock-permission-sheet': AirlockPermissionSheet;
  }
}
