import { html, LitElement, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ResourceScreenContent } from '@airlock/core';
import { api } from '../api-client.js';
import { t } from '../i18n.js';
import { routeQuery } from '../route.js';

interface Listed {
  readonly serverId: string;
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
}

interface ListedTemplate {
  readonly serverId: string;
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
}

interface Listing<T> {
  readonly items: readonly T[];
  readonly failures: readonly { readonly serverId: string; readonly message: string }[];
}

interface ListedPrompt {
  readonly serverId: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}

interface PromptPreview {
  readonly serverId: string;
  readonly name: string;
  readonly messages: readonly {
    readonly role: string;
    readonly kind: string;
    readonly text?: string;
    readonly truncated?: boolean;
  }[];
}

interface Preview {
  readonly serverId: string;
  readonly uri: string;
  readonly screen: readonly ResourceScreenContent[];
}

/** The variables of an RFC 6570 template (`{id}`, `{?q,page}`), in order, each once. */
function templateVariables(template: string): string[] {
  const names = [...template.matchAll(/\{[+#./;?&]?([^}]+)\}/g)].flatMap((m) =>
    (m[1] ?? '').split(',').map((v) => v.replace(/[*]|:\d+$/g, '').trim()),
  );
  return [...new Set(names.filter((n) => n !== ''))];
}

/**
 * The Resources page: what the user's servers offer besides tools, read on the user's behalf (bounded for the screen,
 * audited; the model is not given it). Resources by server, each with "Preview"; templates with a field per
 * variable. A preview shows text as text (never as HTML), a safe image or audio inline, anything else described.
 * Drawn in the page's own DOM (no shadow root), so the console's styles apply.
 */
export class ConsoleResourcesPage extends LitElement {
  static override properties = {
    resources: { state: true },
    templates: { state: true },
    preview: { state: true },
    prompts: { state: true },
    promptPreview: { state: true },
    error: { state: true },
  };

  declare resources: Listing<Listed> | undefined;
  declare templates: Listing<ListedTemplate> | undefined;
  declare preview: Preview | undefined;
  declare prompts: Listing<ListedPrompt> | undefined;
  declare promptPreview: PromptPreview | undefined;
  declare error: string | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
    // Opened from a card's resource link: that resource is read and shown at once.
    const query = routeQuery();
    const serverId = query.get('server');
    const uri = query.get('uri');
    if (serverId !== null && uri !== null) void this.#read({ serverId, uri });
  }

  async #load(): Promise<void> {
    try {
      [this.resources, this.templates, this.prompts] = await Promise.all([
        api<Listing<Listed>>('GET', '/api/resources'),
        api<Listing<ListedTemplate>>('GET', '/api/resource-templates'),
        api<Listing<ListedPrompt>>('GET', '/api/prompts'),
      ]);
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  async #read(body: Record<string, unknown>): Promise<void> {
    this.error = undefined;
    try {
      this.preview = await api<Preview>('POST', '/api/resources/read', body);
      void this.updateComplete.then(() =>
        this.querySelector('.resource-preview')?.scrollIntoView({ block: 'nearest' }),
      );
    } catch (error) {
      this.preview = undefined;
      this.error = (error as Error).message;
    }
  }

  async #getPrompt(event: SubmitEvent, prompt: ListedPrompt): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const args = Object.fromEntries(
      (prompt.arguments ?? [])
        .map((a) => [a.name, (form.elements.namedItem(a.name) as HTMLInputElement).value] as const)
        .filter(([, value]) => value !== ''),
    );
    this.error = undefined;
    try {
      this.promptPreview = await api<PromptPreview>('POST', '/api/prompts/get', {
        serverId: prompt.serverId,
        name: prompt.name,
        args,
      });
      void this.updateComplete.then(() => this.querySelector('.prompt-preview')?.scrollIntoView({ block: 'nearest' }));
    } catch (error) {
      this.promptPreview = undefined;
      this.error = (error as Error).message;
    }
  }

  #readTemplate(event: SubmitEvent, template: ListedTemplate): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const values = Object.fromEntries(
      templateVariables(template.uriTemplate).map((name) => [
        name,
        (form.elements.namedItem(name) as HTMLInputElement).value,
      ]),
    );
    void this.#read({ serverId: template.serverId, template: template.uriTemplate, values });
  }

  protected override render(): TemplateResult {
    const failures = [...(this.resources?.failures ?? []), ...(this.templates?.failures ?? [])];
    return html`<main class="single resources-page">
      <h2>${t('console.resources.title')}</h2>
      ${this.error === undefined ? nothing : html`<p class="error" role="alert">${this.error}</p>`}
      ${failures.map((f) => html`<p class="hint">${f.serverId}: ${f.message}</p>`)}
      <div class="resource-lists">${this.#resourcesView()} ${this.#templatesView()} ${this.#promptsView()}</div>
      <div class="resource-previews" tabindex="0" role="region" aria-label=${t('console.resources.opened')}>
        ${this.preview === undefined ? nothing : this.#previewView(this.preview)}
        ${this.promptPreview === undefined ? nothing : this.#promptPreviewView(this.promptPreview)}
      </div>
    </main>`;
  }

  #resourcesView(): TemplateResult {
    if (this.resources === undefined) return html`<p class="hint">${t('console.connecting')}</p>`;
    if (this.resources.items.length === 0) return html`<p class="hint">${t('console.resources.empty')}</p>`;
    return html`<ul class="resources">
      ${this.resources.items.map(
        (r) =>
          html`<li data-resource=${r.uri}>
            <strong>${r.title ?? r.name}</strong> <small class="hint">${r.serverId} · ${r.uri}</small>
            ${r.description === undefined ? nothing : html`<div class="hint">${r.description}</div>`}
            <button
              type="button"
              @click=${() => void this.#read({ serverId: r.serverId, uri: r.uri })}
              aria-label=${t('console.resources.preview_of', { name: r.title ?? r.name })}
            >
              ${t('console.resources.preview')}
            </button>
          </li>`,
      )}
    </ul>`;
  }

  #templatesView(): TemplateResult | typeof nothing {
    const templates = this.templates?.items ?? [];
    if (templates.length === 0) return nothing;
    return html`<h3>${t('console.resources.templates')}</h3>
      ${templates.map(
        (tpl) =>
          html`<form
            class="resource-template"
            data-template=${tpl.uriTemplate}
            @submit=${(e: SubmitEvent) => this.#readTemplate(e, tpl)}
          >
            <strong>${tpl.title ?? tpl.name}</strong> <small class="hint">${tpl.serverId} · ${tpl.uriTemplate}</small>
            ${templateVariables(tpl.uriTemplate).map(
              (name) => html`<label>${name} <input name=${name} required /></label>`,
            )}
            <button type="submit">${t('console.resources.read')}</button>
          </form>`,
      )}`;
  }

  #promptsView(): TemplateResult | typeof nothing {
    const prompts = this.prompts?.items ?? [];
    if (prompts.length === 0) return nothing;
    return html`<h3>${t('console.prompts.title')}</h3>
      ${prompts.map(
        (prompt) =>
          html`<form
            class="prompt-form"
            data-prompt=${prompt.name}
            @submit=${(e: SubmitEvent) => void this.#getPrompt(e, prompt)}
          >
            <strong>${prompt.title ?? prompt.name}</strong> <small class="hint">${prompt.serverId}</small>
            ${prompt.description === undefined ? nothing : html`<div class="hint">${prompt.description}</div>`}
            ${(prompt.arguments ?? []).map(
              (a) =>
                html`<label
                  >${a.name}${a.required === true ? ' *' : ''}
                  <input name=${a.name} ?required=${a.required === true} title=${a.description ?? ''}
                /></label>`,
            )}
            <button type="submit" aria-label=${t('console.prompts.show_of', { name: prompt.title ?? prompt.name })}>
              ${t('console.prompts.show')}
            </button>
          </form>`,
      )}`;
  }

  #promptPreviewView(preview: PromptPreview): TemplateResult {
    return html`<section class="prompt-preview" aria-label=${t('console.prompts.preview_title')}>
      <h3>${preview.name} <small class="hint">${preview.serverId}</small></h3>
      ${preview.messages.map(
        (m) =>
          html`<div class="prompt-message">
            <strong>${m.role}</strong>
            ${
              m.text === undefined
                ? html`<p class="hint">${t('console.prompts.other_content', { kind: m.kind })}</p>`
                : html`<pre class="resource-text">${m.text}</pre>`
            }
          </div>`,
      )}
    </section>`;
  }

  #previewView(preview: Preview): TemplateResult {
    return html`<section class="resource-preview" aria-label=${t('console.resources.preview_title')}>
      <h3>${preview.uri} <small class="hint">${preview.serverId}</small></h3>
      ${preview.screen.map((content) =>
        content.kind === 'text'
          ? html`<pre class="resource-text">${content.text}</pre>
              ${
                content.truncated
                  ? html`<p class="hint">
                      ${t('console.resources.cut', { shown: content.text.length, total: content.totalChars })}
                    </p>`
                  : nothing
              }`
          : content.render === 'inline' && content.mimeType?.startsWith('image/') === true
            ? html`<img alt=${content.uri} src=${`data:${content.mimeType};base64,${content.data ?? ''}`} />`
            : content.render === 'inline' && content.mimeType?.startsWith('audio/') === true
              ? html`<audio controls src=${`data:${content.mimeType};base64,${content.data ?? ''}`}></audio>`
              : html`<p class="hint">
                  ${t('console.resources.binary', { type: content.mimeType ?? '?', bytes: content.bytes })}
                </p>`,
      )}
    </section>`;
  }
}

customElements.define('console-resources-page', ConsoleResourcesPage);
