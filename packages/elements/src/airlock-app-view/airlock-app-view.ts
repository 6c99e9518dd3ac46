import { html, LitElement, nothing } from 'lit';
import type { PropertyDeclarations, PropertyValues, TemplateResult } from 'lit';
import type { AppBridge } from '@modelcontextprotocol/ext-apps/app-bridge';
import { elementLocale, msg } from '../shared/localize.js';
import { baseStyles } from '../shared/tokens.js';
import {
  AppCallEvent,
  AppLinkOpenedEvent,
  AppMessageEvent,
  AppModelContextEvent,
  AppOpenLinkEvent,
  AppRefusedEvent,
} from './app-view-events.js';
import type { AppCallResult, AppModelContext } from './app-view-events.js';
import { DISPLAY_MODES, displayModeStyles, renderModeToggle } from './display-mode.js';
import type { ViewDisplayMode } from './display-mode.js';
import { linkConsentStyles, renderLinkConsent } from './link-consent.js';
import { renderMessageConsent } from './message-consent.js';
import type { PendingMessage } from './message-consent.js';
import type { PendingLink } from './link-consent.js';
import { appViewStyles } from './app-view-styles.js';
import { allowAttribute, permissionsObject, renderPermissionConsent, ViewPermissions } from './permission-consent.js';
import { viewDocument } from './view-document.js';
import { ViewInput } from './view-input.js';
import { REFUSALS, VIEW_SANDBOX } from './app-view-source.js';
import type { AppViewSource } from './app-view-source.js';

/**
 * `<airlock-app-view>`: an MCP Apps view (a server's `text/html;profile=mcp-app` resource), rendered behind a sandbox
 * proxy on another origin than the page, in an inner frame with `sandbox="allow-scripts"` only (no same-origin
 * access to anything, no popups, no top navigation) and a Content-Security-Policy built from the resource's declared
 * origins and nothing more. A browser feature (camera, microphone, geolocation, clipboard write) is granted only when
 * the view's resource declares it and the user allows it, asked once per view before the view is shown; the frames'
 * `allow` lists exactly those, so an undeclared or refused feature is never the view's.
 *
 * The host side of the protocol is the MCP Apps `AppBridge`, built with no MCP client: every `tools/call` of the view
 * becomes an `airlock-app-call` event the page answers through its host as caller app, and nothing is sent to the
 * view before its `ui/notifications/initialized`. Then it gets the tool's input and result (and each new result).
 *
 * @property proxyUrl - (attribute `proxy-url`) the sandbox proxy page; refused when it has the page's own origin.
 * @property view - the view: `{ serverId, tool, uri, html, csp }`.
 * @property toolInput - the arguments of the call that opened the view.
 * @property toolInputPartial - while the model still writes that call: its arguments so far, sent to the view as
 *   `ui/notifications/tool-input-partial` until `toolInput` is set (display only; the call is made from the whole).
 * @property toolResult - that call's result, once it has one.
 * @property theme - `light` or `dark` (host context); default from the user's colour-scheme preference.
 * @property failure - why the page could not get the view: shown in its place.
 * @property minHeight, maxHeight - the bounds of the height a view may ask for (px; defaults 120 and 720).
 * @fires airlock-app-call - {@link AppCallEvent}: the view asked for a tool call; answer with `detail.respondWith`.
 * @fires airlock-app-refused - {@link AppRefusedEvent}: a request of the view was refused, and why.
 * @csspart frame - the proxy frame. @csspart error - why no view is shown.
 */
export class AirlockAppView extends LitElement {
  static override properties: PropertyDeclarations = {
    proxyUrl: { type: String, attribute: 'proxy-url' },
    view: { attribute: false },
    toolInput: { attribute: false },
    toolInputPartial: { attribute: false },
    toolResult: { attribute: false },
    theme: { type: String },
    minHeight: { type: Number, attribute: 'min-height' },
    maxHeight: { type: Number, attribute: 'max-height' },
    failure: { type: String },
    messages: { type: Boolean },
  };

  /** The shadow root's styles: the shared base, then this element's own. */
  static override styles = [baseStyles, linkConsentStyles, displayModeStyles, appViewStyles];

