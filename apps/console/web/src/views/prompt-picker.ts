import { html, LitElement, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Completions, PromptScreenContent } from '@airlock/core';
import { api } from '../api-client.js';
import { t } from '../i18n.js';
import { promptContentView } from './resource-content-view.js';

interface ListedPrompt {
  readonly serverId: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly { readonly name: string; readonly description?: string; readonly required?: boolean }[];
}

/** A filled prompt as the console's API gives it: each message bounded for the screen. */
interface FilledPrompt {
  readonly serverId: string;
  readonly name: string;
  readonly messages: readonly { readonly role: 'user' | 'assistant'; readonly content: PromptScreenContent }[];
}

/** The slash command of a prompt: `/server:prompt`. */
export function slashCommand(prompt: Pick<ListedPrompt, 'serverId' | 'name'>): string {
  return `/${prompt.serverId}:${prompt.name}`;
}

/** The text a filled prompt puts in the message box: each message's text, with its role when a reply is among them. */
export function promptText(filled: FilledPrompt): string {
  const roles = filled.messages.some((m) => m.role !== 'user');
  return filled.messages
    .map(({ role, content }) => {
      const text =
        content.kind === 'text'
          ? content.text
          : content.kind === 'media'
            ? `[${content.type} ${content.mimeType}, ${content.bytes} bytes]`
            : content.kind === 'link'
              ? `[${content.name}: ${content.uri}]`
              : content.resource.kind === 'text'
                ? content.resource.text
                : `[${content.resource.uri}: ${content.resource.mimeType ?? '?'}, ${content.resource.bytes} bytes]`;
      return roles ? `${role}: ${text}` : text;
    })
    .join('\n\n');
}

/**
 * The servers' prompts as slash commands. Typing `/` at the start of the message box (`for`: its id) lists the
 * prompts whose `/server:prompt` holds what follows; choosing one opens a field per argument (with the server's
 * completions where it offers them), and the filled prompt's messages are put in the message box for the user to
 * review and send: nothing is sent on its own. Without a message box (no model configured) it has its own field and
 * shows the filled prompt as a preview. Server text (names, descriptions, messages) is shown as text.
 */
export class ConsolePromptPicker extends LitElement {
  static override properties = {
    for: { type: String },
    query: { state: true },
    prompts: { state: true },
    chosen: { state: true },
    preview: { state: true },
    suggestions: { state: true },
    note: { state: true },
  };

  /** The id of the message box the picker watches and fills; empty: the picker's own field, and a preview. */
  declare for: string;
  /** What follows `/` in the box while it is a command being typed; undefined when the list is closed. */
  declare query: string | undefined;
  declare prompts: readonly ListedPrompt[] | undefined;
  declare chosen: ListedPrompt | undefined;
  declare preview: FilledPrompt | undefined;
  declare suggestions: ReadonlyMap<string, readonly string[]>;
  declare note: string | undefined;
  readonly #onInput = (event: Event) => {
    if (event.target !== this.#box()) return;
    const typed = /^\/(\S*)$/.exec(this.#box()!.value);
    this.query = typed?.[1];
    if (typed !== null) void this.#load();
  };
  readonly #onKey = (event: KeyboardEvent) => {
    if (event.target !== this.#box() || this.query === undefined) return;
    if (event.key === 'Escape') this.query = undefined;
    const first = this.#matches()[0];
    if (event.key === 'Enter' && first !== undefined) {
      event.preventDefault();
      this.#choose(first);
    }
  };

  constructor() {
    super();
    this.for = '';
    this.suggestions = new Map();
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('input', this.#onInput);
    document.addEventListener('keydown', this.#onKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('input', this.#onInput);
    document.removeEventListener('keydown', this.#onKey);
  }

  /** The box typed in: the chat's message box, or the picker's own field. */
  #box(): HTMLTextAreaElement | HTMLInputElement | null {
    const id = this.for === '' ? 'prompt-command' : this.for;
    return document.getElementById(id) as HTMLTextAreaElement | HTMLInputElement | null;
  }

  async #load(): Promise<void> {
    if (this.prompts !== undefined) return;
    this.prompts = [];
    try {
      this.prompts = (await api<{ items: ListedPrompt[] }>('GET', '/api/prompts')).items;
    } catch (error) {
      this.prompts = undefined;
      this.note = (error as Error).message;
    }
  }

  #matches(): readonly ListedPrompt[] {
    const query = (this.query ?? '').toLowerCase();
    return (this.prompts ?? []).filter((p) => slashCommand(p).slice(1).toLowerCase().includes(query));
  }

  #choose(prompt: ListedPrompt): void {
    this.query = undefined;
    this.preview = undefined;
    this.note = undefined;
    this.chosen = prompt;
    this.suggestions = new Map();
    if ((prompt.arguments ?? []).length === 0) void this.#fill(prompt, {});
    else void this.updateComplete.then(() => this.querySelector<HTMLInputElement>('.prompt-arguments input')?.focus());
  }

