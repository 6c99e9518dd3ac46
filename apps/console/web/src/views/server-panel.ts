import { html, LitElement, nothing } from 'lit';
import type { PropertyValues, TemplateResult } from 'lit';
import type { ServerLogLine, ToolSwitch, ToolSwitchLevel } from '@airlock/core';
import { api } from '../api-client.js';
import { locale, t } from '../i18n.js';
import { serverReason } from '../server-reason.js';
import type { InputView, ServerView, ToolEntry } from '../../../src/wire.js';
import '../server-panel.css';

/** The window event the page's stream dispatches for each `server.log` event (administrators' tabs only). */
export const SERVER_LOG_EVENT = 'console-server-log';

/** The `detail` of a {@link SERVER_LOG_EVENT}. */
export interface ServerLogDetail {
  readonly serverId: string;
  readonly line: ServerLogLine;
}

/** How many of a server's lines the panel keeps (the host keeps 200 per connection). */
const SHOWN_LINES = 200;

const clock = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
const time = (at: number): string => clock.format(new Date(at));

/**
 * `<console-server-panel>`: one server in the servers panel. Its trust (coloured as the tool card's chip), why it is
 * in its state (the last error, when it retries), and, opened: what it says of itself (protocol, capabilities, its
 * instructions as its own untrusted words), its counts, and a switch per tool: offered to the model or not, for the
 * user (anyone) or for the whole workspace (administrators). Administrators also see its command line or URL, the
 * tail of its stderr and log notifications (live: `SERVER_LOG_EVENT`), and switch it off or on for everyone.
 * Everything the server wrote is drawn as text. Drawn in the page's own DOM, so the console's styles apply.
 */
export class ConsoleServerPanel extends LitElement {
  static override properties = {
    server: { attribute: false },
    admin: { type: Boolean },
    workspace: { attribute: false },
    tools: { attribute: false },
    switches: { state: true },
    lines: { state: true },
    inputs: { state: true },
    error: { state: true },
  };

  declare server: ServerView | undefined;
  declare admin: boolean;
  declare workspace: string;
  /** The server's tools as the user sees them (the model's list may lack the ones switched off). */
  declare tools: readonly ToolEntry[];
  declare switches: readonly ToolSwitch[] | undefined;
  declare lines: readonly ServerLogLine[] | undefined;
  /** The config's inputs this server takes, with whether each has a value (never the value). */
  declare inputs: readonly InputView[] | undefined;
  declare error: string | undefined;
  #open = false;

