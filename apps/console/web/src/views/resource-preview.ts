import { html, LitElement, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { ResourceScreenContent, WholeRead } from '@airlock/core';
import { api } from '../api-client.js';
import { t } from '../i18n.js';
import { resourceContentView } from './resource-content-view.js';

/** A read as the console's API gives it: the screen's share, and the handle the whole read is kept behind. */
export interface ResourcePreviewData {
  readonly serverId: string;
  readonly uri: string;
  readonly screen: readonly ResourceScreenContent[];
  readonly totalChars: number;
  readonly handle?: string;
}

/** What the page is told when a followed resource changed on its server (the console relays `resource.updated`). */
export const RESOURCE_UPDATED_EVENT = 'console-resource-updated';

/**
 * One read on the Resources page: its contents (text as text, safe media inline, the rest described), and what can be
 * done with it: show all of a cut text and copy the whole (both fetched by the read's handle, never read again from
 * the server), a full-size view in a modal dialog, and following the resource's updates (the server is subscribed to;
 * an update reads it again and says when). Drawn in the page's own DOM, so the console's styles apply.
 *
 * Events: `console-resource-read` (detail: `{ serverId, uri }`) asks the page to read the resource again.
 */
export class ConsoleResourcePreview extends LitElement {
  static override properties = {
    preview: { attribute: false },
    whole: { state: true },
    following: { state: true },
    updatedAt: { state: true },
    note: { state: true },
    fullSize: { state: true },
  };

  declare preview: ResourcePreviewData;
  /** The contents whole, once fetched by handle ("show all"). */
  declare whole: readonly ResourceScreenContent[] | undefined;
  declare following: boolean;
  declare updatedAt: number | undefined;
  declare note: string | undefined;
  /** The full-size view is open: its contents are drawn only then (a second copy of a long text costs). */
  declare fullSize: boolean;
  readonly #onUpdated = (event: Event) => {
    const { serverId, uri } = (event as CustomEvent<{ serverId: string; uri: string }>).detail;
    if (!this.following || serverId !== this.preview.serverId || uri !== this.preview.uri) return;
    this.updatedAt = Date.now();
    this.dispatchEvent(new CustomEvent('console-resource-read', { detail: { serverId, uri }, bubbles: true }));
  };

  constructor() {
    super();
    this.following = false;
    this.fullSize = false;
  }

  async #openFullSize(): Promise<void> {
    this.fullSize = true;
    await this.updateComplete;
    this.querySelector('dialog')?.showModal();
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(RESOURCE_UPDATED_EVENT, this.#onUpdated);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener(RESOURCE_UPDATED_EVENT, this.#onUpdated);
    if (this.following) void this.#follow(false);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    const before = changed.get('preview');
    if (before !== undefined && (before.uri !== this.preview.uri || before.serverId !== this.preview.serverId)) {
      if (this.following) void this.#follow(false, before);
      this.following = false;
      this.updatedAt = undefined;
    }
    if (changed.has('preview')) {
      this.whole = undefined;
      this.note = undefined;
    }
  }

  /** The whole contents by the read's handle, shaped as the screen's (text uncut; media as the screen carried it). */
  async #fetchWhole(): Promise<readonly ResourceScreenContent[]> {
    const { handle, screen } = this.preview;
    if (handle === undefined) return screen;
    const whole = await api<WholeRead>('POST', '/api/resources/whole', { handle });
    return whole.contents.map((c, i): ResourceScreenContent => {
      if ('text' in c && typeof c.text === 'string') {
        const mime = c.mimeType === undefined ? {} : { mimeType: c.mimeType };
        return { kind: 'text', uri: c.uri, ...mime, text: c.text, totalChars: c.text.length, truncated: false };
      }
      return screen[i]!;
    });
  }

  async #showAll(): Promise<void> {
    try {
      this.whole = await this.#fetchWhole();
    } catch (error) {
      this.note = (error as Error).message;
    }
  }

  async #copy(): Promise<void> {
    try {
      const contents = this.whole ?? (await this.#fetchWhole());
      const text = contents.map((c) => (c.kind === 'text' ? c.text : '')).join('\n');
      await navigator.clipboard.writeText(text);
      this.note = t('console.resources.copied');
    } catch (error) {
      this.note = (error as Error).message;
    }
  }

  async #follow(on: boolean, which: ResourcePreviewData = this.preview): Promise<void> {
    try {
      await api('POST', on ? '/api/resources/subscribe' : '/api/resources/unsubscribe', {
        serverId: which.serverId,
        uri: which.uri,
      });
      if (which === this.preview) this.following = on;
    } catch (error) {
      this.note = (error as Error).message;
    }
  }

  protected override render(): TemplateResult {
    const { preview } = this;
    const contents = this.whole ?? preview.screen;
    const cut = this.whole === undefined && preview.screen.some((c) => c.kind === 'text' && c.truncated);
    return html`<section class="resource-preview" aria-label=${t('console.resources.preview_title')}>
      <h3>${preview.uri} <small class="hint">${preview.serverId}</small></h3>
      <div class="resource-actions">
        ${
          cut && preview.handle !== undefined
            ? html`<button type="button" class="show-all" @click=${() => void this.#showAll()}>
                ${t('console.resources.show_all')}
              </button>`
            : nothing
        }
        <button type="button" class="copy" @click=${() => void this.#copy()}>${t('console.resources.copy')}</button>
        <button type="button" class="full-size" @click=${() => void this.#openFullSize()}>
          ${t('console.resources.full_size')}
        </button>
        <button
          type="button"
          class="follow"
          aria-pressed=${String(this.following)}
          @click=${() => void this.#follow(!this.following)}
        >
          ${t(this.following ? 'console.resources.unsubscribe' : 'console.resources.subscribe')}
        </button>
      </div>
      ${this.note === undefined ? nothing : html`<p class="hint" role="status">${this.note}</p>`}
      ${
        this.updatedAt === undefined
          ? nothing
          : html`<p class="hint resource-updated" role="status">
              ${t('console.resources.updated', { time: new Date(this.updatedAt).toLocaleTimeString() })}
            </p>`
      }
      ${contents.map(resourceContentView)}
      <dialog class="resource-full" aria-label=${preview.uri} @close=${() => (this.fullSize = false)}>
        ${
          this.fullSize
            ? html`<button
                  type="button"
                  class="close"
                  @click=${(e: Event) => (e.target as HTMLElement).closest('dialog')?.close()}
                >
                  ${t('console.resources.close')}
                </button>
                <p><strong>${preview.uri}</strong></p>
                ${contents.map(resourceContentView)}`
            : nothing
        }
      </dialog>
    </section>`;
  }
}

customElements.define('console-resource-preview', ConsoleResourcePreview);
