import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { CardRenderContext } from './card-render-context.js';
import { stateIcons, wrenchIcon } from './card-icons.js';
import { safeIconSrc } from './media-policy.js';
import { runs } from './shown-state.js';
import type { ShownState } from './shown-state.js';
import type { ToolCardServer, ToolCardTool } from './tool-card-types.js';

/** What the header shows. */
export interface HeaderView {
  readonly name: string;
  readonly rawName: string | undefined;
  readonly state: ShownState;
  readonly tool: ToolCardTool | undefined;
  readonly server: ToolCardServer | undefined;
  readonly onRetry: () => void;
  /** Set when the host can cancel the call: "Cancel call" shows while it waits or runs. */
  readonly onCancel: (() => void) | undefined;
  readonly onToggle: (event: Event) => void;
}

/**
 * The header (R1): icon, name, raw name, server chip, the status badge (a polite live region that announces
 * "tool (server): status", R8) and Retry on a failed call. Clicking the header anywhere but a control toggles the arguments (T2);
 * the keyboard reaches the same through the Arguments summary.
 */
export function renderHeader(ctx: CardRenderContext, view: HeaderView): TemplateResult {
  const { name, rawName, state } = view;
  const status = ctx.t(`mcp.card.status.${state}`);
  return html`<header part="header" class="header" @click=${view.onToggle}>
    ${renderIcon(view.tool)}
    <div class="ident">
      <span part="name" class="name">${name}</span>
      ${rawName !== undefined && rawName !== name ? html`<code class="raw-name">${rawName}</code>` : nothing}
      ${renderServer(ctx, view.server)}
    </div>
    <div class="status-area">
      <div part="badge" class="badge ${state}" role="status" aria-live="polite" data-state=${state}>
        ${stateIcon(state)}
        <span class="label" aria-hidden="true">${status}</span>
        <span class="sr-only"
          >${ctx.t('mcp.card.announce', { tool: view.server ? `${name} (${view.server.id})` : name, status })}</span
        >
      </div>
      ${
        state === 'error'
          ? html`<button type="button" part="retry" class="retry" @click=${view.onRetry}>
              ${ctx.t('mcp.card.retry')}
            </button>`
          : nothing
      }
      ${
        view.onCancel !== undefined && (state === 'pending' || runs(state))
          ? html`<button type="button" part="cancel" class="cancel" data-action="cancel" @click=${view.onCancel}>
              ${ctx.t('mcp.card.cancel')}
            </button>`
          : nothing
      }
    </div>
  </header>`;
}

/** The badge's icon: a running call's pulsing dot (a task waiting for input shows the waiting glass instead). */
function stateIcon(state: ShownState): unknown {
  if (state === 'running' || state === 'working') return html`<span class="dot" aria-hidden="true"></span>`;
  return stateIcons[state === 'input_required' ? 'pending' : state]();
}

function renderIcon(tool: ToolCardTool | undefined): TemplateResult {
  const src = safeIconSrc(tool?.icons?.[0]?.src);
  return html`<span part="icon" class="icon">
    ${
      src === undefined
        ? html`<span class="glyph">${wrenchIcon()}</span>`
        : html`<img src=${src} alt="" width="24" height="24" referrerpolicy="no-referrer" />`
    }
  </span>`;
}

function renderServer(ctx: CardRenderContext, server: ToolCardServer | undefined): TemplateResult | typeof nothing {
  if (server === undefined) return nothing;
  const trust = ctx.t(server.trusted ? 'mcp.card.server_trusted' : 'mcp.card.server_untrusted');
  return html`<span part="server" class="chip ${server.trusted ? 'trusted' : 'untrusted'}">
    <span class="server-id">${server.id}</span>
    <span aria-hidden="true">·</span>
    <span class="trust">${trust}</span>
  </span>`;
}