  constructor() {
    super();
    this.admin = false;
    this.workspace = '';
    this.tools = [];
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener(SERVER_LOG_EVENT, this.#onLine);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener(SERVER_LOG_EVENT, this.#onLine);
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The tool lists were refetched (a switch changed here or in another tab): the switches are read again.
    if (this.#open && changed.has('tools') && changed.get('tools') !== undefined) void this.#loadSwitches();
  }

  readonly #onLine = (event: Event): void => {
    const { serverId, line } = (event as CustomEvent<ServerLogDetail>).detail;
    if (serverId !== this.server?.id || this.lines === undefined) return;
    if (this.lines.some((l) => l.seq === line.seq && l.at === line.at)) return;
    this.lines = [...this.lines, line].slice(-SHOWN_LINES);
  };

  #toggle(event: Event): void {
    this.#open = (event.currentTarget as HTMLDetailsElement).open;
    if (!this.#open) return;
    void this.#loadSwitches();
    void this.#loadInputs();
    if (this.admin) void this.#loadLines();
  }

  async #run(action: () => Promise<void>): Promise<void> {
    this.error = undefined;
    try {
      await action();
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  #loadSwitches(): Promise<void> {
    return this.#run(async () => {
      this.switches = await api<ToolSwitch[]>('GET', '/api/tool-switches');
    });
  }

  #inputsPath(input?: string): string {
    const id = encodeURIComponent(this.server?.id ?? '');
    return `/api/servers/${id}/inputs${input === undefined ? '' : `/${encodeURIComponent(input)}`}`;
  }

  #loadInputs(): Promise<void> {
    return this.#run(async () => {
      this.inputs = await api<InputView[]>('GET', this.#inputsPath());
    });
  }

  /** Saves the value typed (the server reconnects with it when it was not working), and empties the field. */
  #saveInput(event: SubmitEvent, input: InputView): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = new FormData(form).get('value');
    const value = typeof field === 'string' ? field : '';
    return this.#run(async () => {
      this.inputs = await api<InputView[]>('PUT', this.#inputsPath(input.id), { value });
      form.reset();
    });
  }

  #clearInput(input: InputView): Promise<void> {
    return this.#run(async () => {
      this.inputs = await api<InputView[]>('DELETE', this.#inputsPath(input.id));
    });
  }

  #loadLines(): Promise<void> {
    const id = encodeURIComponent(this.server?.id ?? '');
    return this.#run(async () => {
      this.lines = await api<ServerLogLine[]>('GET', `/api/servers/${id}/logs`);
    });
  }

  #switchTool(tool: string, level: ToolSwitchLevel, offered: boolean): Promise<void> {
    return this.#run(async () => {
      const answer = await api<{ switches: ToolSwitch[] }>('POST', '/api/tool-switches', {
        tool,
        level,
        hidden: !offered,
      });
      this.switches = answer.switches;
    });
  }

  #switchServer(enabled: boolean): Promise<void> {
    const id = encodeURIComponent(this.server?.id ?? '');
    return this.#run(async () => {
      await api('POST', `/api/servers/${id}/enabled`, { enabled });
    });
  }

  override render(): TemplateResult | typeof nothing {
    const s = this.server;
    if (s === undefined) return nothing;
    const reason = serverReason(s, time);
    return html`<span class="trust-chip ${s.trusted ? 'trusted' : 'untrusted'}" data-trust=${String(s.trusted)}
        >${t(s.trusted ? 'console.server_panel.trusted' : 'console.server_panel.untrusted')}</span
      >
      ${
        reason.length === 0
          ? nothing
          : html`<p class="server-reason" data-reason=${s.state}>
              ${reason.map((line) => html`<span>${t(line.key, line.params)}</span> `)}
            </p>`
      }
      <details class="server-about" @toggle=${(event: Event) => this.#toggle(event)}>
        <summary id=${`about-${s.id}`}>${t('console.servers.about', { server: s.id })}</summary>
        ${this.#facts(s)} ${this.#inputsPart()} ${this.#toolSwitches(s)} ${this.admin ? this.#adminPart(s) : nothing}
        ${this.error === undefined ? nothing : html`<p class="error" role="alert">${this.error}</p>`}
      </details>`;
  }

  #facts(s: ServerView): TemplateResult {
    const about = s.about;
    const name = [about?.name, about?.version].filter((v) => v !== undefined).join(' ');
    return html`<dl>
      ${
        this.admin && s.origin !== undefined
          ? html`<dt>
                ${t(s.transport === 'http' ? 'console.server_panel.origin_url' : 'console.server_panel.origin_command')}
              </dt>
              <dd><code class="server-origin">${s.origin}</code></dd>`
          : nothing
      }
      <dt>${t('console.servers.about_version')}</dt>
      <dd>${name || '—'}</dd>
      <dt>${t('console.server_panel.protocol')}</dt>
      <dd data-protocol>${s.protocolVersion ?? '—'}</dd>
      <dt>${t('console.servers.about_capabilities')}</dt>
      <dd data-capabilities>${about?.capabilities.join(', ') || '—'}</dd>
      <dt>${t('console.server_panel.counts')}</dt>
      <dd data-counts>
        ${t('console.server_panel.counts_value', {
          tools: String(s.toolCount),
          resources: countOf(s.resourceCount, 'resources', about?.capabilities),
          prompts: countOf(s.promptCount, 'prompts', about?.capabilities),
        })}
      </dd>
      ${
        about?.instructions === undefined
          ? nothing
          : html`<dt id=${`instructions-${s.id}`}>${t('console.servers.about_instructions')}</dt>
              <dd>
                <pre
                  class="server-instructions"
                  role="region"
                  tabindex="0"
                  aria-labelledby=${`about-${s.id} instructions-${s.id}`}
                >
