import { css, html, LitElement, nothing } from 'lit';
import type { PropertyDeclarations, TemplateResult } from 'lit';
import type { RiskTier } from '@airlock/core';
import { elementLocale, msg } from '../shared/localize.js';
import { baseStyles } from '../shared/tokens.js';
import { entryDisplayName, groupByServer } from './tool-list-entry.js';
import type { ToolListEntry, ToolListGroup } from './tool-list-entry.js';
import { DecisionRevokeEvent } from './tool-list-events.js';

/** Unknown tiers (a host bug, a newer core) show as the worst case rather than break the row. */
const RISK_TIERS: readonly RiskTier[] = ['low', 'medium', 'high'];

/** The locale's formatters, made once per render. */
interface Formats {
  readonly dates: Intl.DateTimeFormat;
  readonly audiences: Intl.ListFormat;
}

/**
 * `<airlock-tool-list>`: which tools are exposed right now, per server (MCP: "make clear which tools are being
 * exposed to the AI model"). Each row shows the tool's display name and name, its risk, who may see it, the user's
 * stored decision with its expiry, and a Revoke button when there is a decision. Server text (names, titles,
 * descriptions) is rendered as text, never as HTML.
 *
 * @property entries - the tools, `{ tool, risk, decision? }` each, grouped by server in the order given.
 * @property compact - (attribute `compact`) tight rows, one line of description, the heading for screen readers.
 * @fires airlock-decision-revoke - {@link DecisionRevokeEvent}: Revoke pressed; `detail` has `decisionId`, `tool`.
 * @csspart base - the outer section. @csspart title - the list's heading. @csspart empty - the empty-state text.
 * @csspart group - one server's block. @csspart group-heading - the server's heading. @csspart row - one tool.
 * @csspart display-name, name, description, risk, unverified, facts, revoke - the parts of a row.
 * @cssprop --airlock-* - the tokens of tokens.ts (font, radius, space, colours, shadow); presets set them.
 */
export class AirlockToolList extends LitElement {
  static override properties: PropertyDeclarations = {
    entries: { attribute: false },
    compact: { type: Boolean, reflect: true },
  };