  proxyUrl = '';
  view: AppViewSource | undefined;
  toolInput: Readonly<Record<string, unknown>> | undefined;
  toolInputPartial: Readonly<Record<string, unknown>> | undefined;
  toolResult: AppCallResult | undefined;
  theme: 'light' | 'dark' | undefined;
  minHeight = 120;
  maxHeight = 720;
  /** Why the page could not get the view (shown instead of it); empty when there is nothing wrong. */
  failure = '';
  /** Whether the page takes a view's messages into its conversation (a chat); otherwise they are refused. */
  messages = false;

  #bridge: AppBridge | undefined;
  #initialized = false;
  readonly #input = new ViewInput();
  #height: number | undefined;
  #error = '';
  #link: PendingLink | undefined;
  /** What the live region says: "Opening external page" once a link the user allowed opened (seed 001 R7). */
  #announce = '';
  /** A link ask is under way (from the view's request until the user's answer). */
  #asking = false;
  #message: PendingMessage | undefined;
  #mode: ViewDisplayMode = 'inline';
  #modelContext: AppModelContext | undefined;
  /** The browser features granted to the view (its frames' `allow`), or waiting for the user's answer. */
  readonly #features = new ViewPermissions();
  /** Bumped on each start: a start overtaken by a newer one (or a disconnect) stops where it is. */
  #generation = 0;
  /** The consent shown at the last update, so a new one is brought into view once. */
  #consentShown: Element | null = null;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stop();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated && this.#bridge === undefined) void this.#start();
  }

  protected override updated(changed: PropertyValues<this>): void {
    // A consent the view asked for is drawn above its frame, which the user may have scrolled past: bring it in.
    const consent = this.shadowRoot?.querySelector('.consent') ?? null;
    if (consent !== null && consent !== this.#consentShown) consent.scrollIntoView({ block: 'nearest' });
    this.#consentShown = consent;
    if (changed.has('view') || changed.has('proxyUrl')) {
      void this.#start();
      return;
    }
    if (!this.#initialized || this.#bridge === undefined) return;
    if (changed.has('toolInput') || changed.has('toolInputPartial')) {
      this.#input.send(this.#bridge, this.toolInput, this.toolInputPartial);
    }
    if (changed.has('toolResult') && this.toolResult !== undefined) {
      void this.#bridge.sendToolResult(this.toolResult as never);
    }
  }

  protected override render(): TemplateResult | typeof nothing {
    const error = this.failure !== '' ? this.failure : this.#error;
    if (error !== '') return html`<p class="error" part="error" role="alert">${error}</p>`;
    if (this.view === undefined) return nothing;
    if (this.#features.pending !== undefined) return renderPermissionConsent(this, this.#features.pending);
    const height = Math.min(Math.max(this.#height ?? this.minHeight, this.minHeight), this.maxHeight);
    return html`${renderModeToggle(this, this.#mode, () => this.#setMode(this.#mode === 'inline' ? 'fullscreen' : 'inline'))}
      <p class="announce" part="announce" role="status">${this.#announce}</p>
      ${this.#link === undefined ? nothing : renderLinkConsent(this, this.#link)}
      ${this.#message === undefined ? nothing : renderMessageConsent(this, this.#message)}<iframe
        part="frame"
        title=${this.view === undefined ? 'view' : `${this.view.tool} view`}
        sandbox="allow-scripts allow-same-origin"
        referrerpolicy="no-referrer"
        allow=${allowAttribute(this.#features.granted)}
        style="height: ${height}px"
      ></iframe
      >${
        this.#modelContext === undefined
          ? nothing
          : html`<div class="context" part="model-context">
              <p class="context-title">${msg(this, 'mcp.app.view.model_context')}</p>
              <p class="context-text">${this.#modelContext.text}${this.#modelContext.truncated ? ' …' : ''}</p>
            </div>`
      }`;
  }

  /** The proxy's URL, or why it cannot be used: it must be http(s) and another origin than this page's. */
  #proxy(): URL | string {
    let url: URL;
    try {
      url = new URL(this.proxyUrl, location.href);
    } catch {
      return `the sandbox proxy URL ${JSON.stringify(this.proxyUrl)} is not a URL`;
    }
    if (this.proxyUrl === '' || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      return 'no sandbox proxy is configured (proxy-url), so no view is shown';
    }
    if (url.origin === location.origin) {
      return `the sandbox proxy ${url.origin} has this page's origin; a view is shown only behind another origin`;
    }
    return url;
  }

  async #start(): Promise<void> {
    this.#stop();
    const generation = ++this.#generation;
    if (this.view === undefined) return;
    const proxy = this.#proxy();
    this.#error = typeof proxy === 'string' ? proxy : '';
    // A view that declares browser features is shown once the user answered (here or for the same view elsewhere).
    if (typeof proxy !== 'string' && !this.#features.settle(this.view, () => void this.#start())) {
      this.requestUpdate();
      return;
    }
    this.requestUpdate();
    await this.updateComplete;
    if (typeof proxy === 'string' || generation !== this.#generation) return;
    const frame = this.renderRoot.querySelector('iframe');
    const target = frame?.contentWindow;
    if (frame === null || target === null || target === undefined) return;
    const { AppBridge, PostMessageTransport } = await import('@modelcontextprotocol/ext-apps/app-bridge');
    if (generation !== this.#generation) return;
    const view = this.view;
    const bridge = new AppBridge(
      null,
      { name: 'airlock', version: '0.1.0' },
      {
        serverTools: {},
        sandbox: { permissions: permissionsObject(this.#features.granted), csp: { ...view.csp } as never },
      },
      { hostContext: this.#context() },
    );
    this.#wire(bridge, view);
    this.#bridge = bridge;
    await bridge.connect(new PostMessageTransport(target, target));
    if (generation !== this.#generation) return;
    frame.src = proxy.href;
  }

  #wire(bridge: AppBridge, view: AppViewSource): void {
    const granted = this.#features.granted;
    bridge.onsandboxready = () => {
      void bridge.sendSandboxResourceReady({
        html: viewDocument(view.html, view.csp),
        sandbox: VIEW_SANDBOX,
        csp: { ...view.csp } as never,
        permissions: permissionsObject(granted),
      });
    };
    bridge.oninitialized = () => {
      this.#initialized = true;
      this.#input.send(bridge, this.toolInput, this.toolInputPartial);
      if (this.toolResult !== undefined) void bridge.sendToolResult(this.toolResult as never);
    };
    bridge.oncalltool = (params) => this.#call(view.serverId, params.name, params.arguments ?? {}) as never;
    bridge.onsizechange = ({ height }) => {
      if (typeof height !== 'number' || !Number.isFinite(height)) return;
      this.#height = Math.ceil(height);
      this.requestUpdate();
    };
    bridge.onrequestdisplaymode = ({ mode }) => {
      if ((DISPLAY_MODES as readonly string[]).includes(mode)) this.#setMode(mode as ViewDisplayMode);
      else this.#refused('ui/request-display-mode', `this host shows views inline or full size, not ${mode}`);
      return Promise.resolve({ mode: this.#mode });
    };
    const refuse = (method: keyof typeof REFUSALS) => () => {
      this.#refused(method, REFUSALS[method]);
      return Promise.reject(new Error(REFUSALS[method]));
    };
    bridge.onopenlink = ({ url }) => this.#openLink(view, url);
    bridge.onmessage = ({ content }) => (this.messages ? this.#sendMessage(view, content) : refuse('ui/message')());
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const event = new AppModelContextEvent({
        serverId: view.serverId,
        tool: view.tool,
        content: content ?? [],
        ...(structuredContent === undefined ? {} : { structuredContent }),
      });
      this.dispatchEvent(event);
      if (event.answer === undefined) return refuse('ui/update-model-context')();
      this.#modelContext = await event.answer;
      this.requestUpdate();
      return {};
    };
    bridge.ondownloadfile = refuse('ui/download-file');
    bridge.onreadresource = refuse('resources/read');
    bridge.onlistresources = refuse('resources/list');
    bridge.onlistresourcetemplates = refuse('resources/templates/list');
    bridge.onlistprompts = refuse('prompts/list');
    bridge.oncreatesamplingmessage = refuse('sampling/createMessage');
    bridge.onloggingmessage = () => undefined;
    bridge.onrequestteardown = () => void bridge.teardownResource({}, { timeout: 1000 }).catch(() => undefined);
  }

  #call(serverId: string, name: string, args: Readonly<Record<string, unknown>>): Promise<AppCallResult> {
    const event = new AppCallEvent({ serverId, name, args });
    this.dispatchEvent(event);
    return event.answer ?? Promise.reject(new Error('this page does not route tool calls from views'));
  }

  /**
   * A link the view asked for: the page describes it (or refuses), the user sees the whole address and consents;
   * only then is it opened, in a new tab with no opener. One at a time: a second ask while one waits is refused.
   */
  async #openLink(view: AppViewSource, url: string): Promise<Record<string, never>> {
    // Claimed before anything is awaited: a second ask meanwhile cannot slip its address under this one's consent.
    if (this.#asking || this.#link !== undefined) throw new Error('another link is already waiting for the user');
    this.#asking = true;
    let inspection: Awaited<NonNullable<AppOpenLinkEvent['answer']>>;
    try {
      const event = new AppOpenLinkEvent({ serverId: view.serverId, tool: view.tool, url });
      this.dispatchEvent(event);
      if (event.answer === undefined) {
        this.#refused('ui/open-link', REFUSALS['ui/open-link']);
        throw new Error(REFUSALS['ui/open-link']);
      }
      inspection = await event.answer;
    } catch (error) {
      this.#asking = false;
      throw error;
    }
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#link = undefined;
        this.#asking = false;
        this.requestUpdate();
      };
      this.#announce = '';
      this.#link = {
        inspection,
        open: () => {
          this.#announce = msg(this, 'mcp.elicitation.url_mode.opening');
          done();
          window.open(inspection.url, '_blank', 'noopener,noreferrer');
          this.dispatchEvent(new AppLinkOpenedEvent({ serverId: view.serverId, tool: view.tool, url: inspection.url }));
          resolve({});
        },
        cancel: () => {
          done();
          reject(new Error('the user chose not to open the link'));
        },
      };
      this.requestUpdate();
    });
  }

  /** Inline in the card or full size over the page (Escape brings it back); the view is told its new context. */
  #setMode(mode: ViewDisplayMode): void {
    if (mode === this.#mode) return;
    this.#mode = mode;
    this.setAttribute('display-mode', mode);
    if (mode === 'fullscreen') document.addEventListener('keydown', this.#onKey);
    else document.removeEventListener('keydown', this.#onKey);
    this.requestUpdate();
    if (this.#initialized) void this.#bridge?.sendHostContextChange({ displayMode: mode });
  }

  readonly #onKey = (event: KeyboardEvent): void => {
    if (event.key === 'Escape') this.#setMode('inline');
  };

  /** A view's message: its text shown for consent; only on Send does the page put it into the conversation. */
  #sendMessage(
    view: AppViewSource,
    content: readonly { type: string; text?: string }[],
  ): Promise<Record<string, never>> {
    const text = content.flatMap((block) =>
      block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
    );
    if (text.length === 0) return Promise.reject(new Error('this host takes text messages from views only'));
    if (this.#message !== undefined)
      return Promise.reject(new Error('another message is already waiting for the user'));
    return new Promise((resolve, reject) => {
      const done = () => {
        this.#message = undefined;
        this.requestUpdate();
      };
      this.#message = {
        text: text.join('\n'),
        send: () => {
          done();
          const event = new AppMessageEvent({ serverId: view.serverId, tool: view.tool, text: text.join('\n') });
          this.dispatchEvent(event);
          (event.answer ?? Promise.reject(new Error(REFUSALS['ui/message']))).then(() => resolve({}), reject);
        },
        cancel: () => {
          done();
          reject(new Error('the user chose not to send the message'));
        },
      };
      this.requestUpdate();
    });
  }

  #refused(method: string, reason: string): void {
    this.dispatchEvent(new AppRefusedEvent({ method, reason }));
  }

  #context(): Record<string, unknown> {
    const dark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
    return {
      theme: this.theme ?? (dark ? 'dark' : 'light'),
      locale: elementLocale(this),
      displayMode: this.#mode,
      availableDisplayModes: [...DISPLAY_MODES],
      containerDimensions: { maxHeight: this.maxHeight },
      platform: 'web',
    };
  }

  #stop(): void {
    this.#generation += 1;
    const bridge = this.#bridge;
    this.#bridge = undefined;
    this.#initialized = false;
    this.#input.reset();
    this.#height = undefined;
    this.#link?.cancel();
    this.#message?.cancel();
    this.#modelContext = undefined;
    this.#features.reset();
    this.#setMode('inline');
    if (bridge === undefined) return;
    void bridge
      .teardownResource({}, { timeout: 1000 })
      .catch(() => undefined)
      .finally(() => void bridge.close());
  }
}

if (!customElements.get('airlock-app-view')) customElements.define('airlock-app-view', AirlockAppView);

declare global {
  interface HTMLElementTagNameMap {
    'airlock-app-view': AirlockAppView;
  }
}
