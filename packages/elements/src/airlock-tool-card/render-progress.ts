import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { CardRenderContext } from './card-render-context.js';
import { runs } from './shown-state.js';
import type { ShownState } from './shown-state.js';
import { formatElapsed, taskOpen } from './task-elapsed.js';
import type { ToolCardProgress } from './tool-card-types.js';

/** What the progress line shows. */
export interface ProgressView {
  readonly state: ShownState;
  /** The latest progress the call reported (a task's status and message come as progress too). */
  readonly progress: ToolCardProgress | undefined;
  /** When the call's task began (ms since the epoch), if it is one. */
  readonly taskStartedAt: number | undefined;
  /** The time now (ms since the epoch), from which an open task's elapsed time is counted. */
  readonly now: number;
}

/**
 * The progress line of a running call: a bar when the total is known, the latest message (a task's status message),
 * and for an open task how long it has been going (counted from the task's start, so a task picked up again after a
 * restart shows its whole age).
 */
export function renderProgress(ctx: CardRenderContext, view: ProgressView): TemplateResult | typeof nothing {
  const { progress, state } = view;
  const elapsed = taskOpen(state) && view.taskStartedAt !== undefined ? view.now - view.taskStartedAt : undefined;
  if (!runs(state) || (progress === undefined && elapsed === undefined)) return nothing;
  const total = progress?.total;
  const bar =
    progress !== undefined && total !== undefined && Number.isFinite(total) && total > 0
      ? html`<progress
          max=${total}
          .value=${Math.min(Math.max(progress.progress, 0), total)}
          aria-label=${ctx.t('mcp.card.progress', { progress: ctx.number(progress.progress), total: ctx.number(total) })}
        ></progress>`
      : nothing;
  return html`<div part="progress" class="progress">
    ${bar} ${progress?.message ? html`<span class="note">${progress.message}</span>` : nothing}
    ${
      elapsed === undefined
        ? nothing
        : html`<span part="elapsed" class="elapsed" data-elapsed
            >${ctx.t('mcp.card.elapsed', { time: formatElapsed(elapsed) })}</span
          >`
    }
  </div>`;
}