  /** The shadow root's styles: the shared base, then this element's own. */
  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        container-type: inline-size;
      }
      .base {
        background: var(--_surface);
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        box-shadow: var(--airlock-shadow, none);
        padding: calc(var(--_space) * 2);
      }
      h2,
      h3 {
        margin: 0;
        line-height: 1.3;
      }
      h2 {
        font-size: 1.125rem;
      }
      h3 {
        font-size: 1rem;
        font-family: var(--_mono);
        margin-top: calc(var(--_space) * 2);
        padding-bottom: var(--_space);
        overflow-wrap: anywhere;
      }
      .empty {
        margin: calc(var(--_space) * 1.5) 0 0;
        color: var(--_muted);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .row {
        display: grid;
        grid-template-columns: minmax(0, 1fr) auto;
        column-gap: calc(var(--_space) * 2);
        row-gap: var(--_space);
        padding: calc(var(--_space) * 1.5) 0;
        border-top: 1px solid var(--_border);
      }
      .who {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: var(--_space);
        min-width: 0;
      }
      .display-name {
        font-weight: 600;
        overflow-wrap: anywhere;
      }
      .name {
        font-family: var(--_mono);
        font-size: 0.875em;
        color: var(--_muted);
        overflow-wrap: anywhere;
      }
      .badge {
        display: inline-block;
        padding: 2px var(--_space);
        border-radius: calc(var(--_radius) / 2);
        font-size: 0.8125rem;
        font-weight: 600;
        line-height: 1.5;
      }
      .risk-low {
        background: var(--_success);
        color: var(--_on-success);
      }
      .risk-medium {
        background: var(--_warning);
        color: var(--_on-warning);
      }
      .risk-high {
        background: var(--_danger);
        color: var(--_on-danger);
      }
      .unverified {
        font-size: 0.8125rem;
        color: var(--_muted);
      }
      .description {
        margin: 0;
        white-space: pre-line;
        overflow-wrap: anywhere;
      }
      .facts {
        display: flex;
        flex-wrap: wrap;
        gap: var(--_space) calc(var(--_space) * 3);
        margin: 0;
        font-size: 0.875rem;
      }
      .facts dt {
        color: var(--_muted);
      }
      .facts dd {
        margin: 0;
      }
      .revoke {
        grid-column: 2;
        grid-row: 1;
        align-self: center;
        padding: 0 calc(var(--_space) * 2);
        background: transparent;
        color: var(--_primary);
        border: 1px solid var(--_primary);
      }
      .revoke:hover {
        background: var(--_primary);
        color: var(--_on-primary);
      }
      .body {
        display: grid;
        gap: var(--_space);
        min-width: 0;
      }
      /* Compact: for a side panel that has its own heading. One line of description, small facts, tight rows. */
      :host([compact]) .base {
        border: 0;
        box-shadow: none;
        padding: 0;
        background: transparent;
      }
      :host([compact]) h2 {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip-path: inset(50%);
        white-space: nowrap;
      }
      :host([compact]) h3 {
        margin-top: var(--_space);
        padding-bottom: calc(var(--_space) / 2);
        font-size: 0.875rem;
      }
      :host([compact]) .row {
        padding: calc(var(--_space) * 0.75) 0;
        row-gap: calc(var(--_space) / 2);
      }
      :host([compact]) .description {
        display: -webkit-box;
        -webkit-box-orient: vertical;
        -webkit-line-clamp: 1;
        overflow: hidden;
        white-space: normal;
        font-size: 0.875rem;
        color: var(--_muted);
      }
      :host([compact]) .facts {
        font-size: 0.8125rem;
        gap: 2px calc(var(--_space) * 2);
      }
      @container (max-width: 480px) {
        .row {
          grid-template-columns: minmax(0, 1fr);
        }
        .revoke {
          grid-column: 1;
          grid-row: auto;
          justify-self: start;
        }
      }
    `,
  ];

  /** The tools to show, with their risk and stored decision; grouped by server in the order given. */
  entries: readonly ToolListEntry[] = [];
  /** A compact list for a side panel: the heading for screen readers only, one line of description, tight rows. */
  compact = false;

  override render(): TemplateResult {
    const groups = groupByServer(this.entries ?? []);
    const locale = elementLocale(this);
    const formats: Formats = {
      dates: new Intl.DateTimeFormat(locale, { dateStyle: 'long' }),
      audiences: new Intl.ListFormat(locale, { type: 'unit', style: 'short' }),
    };
    return html`<section class="base" part="base" aria-labelledby="title">
      <h2 id="title" part="title">${msg(this, 'mcp.list.title')}</h2>
      ${
        groups.length === 0
          ? html`<p class="empty" part="empty">${msg(this, 'mcp.list.empty')}</p>`
          : groups.map((group, g) => this.#group(group, g, formats))
      }
    </section>`;
  }

  #group(group: ToolListGroup, g: number, formats: Formats): TemplateResult {
    // Native tools have no server; the origin kind stands in as the heading (the catalog has no word for it yet).
    return html`<div class="group" part="group">
      <h3 id="g${g}" part="group-heading">${group.serverId ?? msg(this, 'mcp.list.native')}</h3>
      <ul aria-labelledby="g${g}">
        ${group.entries.map((entry, r) => this.#row(entry, `${g}-${r}`, formats))}
      </ul>
    </div>`;
  }

  #row(entry: ToolListEntry, id: string, formats: Formats): TemplateResult {
    const { tool, decision } = entry;
    const tier = RISK_TIERS.includes(entry.risk.tier) ? entry.risk.tier : 'high';
    return html`<li class="row" part="row">
      <div class="body">
        <div class="who">
          <span class="display-name" id="n${id}" part="display-name">${entryDisplayName(tool)}</span>
          <code class="name" part="name">${tool.name}</code>
          <span class="badge risk-${tier}" part="risk">${msg(this, `mcp.permission.risk.${tier}`)}</span>
          ${
            entry.risk.unverified === true
              ? html`<span class="unverified" part="unverified">${msg(this, 'mcp.permission.unverified')}</span>`
              : nothing
          }
        </div>
        ${
          tool.description === undefined || tool.description === ''
            ? nothing
            : html`<p class="description" part="description">${tool.description}</p>`
        }
        <dl class="facts" part="facts">
          <div>
            <dt>${msg(this, 'mcp.list.visibility')}</dt>
            <dd>${formats.audiences.format(tool.visibility.map((audience) => audienceLabel(this, audience)))}</dd>
          </div>
          <div>
            <dt>${msg(this, 'mcp.list.decision')}</dt>
            <dd>${this.#decision(entry, formats.dates)}</dd>
          </div>
        </dl>
      </div>
      ${
        decision === undefined
          ? nothing
          : html`<button
              type="button"
              class="revoke"
              part="revoke"
              id="r${id}"
              aria-labelledby="r${id} n${id}"
              @click=${() => this.#revoke(entry)}
            >
              ${msg(this, 'mcp.list.revoke')}
            </button>`
      }
    </li>`;
  }

  #decision({ decision }: ToolListEntry, dates: Intl.DateTimeFormat): TemplateResult {
    if (decision === undefined) return html`${msg(this, 'mcp.list.none')}`;
    const effect = msg(
      this,
      decision.effect === 'deny'
        ? 'mcp.list.deny_always'
        : decision.conversationId === undefined
          ? 'mcp.list.allow_always'
          : 'mcp.list.allow_conversation',
    );
    if (decision.expiresAt === null) return html`${effect} · ${msg(this, 'mcp.list.never_expires')}`;
    const when = new Date(decision.expiresAt);
    if (Number.isNaN(when.getTime())) return html`${effect}`;
    // The date goes in as a placeholder so word order stays the catalog's ("Expires {date}", "Expira em {date}").
    const [before, after = ''] = msg(this, 'mcp.list.expires', { date: '\u0000' }).split('\u0000');
    return html`${effect} ·
      <span class="expiry">${before}<time datetime=${when.toISOString()}>${dates.format(when)}</time>${after}</span>`;
  }

  #revoke(entry: ToolListEntry): void {
    if (entry.decision === undefined) return;
    this.dispatchEvent(new DecisionRevokeEvent({ decisionId: entry.decision.id, tool: entry.tool.name }));
  }
}

if (!customElements.get('airlock-tool-list')) customElements.define('airlock-tool-list', AirlockToolList);

declare global {
  interface HTMLElementTagNameMap {
    'airlock-tool-list': AirlockToolList;
  }
}

/** An audience as a person reads it; one outside the catalog shows as it is. */
function audienceLabel(element: Element, audience: string): string {
  return audience === 'model' || audience === 'app' || audience === 'user'
    ? msg(element, `mcp.list.audience.${audience}`)
    : audience;
}
