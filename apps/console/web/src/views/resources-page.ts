import { html, LitElement, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Completions, PromptScreenContent } from '@airlock/core';
import { api } from '../api-client.js';
import { t } from '../i18n.js';
import { routeQuery } from '../route.js';
import { takeAskedResource } from '../resource-open.js';
import { groupByServer } from '../server-groups.js';
import { promptContentView } from './resource-content-view.js';
import type { ResourcePreviewData } from './resource-preview.js';
import './resource-preview.js';

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
  readonly messages: readonly { readonly role: string; readonly content: PromptScreenContent }[];
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
    suggestions: { state: true },
    error: { state: true },
    offered: { state: true },
  };

  declare resources: Listing<Listed> | undefined;
  declare templates: Listing<ListedTemplate> | undefined;
  declare preview: ResourcePreviewData | undefined;
  /** The server's completions for a template variable, by the id of the field's datalist. */
  declare suggestions: ReadonlyMap<string, readonly string[]>;
  declare prompts: Listing<ListedPrompt> | undefined;
  declare promptPreview: PromptPreview | undefined;
  declare error: string | undefined;
  /** A resource the page's address names that the user did not click to open: read only on a click here. */
  declare offered: { readonly serverId: string; readonly uri: string } | undefined;

  constructor() {
    super();
    this.suggestions = new Map();
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
    // Opened from a card's resource link: that resource is read and shown at once. An address that names one but came
    // from elsewhere offers it, read on a click: a link from another site never reads the user's resources by itself.
    const query = routeQuery();
    const serverId = query.get('server');
    const uri = query.get('uri');
    if (serverId !== null && uri !== null) {
      if (takeAskedResource(serverId, uri)) void this.#read({ serverId, uri });
      else this.offered = { serverId, uri };
    }
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
      this.preview = await api<ResourcePreviewData>('POST', '/api/resources/read', body);
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

  /** Asks the server for completions of the variable being typed (none when it offers none), given the others. */
  async #complete(event: Event, template: ListedTemplate, name: string, list: string): Promise<void> {
    const form = (event.target as HTMLInputElement).form!;
    const value = (k: string) => (form.elements.namedItem(k) as HTMLInputElement | null)?.value ?? '';
    const context = Object.fromEntries(
      templateVariables(template.uriTemplate)
        .filter((k) => k !== name && value(k) !== '')
        .map((k) => [k, value(k)]),
    );
    try {
      const done = await api<Completions>('POST', '/api/resources/complete', {
        serverId: template.serverId,
        template: template.uriTemplate,
        argument: { name, value: value(name) },
        context,
      });
      this.suggestions = new Map(this.suggestions).set(list, done.values);
    } catch {
      // Suggestions are a help: a server that cannot give them leaves the field as it is.
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
      ${this.offered === undefined ? nothing : this.#offeredView(this.offered)}
      <div class="resource-lists">${this.#resourcesView()} ${this.#templatesView()} ${this.#promptsView()}</div>
      <div class="resource-previews" tabindex="0" role="region" aria-label=${t('console.resources.opened')}>
        ${
          this.preview === undefined
            ? nothing
            : html`<console-resource-preview
                .preview=${this.preview}
                @console-resource-read=${(e: CustomEvent<{ serverId: string; uri: string }>) => void this.#read(e.detail)}
              ></console-resource-preview>`
        }
        ${this.promptPreview === undefined ? nothing : this.#promptPreviewView(this.promptPreview)}
      </div>
    </main>`;
  }

  #offeredView(offered: { readonly serverId: string; readonly uri: string }): TemplateResult {
    return html`<p class="resource-offered">
      ${t('console.resources.offered', { server: offered.serverId, uri: offered.uri })}
      <button
        type="button"
        @click=${() => {
          this.offered = undefined;
          void this.#read(offered);
        }}
      >
        ${t('console.resources.read')}
      </button>
    </p>`;
  }

  #resourcesView(): TemplateResult {
    if (this.resources === undefined) return html`<p class="hint">${t('console.connecting')}</p>`;
    if (this.resources.items.length === 0) return html`<p class="hint">${t('console.resources.empty')}</p>`;
    return html`${groupByServer(this.resources.items).map(
      (group) =>
        html`<section
          class="resource-group"
          data-server=${group.serverId}
          aria-labelledby=${`resources-of-${group.serverId}`}
        >
          <h3 id=${`resources-of-${group.serverId}`}>
            ${t('console.resources.of_server', { server: group.serverId })}
          </h3>
          ${this.#resourceList(group.items)}
        </section>`,
    )}`;
  }

  #resourceList(items: readonly Listed[]): TemplateResult {
    return html`<ul class="resources">
      ${items.map(
        (r) =>
          html`<li data-resource=${r.uri}>
            <strong>${r.title ?? r.name}</strong> <small class="hint">${r.uri}</small>
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
    return html`<section class="resource-group templates" aria-labelledby="resource-templates">
      <h3 id="resource-templates">${t('console.resources.templates')}</h3>
      ${groupByServer(templates).map(
        (group) =>
          html`<h4 data-server=${group.serverId}>${t('console.resources.of_server', { server: group.serverId })}</h4>
            ${group.items.map((tpl) => this.#templateForm(tpl, templates.indexOf(tpl)))}`,
      )}
    </section>`;
  }

  #templateForm(tpl: ListedTemplate, index: number): TemplateResult {
    return html`<form
      class="resource-template"
      data-template=${tpl.uriTemplate}
      @submit=${(e: SubmitEvent) => this.#readTemplate(e, tpl)}
    >
      <strong>${tpl.title ?? tpl.name}</strong> <small class="hint">${tpl.uriTemplate}</small>
      ${templateVariables(tpl.uriTemplate).map((name, i) => {
        const list = `complete-${tpl.serverId}-${index}-${i}`;
        return html`<label
          >${name}
          <input
            name=${name}
            required
            list=${list}
            autocomplete="off"
            @input=${(e: Event) => void this.#complete(e, tpl, name, list)}
          />
          <datalist id=${list} aria-label=${t('console.resources.suggestions')}>
            ${(this.suggestions.get(list) ?? []).map((v) => html`<option value=${v}></option>`)}
          </datalist></label
        >`;
      })}
      <button type="submit">${t('console.resources.read')}</button>
    </form>`;
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
            ${promptContentView(m.content)}
          </div>`,
      )}
    </section>`;
  }
}

customElements.define('console-resources-page', ConsoleResourcesPage);
