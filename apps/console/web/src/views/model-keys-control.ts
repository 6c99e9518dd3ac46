import { html, LitElement, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import { api } from '../api-client.js';
import { t } from '../i18n.js';
import type { ModelKeyView } from '../../../src/wire.js';
import '../model-keys.css';

/** What the model key routes answer with. */
interface ModelKeyList {
  readonly models: readonly ModelKeyView[];
}

/**
 * The user's own API keys for the chat's models that take one (`keyFrom: "user"` in the config), under the message
 * box: per model, whether a key of theirs is kept (never the key: the server does not send it back), a password field
 * to keep or replace one, and Forget. Folded unless a model has no key at all, so it stays out of the way once set.
 * Renders nothing when no model takes a user's key.
 */
export class ConsoleModelKeys extends LitElement {
  static override properties = {
    models: { state: true },
    error: { state: true },
    busy: { state: true },
    open: { state: true },
  };

  declare models: readonly ModelKeyView[] | undefined;
  declare error: string | undefined;
  declare busy: boolean;
  /** Open at first when a model has no key at all; the user's own folding wins after that. */
  declare open: boolean | undefined;

  constructor() {
    super();
    this.busy = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#run(() => api<ModelKeyList>('GET', '/api/model-keys'));
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  async #run(step: () => Promise<ModelKeyList>): Promise<boolean> {
    this.busy = true;
    try {
      this.models = (await step()).models;
      this.open ??= this.models.some((m) => !m.kept && !m.fromEnvironment);
      this.error = undefined;
      return true;
    } catch (error) {
      this.error = (error as Error).message;
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Keeps the key typed (the server trims it and checks it), and empties the field. */
  async #keep(event: SubmitEvent, model: ModelKeyView): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = new FormData(form).get('key');
    const key = typeof field === 'string' ? field : '';
    const path = `/api/model-keys/${encodeURIComponent(model.id)}`;
    if (await this.#run(() => api<ModelKeyList>('PUT', path, { key }))) form.reset();
  }

  #forget(model: ModelKeyView): Promise<boolean> {
    return this.#run(() => api<ModelKeyList>('DELETE', `/api/model-keys/${encodeURIComponent(model.id)}`));
  }

  /**
   * One endpoint's key: the models at one endpoint share it, so they share a row, named after them all (keeping and
   * forgetting go through the first of them).
   */
  #row(models: readonly ModelKeyView[]): TemplateResult {
    const model = models[0]!;
    const id = `model-key-${model.id}`;
    const names = models.map((m) => m.label).join(', ');
    const hint = model.fromEnvironment
      ? t('console.model_keys.fallback')
      : model.kept
        ? undefined
        : t('console.model_keys.required');
    return html`<li>
      <form class="model-key" data-model=${model.id} @submit=${(e: SubmitEvent) => this.#keep(e, model)}>
        <label for=${id}>${t('console.model_keys.key', { model: names, endpoint: model.endpoint })}</label>
        <span class="input-state" data-set=${String(model.kept)}
          >${t(model.kept ? 'console.model_keys.kept' : 'console.model_keys.not_kept')}</span
        >
        <div class="model-key-row">
          <input
            id=${id}
            name="key"
            type="password"
            autocomplete="off"
            spellcheck="false"
            required
            placeholder=${model.kept ? t('console.model_keys.replace_placeholder') : ''}
          />
          <button type="submit" ?disabled=${this.busy}>
            ${t(model.kept ? 'console.model_keys.replace' : 'console.model_keys.keep')}
          </button>
          ${
            model.kept
              ? html`<button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.#forget(model)}>
                  ${t('console.model_keys.forget')}
                </button>`
              : nothing
          }
        </div>
        ${hint === undefined ? nothing : html`<p class="hint">${hint}</p>`}
      </form>
    </li>`;
  }

  protected override render(): TemplateResult | typeof nothing {
    const models = this.models ?? [];
    if (models.length === 0) {
      return this.error === undefined ? nothing : html`<p class="error" role="alert">${this.error}</p>`;
    }
    const endpoints = new Map<string, ModelKeyView[]>();
    for (const model of models) endpoints.set(model.endpoint, [...(endpoints.get(model.endpoint) ?? []), model]);
    const needed = [...endpoints.values()].filter(([m]) => !m!.kept && !m!.fromEnvironment).length;
    return html`<details
      class="model-keys"
      ?open=${this.open}
      @toggle=${(event: Event) => (this.open = (event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        ${t('console.model_keys.title')}
        ${needed > 0 ? html`<span class="count">${t('console.model_keys.needed', { count: needed })}</span>` : nothing}
      </summary>
      <p class="hint">${t('console.model_keys.hint')}</p>
      <ul>
        ${[...endpoints.values()].map((shared) => this.#row(shared))}
      </ul>
      ${this.error === undefined ? nothing : html`<p class="error" role="alert">${this.error}</p>`}
    </details>`;
  }
}

customElements.define('console-model-keys', ConsoleModelKeys);