${about.instructions}</pre>
              </dd>`
      }
    </dl>`;
  }

  #inputsPart(): TemplateResult | typeof nothing {
    const inputs = this.inputs ?? [];
    if (inputs.length === 0) return nothing;
    return html`<section class="server-inputs">
      <h3>${t('console.server_panel.inputs')}</h3>
      <p class="hint">${t('console.server_panel.inputs_hint')}</p>
      ${inputs.map((input) => {
        const locked = input.shared && !this.admin;
        const label = input.description ?? input.id;
        return html`<form data-input=${input.id} @submit=${(e: SubmitEvent) => this.#saveInput(e, input)}>
          <label>
            ${label}
            <span class="input-state" data-set=${String(input.set)}
              >${t(input.set ? 'console.server_panel.input_set' : 'console.server_panel.input_not_set')}</span
            >
            ${
              input.options === undefined
                ? html`<input
                    name="value"
                    type=${input.password ? 'password' : 'text'}
                    autocomplete="off"
                    required
                    ?disabled=${locked}
                  />`
                : html`<select name="value" ?disabled=${locked}>
                    ${input.options.map((option) => html`<option value=${option}>${option}</option>`)}
                  </select>`
            }
          </label>
          <button type="submit" ?disabled=${locked}>${t('console.server_panel.input_save')}</button>
          ${
            input.set && !locked
              ? html`<button type="button" class="secondary" @click=${() => this.#clearInput(input)}>
                  ${t('console.server_panel.input_clear')}
                </button>`
              : nothing
          }
          ${locked ? html`<p class="hint">${t('console.server_panel.input_shared')}</p>` : nothing}
        </form>`;
      })}
    </section>`;
  }

  #toolSwitches(s: ServerView): TemplateResult {
    const hiddenAt = ({ tool }: ToolEntry, level: ToolSwitchLevel) => {
      const origin = tool.origin;
      if (origin.kind !== 'mcp') return false;
      return (this.switches ?? []).some(
        (sw) => sw.serverId === s.id && sw.tool === origin.originalName && sw.level === level,
      );
    };
    return html`<section class="tool-switches">
      <h3>${t('console.server_panel.tools')}</h3>
      <p class="hint">${t('console.server_panel.tools_hint')}</p>
      ${
        this.tools.length === 0
          ? html`<p class="muted">${t('console.server_panel.no_tools')}</p>`
          : html`<ul class="tool-switch-list" role="list" tabindex="0" aria-label=${t('console.server_panel.tools')}>
              ${this.tools.map((entry) => {
                const name = entry.tool.name;
                const forWorkspace = hiddenAt(entry, 'workspace');
                const forMe = hiddenAt(entry, 'user');
                return html`<li data-tool-switch=${name}>
                  <label>
                    <input
                      type="checkbox"
                      role="switch"
                      data-level="user"
                      .checked=${!forMe && !forWorkspace}
                      ?disabled=${this.switches === undefined || (forWorkspace && !forMe)}
                      @change=${(e: Event) => this.#switchTool(name, 'user', (e.target as HTMLInputElement).checked)}
                    />
                    ${t('console.server_panel.tool_for_me', { tool: entry.tool.title ?? name })}
                  </label>
                  ${
                    this.admin
                      ? html`<label class="workspace-switch">
                          <input
                            type="checkbox"
                            role="switch"
                            data-level="workspace"
                            .checked=${!forWorkspace}
                            ?disabled=${this.switches === undefined}
                            @change=${(e: Event) =>
                              this.#switchTool(name, 'workspace', (e.target as HTMLInputElement).checked)}
                          />
                          ${t('console.server_panel.tool_for_workspace', { workspace: this.workspace })}
                        </label>`
                      : forWorkspace
                        ? html`<span class="hint">${t('console.server_panel.tool_hidden_workspace')}</span>`
                        : nothing
                  }
                </li>`;
              })}
            </ul>`
      }
    </section>`;
  }

  #adminPart(s: ServerView): TemplateResult {
    const lines = this.lines ?? [];
    const text = lines
      .map((l) => `${time(l.at)} ${l.source}${l.level === undefined ? '' : ` ${l.level}`} ${l.text}`)
      .join('\n');
    return html`<section class="server-log-part">
      <h3 id=${`log-${s.id}`}>${t('console.server_panel.log')}</h3>
      ${
        lines.length === 0
          ? html`<p class="muted">${t('console.server_panel.log_empty')}</p>`
          : html`<pre class="server-log" role="log" tabindex="0" aria-labelledby=${`log-${s.id}`}>${text}</pre>`
      }
      <p class="hint">${t('console.server_panel.disable_hint')}</p>
      <button
        type="button"
        class="secondary"
        data-server-switch=${s.disabled ? 'on' : 'off'}
        @click=${() => this.#switchServer(s.disabled)}
      >
        ${t(s.disabled ? 'console.server_panel.enable' : 'console.server_panel.disable', { server: s.id })}
      </button>
    </section>`;
  }
}

customElements.define('console-server-panel', ConsoleServerPanel);

/**
 * A count of what a server offers: none ("0") when its capabilities leave the kind out, a dash when it is not known
 * yet, so "24 tools, 4 resources, 0 prompts" rather than "— prompts" for a server without prompts.
 */
function countOf(count: number | undefined, kind: string, capabilities: readonly string[] | undefined): string {
  if (count !== undefined) return String(count);
  return capabilities !== undefined && !capabilities.includes(kind) ? '0' : '—';
}
