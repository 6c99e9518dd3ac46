import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { ScreenPayload } from '@airlock/core';
import type { CardRenderContext } from './card-render-context.js';
import { knownReason } from './failure-reason.js';
import type { ShownState } from './shown-state.js';
import type { ToolCardInvocation } from './tool-card-types.js';

/** What the reason line shows. */
export interface ReasonView {
  readonly state: ShownState;
  readonly error: ToolCardInvocation['error'] | undefined;
  /** The call's result: an error result's own text is the tool's word for its failure. */
  readonly result: ScreenPayload | undefined;
}

/**
 * The tool's own words for its failure: the head of the first text of an error result (at most 3 lines, 300
 * characters), so "disk full" shows rather than only "the tool reported an error".
 */
function toolMessage(result: ScreenPayload | undefined): string | undefined {
  if (result?.isError !== true) return undefined;
  const first = result.blocks.find((block) => block.type === 'text');
  if (first?.type !== 'text' || first.text.trim() === '') return undefined;
  const head = first.text.trim().split('\n').slice(0, 3).join('\n');
  return head.length > 300 ? `${head.slice(0, 299)}…` : head;
}

/** Why a call failed or was refused, under the header: visible without opening anything. */
export function renderReason(ctx: CardRenderContext, view: ReasonView): TemplateResult | typeof nothing {
  const { error, state } = view;
  if (!error || (state !== 'error' && state !== 'denied' && state !== 'cancelled')) return nothing;
  const own = state === 'error' ? toolMessage(view.result) : undefined;
  // A reason the host worded (cancelled, timed out, denied…) reads in the page's language; the host's own words
  // stay on the line (its title, and `data-raw-reason`) for whoever needs them.
  const known = own !== undefined ? undefined : knownReason(error);
  const text = known === undefined ? (own ?? error.message) : ctx.t(known.key, known.params);
  // The code beside the words, unless the words already say it ("… was cancelled" and `cancelled`).
  const code = String(error.code);
  const said = known !== undefined || text.toLowerCase().includes(code.replace(/_/g, ' ').toLowerCase());
  return html`<p part="reason" class="reason ${state}">
    <span class="reason-text" title=${known === undefined ? nothing : error.message} data-raw-reason=${error.message}
      >${text}</span
    >
    ${said ? nothing : html`<code class="reason-code">${code}</code>`}
  </p>`;
}
