import { html, LitElement, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { InvocationState, ScreenPayload } from '@airlock/core';
import type { MessageKey } from '@airlock/core/i18n';
import { elementLocale, msg } from '../shared/localize.js';
import { baseStyles } from '../shared/tokens.js';
import { cardMarkdownHtml } from './card-markdown.js';
import type { CardRenderContext } from './card-render-context.js';
import { prettyJson } from './copy-text.js';
import { PresetController } from '../shared/preset-controller.js';
import { formatBytes } from './media-policy.js';
import { renderArgs } from './render-args.js';
import type { ArgsView } from './render-args.js';
import { renderResultBlocks } from './render-blocks.js';
import { renderHeader } from './render-header.js';
import { renderProgress } from './render-progress.js';
import { renderReason } from './render-reason.js';
import { TaskElapsedController, taskOpen } from './task-elapsed.js';
import { mustPassRunning, RUNNING_HOLD_MS, runs, shownState } from './shown-state.js';
import type { ShownState } from './shown-state.js';
import {
  ToolCancelEvent,
  ToolCopyEvent,
  ToolResourceOpenEvent,
  ToolRetryEvent,
  ToolShowAllEvent,
} from './tool-card-events.js';
import { toolCardCodeStyles } from './tool-card-code-styles.js';
import { toolCardFormStyles } from './tool-card-form-styles.js';
import { toolCardPresetStyles } from './tool-card-preset-styles.js';
import { toolCardStyles } from './tool-card-styles.js';
import type { ToolCardInvocation, ToolCardProgress, ToolCardServer, ToolCardTool } from './tool-card-types.js';

let cards = 0;

/**
 * `<airlock-tool-card>`: one tool call as the user sees it. The header names the tool, its server (trusted or not)
 * and the call's state; the arguments are collapsed (raw JSON or a read-only form built from the input schema); the
 * result opens by itself on success and stays closed on error. Every block type of an MCP result renders: markdown
 * text (sanitised), images (data: URLs of raster types only; large ones as thumbnails), audio, resource links (a chip,
 * never a link that fetches), embedded resources by type, and structured content as JSON. Long texts show their head
 * until "show more"; every "copy" copies the whole value.
 *
 * The card shows the state it is given (the host feeds it pending, running, then success, error or cancelled), with
 * two rules of its own (R3): a call seen pending that arrives at success or error shows "Running…" for
 * `RUNNING_HOLD_MS` first, so a fast failure never skips running; and Retry shows "Running…" at once until the host
 * feeds the call again (the same card, a new invocation id when the host runs it anew). A call the permission gate
 * refused reads "Denied", not "Cancelled", and any error's reason is shown under the header, not inside the result.
 * Clicking the header toggles the arguments (T2). The card is a region named "Tool invocation: NAME" (R8).
 *
 * Presets (R9): the element reads `data-airlock-preset` from its nearest ancestor (set by `applyPreset`) and
 * draws what tokens cannot say: terminal_classic `[name]` in monospace without shadow, brutalist a 2px border with
 * sharp corners, cyberpunk_neon a glow outline over a gradient, glassmorphism a backdrop blur over a 20% surface
 * tint, minimalist_mono one border and no fill.
 *
 * Slots: none (everything shown comes from the properties, rendered as text or sanitised markdown).
 *
 * Events:
 * - `airlock-tool-retry` (`ToolRetryEvent`, detail `{ invocationId }`): Retry pressed on a failed call.
 * - `airlock-tool-cancel` (`ToolCancelEvent`, detail `{ invocationId }`): "Cancel call" pressed (shown only when the
 *   card is `cancellable`, while the call waits or runs).
 * - `airlock-tool-copy` (`ToolCopyEvent`, detail `{ text }`, cancelable): a value is being copied; the card writes it
 *   to `navigator.clipboard` unless the event is cancelled.
 * - `airlock-tool-show-all` (`ToolShowAllEvent`, detail `{ invocationId, block }`): "Show all" pressed on a text the
 *   host cut for the screen; the host answers by setting `wholeTexts` (R4: the whole text, never only its head), or
 *   `wholeTextErrors` when it cannot.
 *
 * CSS parts: `card`, `header`, `icon`, `name`, `server`, `badge`, `retry`, `cancel`, `reason`, `progress`, `elapsed`, `args`, `result`,
 * `block` (each result block), `dialog` (the full-size image).
 *
 * CSS custom properties: the shared tokens (`--airlock-font`, `--airlock-font-mono`, `--airlock-radius`,
 * `--airlock-space`, `--airlock-color-*`, `--airlock-shadow`, `--airlock-motion`) and
 * `--airlock-tool-card-thumbnail-size` (the largest side of a large image's thumbnail, default 96px).
 */
export class AirlockToolCard extends LitElement {
  /** The shadow root's styles: the shared base, then this element's own. */
  static override styles = [baseStyles, toolCardStyles, toolCardCodeStyles, toolCardFormStyles, toolCardPresetStyles];

  static override properties = {
    invocation: { attribute: false },
    tool: { attribute: false },
    server: { attribute: false },
    result: { attribute: false },
    progress: { attribute: false },
    taskStartedAt: { attribute: false },
    fullText: { attribute: false },
    wholeTexts: { attribute: false },
    wholeTextErrors: { attribute: false },
    cancellable: { type: Boolean },
  };

  /** The call: its id, tool names, server, state, outcome, error and arguments. */
  invocation?: ToolCardInvocation;
  /** How the tool presents itself: title, name, icons, input schema (for the form view). */
  tool?: ToolCardTool;
  /** The server and whether it is trusted; defaults to the invocation's `serverId`, untrusted. */
  server?: ToolCardServer;
  /** The screen payload of the result, when there is one. */
  result?: ScreenPayload;
  /** The latest progress of a running call. */
  progress?: ToolCardProgress;
  /** When the call's task began (ms since the epoch): an open task shows its elapsed time beside its status. */
  taskStartedAt?: number;
  /** The whole result text; "copy" on the whole result copies it (else the blocks' text). */
  fullText?: string;
  /**
   * The whole texts of blocks the host cut for the screen, by 0-based block index, as the host read them behind the
   * result's handle after `airlock-tool-show-all`: such a block then shows (and copies) its whole text.
   */
  wholeTexts?: ReadonlyMap<number, string>;
  /**
   * Why the host could not read a block's whole text, by 0-based block index: the card stops saying it is loading,
   * shows the reason, and offers "show all" again.
   */
  wholeTextErrors?: ReadonlyMap<number, string>;
  /** Whether the host can stop this call: "Cancel call" shows in the header while it waits or runs. */
  cancellable = false;

  readonly #id = `card-${++cards}`;
  #argsOpen = false;
  #argsView: ArgsView = 'json';
  #argsJson: { readonly args: object; readonly json: string } | undefined;
  #argsSeen: object | undefined;
  #resultOpen = false;
  /** The state the badge shows (it can lag the given one while "Running…" is held). */
  #shown: InvocationState | undefined;
  #givenState: InvocationState | undefined;
  #shownId: string | undefined;
  #hold: ReturnType<typeof setTimeout> | undefined;
  #retrying = false;
  #expanded = new Set<string>();
  #copiedKey: string | undefined;
  #markdown = new Map<string, string>();
  /** Blocks whose whole text was asked for and has not come yet. */
  #askedAll = new Set<number>();
  #dialogImage: { readonly src: string; readonly alt: string } | undefined;

  constructor() {
    super();
    new PresetController(this);
    new TaskElapsedController(this, () => taskOpen(this.#state()) && this.taskStartedAt !== undefined);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#hold);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('invocation')) {
      // Any new invocation object ends Retry's own "Running…": the host fed the call again (or gave up on it).
      this.#retrying = false;
      this.#follow(this.invocation?.id, this.invocation?.state);
    }
    if (changed.has('result')) {
      this.#markdown.clear();
      this.#askedAll.clear();
      this.#copiedKey = undefined;
      for (const key of this.#expanded) if (!key.startsWith('arg')) this.#expanded.delete(key);
    }
    if (changed.has('invocation') && this.#argsSeen !== this.invocation?.args) {
      this.#argsSeen = this.invocation?.args;
      this.#argsJson = undefined;
      for (const key of this.#expanded) if (key.startsWith('arg')) this.#expanded.delete(key);
    }
  }

  /** Follows the given state, holding "Running…" when a call seen pending arrives at success or error. */
  #follow(id: string | undefined, given: InvocationState | undefined): void {
    if (id === this.#shownId && given === this.#givenState) return;
    const passRunning = id === this.#shownId && mustPassRunning(this.#shown, given);
    this.#shownId = id;
    this.#givenState = given;
    this.#retrying = false;
    clearTimeout(this.#hold);
    this.#hold = undefined;
    if (!passRunning) return this.#show(given);
    this.#show('running');
    this.#hold = setTimeout(() => {
      this.#hold = undefined;
      this.#show(this.invocation?.state);
      this.requestUpdate();
    }, RUNNING_HOLD_MS);
  }

  #show(state: InvocationState | undefined): void {
    if (state === this.#shown) return;
    this.#shown = state;
    this.#resultOpen = state === 'success';
  }

  /** What the badge says now. */
  #state(): ShownState {
    if (this.#retrying) return 'running';
    return shownState(this.#shown ?? 'pending', this.invocation?.outcome);
  }

  protected override render(): TemplateResult {
    const state = this.#state();
    const name = this.#displayName();
    const serverId = this.invocation?.serverId;
    return html`<article
      part="card"
      class="card"
      role="region"
      aria-label=${this.#t('mcp.card.region', { name })}
      data-state=${state}
    >
      ${renderHeader(this.#context(), {
        name,
        rawName: this.tool?.name ?? this.invocation?.originalName,
        state,
        tool: this.tool,
        server: this.server ?? (serverId ? { id: serverId, trusted: false } : undefined),
        onRetry: this.#retry,
        onCancel: this.cancellable ? this.#cancel : undefined,
        onToggle: this.#onHeaderClick,
      })}
      ${renderReason(this.#context(), { state, error: this.invocation?.error, result: this.result })}
      ${renderProgress(this.#context(), { state, progress: this.progress, taskStartedAt: this.taskStartedAt, now: Date.now() })}
      ${this.#renderArgs()} ${this.#renderResult(state)} ${this.#renderDialog()}
    </article>`;
  }

  #displayName(): string {
    return this.tool?.title ?? this.tool?.name ?? this.invocation?.originalName ?? this.invocation?.tool ?? '';
  }

  #t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
    return msg(this, key, params);
  }

  #renderArgs(): TemplateResult {
    const args = this.invocation?.args ?? {};
    return html`<details part="args" class="args" .open=${this.#argsOpen} @toggle=${this.#onArgsToggle}>
      <summary>${this.#t('mcp.card.arguments')}</summary>
      ${
        this.#argsOpen
          ? renderArgs(this.#context(), {
              args,
              json: this.#argsText(args),
              schema: this.tool?.inputSchema,
              view: this.#argsView,
              idPrefix: this.#id,
              setView: (view) => {
                this.#argsView = view;
                this.requestUpdate();
              },
            })
          : nothing
      }
    </details>`;
  }

  #argsText(args: Readonly<Record<string, unknown>>): string {
    if (this.#argsJson?.args !== args) this.#argsJson = { args, json: prettyJson(args) };
    return this.#argsJson.json;
  }

  #renderResult(state: ShownState): TemplateResult | typeof nothing {
    const result = this.result;
    if (result === undefined || state === 'pending' || runs(state)) return nothing;
    return html`<details part="result" class="result" .open=${this.#resultOpen} @toggle=${this.#onResultToggle}>
      <summary>${this.#t('mcp.card.result')}</summary>
      ${this.#resultOpen ? renderResultBlocks(this.#context(), result, this.fullText) : nothing}
    </details>`;
  }

  #renderDialog(): TemplateResult {
    const image = this.#dialogImage;
    return html`<dialog
      part="dialog"
      aria-label=${image?.alt ?? this.#t('mcp.card.open_full')}
      @close=${this.#onDialogClose}
    >
      ${image === undefined ? nothing : html`<img class="full-size" src=${image.src} alt=${image.alt} />`}
      <button type="button" class="text-button" data-action="close" @click=${this.#closeDialog}>
        ${this.#t('mcp.permission.close')}
      </button>
    </dialog>`;
  }

  #context(): CardRenderContext {
    return {
      t: (key, params) => this.#t(key, params),
      number: (value) => this.#number(value),
      bytes: (value) => formatBytes(value, elementLocale(this)),
      markdown: (text) => {
        let safe = this.#markdown.get(text);
        if (safe === undefined) {
          safe = cardMarkdownHtml(text);
          this.#markdown.set(text, safe);
        }
        return safe;
      },
      isExpanded: (key) => this.#expanded.has(key),
      toggle: (key) => {
        if (!this.#expanded.delete(key)) this.#expanded.add(key);
        this.requestUpdate();
      },
      copied: (key) => this.#copiedKey === key,
      copy: (key, text) => this.#copy(key, text),
      openImage: (src, alt) => void this.#openImage(src, alt),
      openResource: (uri) =>
        this.dispatchEvent(new ToolResourceOpenEvent({ uri, serverId: this.invocation?.serverId ?? null })),
      wholeText: (block) => this.wholeTexts?.get(block),
      loadingAll: (block) =>
        this.#askedAll.has(block) &&
        this.wholeTexts?.get(block) === undefined &&
        this.wholeTextErrors?.get(block) === undefined,
      showAllError: (block) =>
        this.wholeTexts?.get(block) === undefined ? this.wholeTextErrors?.get(block) : undefined,
      showAll: (block) => this.#showAll(block),
    };
  }

  #number(value: number): string {
    return new Intl.NumberFormat(elementLocale(this)).format(value);
  }

  #copy(key: string, text: string): void {
    const event = new ToolCopyEvent({ text });
    if (!this.dispatchEvent(event)) return;
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (clipboard === undefined) return;
    clipboard.writeText(text).then(
      () => {
        this.#copiedKey = key;
        this.requestUpdate();
      },
      () => undefined,
    );
  }

  #showAll(block: number): void {
    const id = this.invocation?.id;
    if (id === undefined) return;
    this.#askedAll.add(block);
    // The whole text arrives already expanded: the user asked to see it, not its first 30 lines again.
    this.#expanded.add(`block-${block}`);
    this.dispatchEvent(new ToolShowAllEvent({ invocationId: id, block }));
    this.requestUpdate();
  }

  #retry = (): void => {
    const id = this.invocation?.id;
    if (id === undefined) return;
    this.dispatchEvent(new ToolRetryEvent({ invocationId: id }));
    // Back to running in this same card until the host feeds the call again (T4).
    this.#retrying = true;
    this.requestUpdate();
  };

  #cancel = (): void => {
    const id = this.invocation?.id;
    if (id !== undefined) this.dispatchEvent(new ToolCancelEvent({ invocationId: id }));
  };

  /** A click on the header, not on one of its controls, opens or closes the arguments (T2). */
  #onHeaderClick = (event: Event): void => {
    const control = event
      .composedPath()
      .some((node) => node instanceof HTMLElement && /^(BUTTON|A|INPUT)$/.test(node.tagName));
    if (control) return;
    this.#argsOpen = !this.#argsOpen;
    this.requestUpdate();
  };

  #onArgsToggle = (event: Event): void => {
    this.#argsOpen = (event.currentTarget as HTMLDetailsElement).open;
    this.requestUpdate();
  };

  #onResultToggle = (event: Event): void => {
    this.#resultOpen = (event.currentTarget as HTMLDetailsElement).open;
    this.requestUpdate();
  };

  async #openImage(src: string, alt: string): Promise<void> {
    this.#dialogImage = { src, alt };
    this.requestUpdate();
    await this.updateComplete;
    this.renderRoot.querySelector('dialog')?.showModal();
  }

  #closeDialog = (): void => {
    this.renderRoot.querySelector('dialog')?.close();
  };

  #onDialogClose = (): void => {
    this.#dialogImage = undefined;
    this.requestUpdate();
  };
}

if (!customElements.get('airlock-tool-card')) customElements.define('airlock-tool-card', AirlockToolCard);

declare global {
  interface HTMLElementTagNameMap {
    'airlock-tool-card': AirlockToolCard;
  }
}