  async #complete(event: Event, prompt: ListedPrompt, name: string, list: string): Promise<void> {
    const form = (event.target as HTMLInputElement).form!;
    const context = Object.fromEntries(
      (prompt.arguments ?? [])
        .map((a) => [a.name, (form.elements.namedItem(a.name) as HTMLInputElement).value] as const)
        .filter(([key, value]) => key !== name && value !== ''),
    );
    try {
      const done = await api<Completions>('POST', '/api/prompts/complete', {
        serverId: prompt.serverId,
        prompt: prompt.name,
        argument: { name, value: (event.target as HTMLInputElement).value },
        context,
      });
      this.suggestions = new Map(this.suggestions).set(list, done.values);
    } catch {
      // Suggestions are a help: a server that cannot give them leaves the field as it is.
    }
  }

  #submit(event: SubmitEvent, prompt: ListedPrompt): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const args = Object.fromEntries(
      (prompt.arguments ?? [])
        .map((a) => [a.name, (form.elements.namedItem(a.name) as HTMLInputElement).value] as const)
        .filter(([, value]) => value !== ''),
    );
    void this.#fill(prompt, args);
  }

  async #fill(prompt: ListedPrompt, args: Record<string, string>): Promise<void> {
    try {
      const filled = await api<FilledPrompt>('POST', '/api/prompts/get', {
        serverId: prompt.serverId,
        name: prompt.name,
        args,
      });
      this.chosen = undefined;
      const box = this.#box();
      if (this.for === '' || box === null) {
        this.preview = filled;
        return;
      }
      box.value = promptText(filled);
      box.focus();
      this.note = t('console.prompts.inserted');
    } catch (error) {
      this.note = (error as Error).message;
    }
  }

  protected override render(): TemplateResult {
    return html`${
      this.for === ''
        ? html`<label for="prompt-command">${t('console.prompts.try')}</label>
            <input id="prompt-command" autocomplete="off" placeholder="/" />`
        : nothing
    }
    ${this.query === undefined ? nothing : this.#listView()} ${this.chosen === undefined ? nothing : this.#form()}
    ${this.note === undefined ? nothing : html`<p class="hint" role="status">${this.note}</p>`}
    ${
      this.preview === undefined
        ? nothing
        : html`<section class="prompt-preview" aria-label=${t('console.prompts.preview_title')}>
            <h3>${slashCommand(this.preview)}</h3>
            ${this.preview.messages.map(
              (m) => html`<div class="prompt-message"><strong>${m.role}</strong> ${promptContentView(m.content)}</div>`,
            )}
          </section>`
    }`;
  }

  #listView(): TemplateResult {
    const matches = this.#matches();
    if (this.prompts !== undefined && matches.length === 0) {
      return html`<p class="hint">${t('console.prompts.none', { query: `/${this.query ?? ''}` })}</p>`;
    }
    return html`<ul class="prompt-commands" aria-label=${t('console.prompts.title')}>
      ${matches.map(
        (p) =>
          html`<li>
            <button type="button" @click=${() => this.#choose(p)}>${slashCommand(p)}</button>
            ${p.description === undefined ? nothing : html`<span class="hint">${p.description}</span>`}
          </li>`,
      )}
    </ul>`;
  }

  #form(): TemplateResult {
    const prompt = this.chosen!;
    const command = slashCommand(prompt);
    return html`<form
      class="prompt-arguments"
      aria-label=${t('console.prompts.arguments_of', { command })}
      @submit=${(e: SubmitEvent) => this.#submit(e, prompt)}
    >
      <strong>${command}</strong>
      ${(prompt.arguments ?? []).map((a, i) => {
        const list = `prompt-complete-${i}`;
        return html`<label
          >${a.name}${a.required === true ? ' *' : ''}
          <input
            name=${a.name}
            ?required=${a.required === true}
            title=${a.description ?? ''}
            list=${list}
            autocomplete="off"
            @input=${(e: Event) => void this.#complete(e, prompt, a.name, list)}
          />
          <datalist id=${list}>
            ${(this.suggestions.get(list) ?? []).map((v) => html`<option value=${v}></option>`)}
          </datalist></label
        >`;
      })}
      <button type="submit">${t(this.for === '' ? 'console.prompts.show' : 'console.prompts.insert')}</button>
      <button type="button" @click=${() => (this.chosen = undefined)}>${t('console.prompts.cancel')}</button>
    </form>`;
  }
}

customElements.define('console-prompt-picker', ConsolePromptPicker);
