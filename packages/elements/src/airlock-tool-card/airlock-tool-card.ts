import { html, LitElement, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { InvocationState, ScreenPayload } from '@airlock/core';
import type { MessageKey } from '@airlock/core/i18n';
import { elementLocale, msg } from '../shared/localize.js';
import { baseStyles } from '../shared/tokens.js';
import { cardMarkdownHtml } from './card-markdown.js';
import type { CardRenderContext } from './card-render-context.js';
import { prettyJson } from './copy-text.js';
import { formatBytes, safeIconSrc } from './media-policy.js';
import { renderArgs } from './render-args.js';
import type { ArgsView } from './render-args.js';
import { renderResultBlocks } from './render-blocks.js';
import { ToolCopyEvent, ToolRetryEvent } from './tool-card-events.js';
import { toolCardStyles } from './tool-card-styles.js';
import type { ToolCardInvocation, ToolCardProgress, ToolCardServer, ToolCardTool } from './tool-card-types.js';

export { ToolCopyEvent, ToolRetryEvent } from './tool-card-events.js';
export type { ToolCopyDetail, ToolRetryDetail } from './tool-card-events.js';
export type { ToolCardInvocation, ToolCardProgress, ToolCardServer, ToolCardTool } from './tool-card-types.js';

const GLYPHS: Record<InvocationState, string> = {
  pending: '⏳',
  running: '',
  success: '✓',
  error: '✗',
  cancelled: '⊘',
};

/**
 * `<airlock-tool-card>`: one tool call as the user sees it. The header names the tool, its server (trusted or not)
 * and the call's state; the arguments are collapsed (raw JSON or a read-only form built from the input schema); the
 * result opens by itself on success and stays closed on error. Every block type of an MCP result renders: markdown
 * text (sanitised), images (data: URLs of raster types only; large ones as thumbnails), audio, resource links (a chip,
 * never a link that fetches), embedded resources by type, and structured content as JSON. Long texts show their head
 * until "show more"; every "copy" copies the whole value.
 *
 * The card shows the state it is given; the host feeds it pending, running, then success, error or cancelled.
 *
 * Slots: none (everything shown comes from the properties, rendered as text or sanitised markdown).
 *
 * Events:
 * - `airlock-tool-retry` (`ToolRetryEvent`, detail `{ invocationId }`): Retry pressed on a failed call.
 * - `airlock-tool-copy` (`ToolCopyEvent`, detail `{ text }`, cancelable): a value is being copied; the card writes it
 *   to `navigator.clipboard` unless the event is cancelled.
 *
 * CSS parts: `card`, `header`, `icon`, `name`, `server`, `badge`, `retry`, `progress`, `args`, `result`, `block`
 * (each result block), `dialog` (the full-size image).
 *
 * CSS custom properties: the shared tokens (`--airlock-font`, `--airlock-font-mono`, `--airlock-radius`,
 * `--airlock-space`, `--airlock-color-*`, `--airlock-shadow`, `--airlock-motion`) and
 * `--airlock-tool-card-thumbnail-size` (the largest side of a large image's thumbnail, default 96px).
 */
export class AirlockToolCard extends LitElement {
  static override styles = [baseStyles, toolCardStyles];

  static override properties = {
    invocation: { attribute: false },
    tool: { attribute: false },
    server: { attribute: false },
    result: { attribute: false },
    progress: { attribute: false },
    fullText: { attribute: false },
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
  /** The whole result text; "copy" on the whole result copies it (else the blocks' text). */
  fullText?: string;

  #argsOpen = false;
  #argsView: ArgsView = 'json';
  #argsJson: { readonly args: object; readonly json: string } | undefined;
  #argsSeen: object | undefined;
  #resultOpen = false;
  #shownState: InvocationState | undefined;
  #expanded = new Set<string>();
  #copiedKey: string | undefined;
  #markdown = new Map<string, string>();
  #dialogImage: { readonly src: string; readonly alt: string } | undefined;

  protected override willUpdate(changed: PropertyValues<this>): void {
    const state = this.invocation?.state;
    if (state !== this.#shownState) {
      this.#shownState = state;
      this.#resultOpen = state === 'success';
    }
    if (changed.has('result')) {
      this.#markdown.clear();
      this.#copiedKey = undefined;
      for (const key of this.#expanded) if (!key.startsWith('arg')) this.#expanded.delete(key);
    }
    if (changed.has('invocation') && this.#argsSeen !== this.invocation?.args) {
      this.#argsSeen = this.invocation?.args;
      this.#argsJson = undefined;
      for (const key of this.#expanded) if (key.startsWith('arg')) this.#expanded.delete(key);
    }
  }

  protected override render(): TemplateResult {
    const state = this.invocation?.state ?? 'pending';
    const name = this.#displayName();
    return html`<article part="card" class="card" aria-label=${name}>
      ${this.#renderHeader(name, state)} ${this.#renderProgress(state)} ${this.#renderArgs()}
      ${this.#renderResult(state)} ${this.#renderDialog()}
    </article>`;
  }

  #displayName(): string {
    return this.tool?.title ?? this.tool?.name ?? this.invocation?.originalName ?? this.invocation?.tool ?? '';
  }

  #t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
    return msg(this, key, params);
  }

  #renderHeader(name: string, state: InvocationState): TemplateResult {
    const status = this.#t(`mcp.card.status.${state}`);
    const rawName = this.tool?.name ?? this.invocation?.originalName;
    return html`<header part="header" class="header">
      ${this.#renderIcon()}
      <div class="ident">
        <span part="name" class="name">${name}</span>
        ${rawName !== undefined && rawName !== name ? html`<code class="raw-name">${rawName}</code>` : nothing}
        ${this.#renderServer()}
      </div>
      <div class="status-area">
        <div part="badge" class="badge ${state}" role="status" aria-live="polite" data-state=${state}>
          ${
            state === 'running'
              ? html`<span class="dot" aria-hidden="true"></span>`
              : html`<span aria-hidden="true">${GLYPHS[state]}</span>`
          }
          <span class="label" aria-hidden="true">${status}</span>
          <span class="sr-only">${this.#t('mcp.card.announce', { tool: name, status })}</span>
        </div>
        ${
          state === 'error'
            ? html`<button type="button" part="retry" class="retry" @click=${this.#retry}>
                ${this.#t('mcp.card.retry')}
              </button>`
            : nothing
        }
      </div>
    </header>`;
  }

  #renderIcon(): TemplateResult {
    const src = safeIconSrc(this.tool?.icons?.[0]?.src);
    return html`<span part="icon" class="icon">
      ${
        src === undefined
          ? html`<span class="glyph" aria-hidden="true">🔧</span>`
          : html`<img src=${src} alt="" width="24" height="24" referrerpolicy="no-referrer" />`
      }
    </span>`;
  }

  #renderServer(): TemplateResult | typeof nothing {
    const serverId = this.invocation?.serverId;
    const server = this.server ?? (serverId ? { id: serverId, trusted: false } : undefined);
    if (server === undefined) return nothing;
    const trust = this.#t(server.trusted ? 'mcp.card.server_trusted' : 'mcp.card.server_untrusted');
    return html`<span part="server" class="chip ${server.trusted ? 'trusted' : 'untrusted'}">
      <span class="server-id">${server.id}</span>
      <span aria-hidden="true">·</span>
      <span class="trust">${trust}</span>
    </span>`;
  }

  #renderProgress(state: InvocationState): TemplateResult | typeof nothing {
    const progress = this.progress;
    if (state !== 'running' || progress === undefined) return nothing;
    const total = progress.total;
    const bar =
      total !== undefined && Number.isFinite(total) && total > 0
        ? html`<progress
            max=${total}
            .value=${Math.min(Math.max(progress.progress, 0), total)}
            aria-label=${this.#t('mcp.card.progress', {
              progress: this.#number(progress.progress),
              total: this.#number(total),
            })}
          ></progress>`
        : nothing;
    return html`<div part="progress" class="progress">
      ${bar} ${progress.message ? html`<span class="note">${progress.message}</span>` : nothing}
    </div>`;
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

  #renderResult(state: InvocationState): TemplateResult | typeof nothing {
    const result = this.result;
    const error = state === 'error' ? this.invocation?.error : undefined;
    if (result === undefined && !error) return nothing;
    return html`<details part="result" class="result" .open=${this.#resultOpen} @toggle=${this.#onResultToggle}>
      <summary>${this.#t('mcp.card.result')}</summary>
      ${
        this.#resultOpen
          ? html`${error ? html`<p class="error-message">${error.code}: ${error.message}</p>` : nothing}
            ${result === undefined ? nothing : renderResultBlocks(this.#context(), result, this.fullText)}`
          : nothing
      }
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

  #retry = (): void => {
    const id = this.invocation?.id;
    if (id !== undefined) this.dispatchEvent(new ToolRetryEvent({ invocationId: id }));
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
