import { html, nothing } from 'lit';
import type { TemplateResult } from 'lit';
import type { Actions } from '../actions.js';
import { t } from '../i18n.js';
import { keyed } from 'lit/directives/keyed.js';
import { argsSkeleton, launcherFields, renderLauncherFields } from '../launcher-form.js';
import type { PageState } from '../state.js';
import type { Snapshot } from '../../../src/wire.js';

/** The launcher: call any tool the user may call by hand, its arguments as a form read from its input schema. */
export function launcherView(state: PageState, snapshot: Snapshot, actions: Actions): TemplateResult {
  const entry = snapshot.userTools.find((t) => t.tool.name === state.launcherTool);
  const fields = entry === undefined ? [] : launcherFields(entry.tool.inputSchema);
  return html`<section class="panel" aria-labelledby="launcher-title">
    <h2 id="launcher-title">${t('console.launcher.title')}</h2>
    <form class="launcher" @submit=${actions.launch}>
      <label
        >${t('console.launcher.tool')}
        <select
          name="tool"
          @change=${(event: Event) =>
            actions.chooseLauncherTool((event.currentTarget as HTMLSelectElement).value || undefined)}
        >
          <option value="">${t('console.launcher.choose')}</option>
          ${snapshot.userTools.map(
            (option) =>
              html`<option value=${option.tool.name} ?selected=${option.tool.name === state.launcherTool}>
                ${t('console.launcher.option', {
                  tool: option.tool.name,
                  risk: t(`console.risk.${option.risk.tier}`),
                })}
              </option>`,
          )}
        </select></label
      >
      ${
        entry === undefined
          ? nothing
          : // Keyed by the tool: switching tools starts from fresh inputs, so no JSON of the previous tool is sent.
            keyed(
              entry.tool.name,
              html`${entry.tool.description ? html`<p class="hint">${entry.tool.description}</p>` : nothing}
                ${renderLauncherFields(fields)}
                <details>
                  <summary>${t('console.launcher.json_title')}</summary>
                  <label
                    >${t('console.launcher.json_label')}<textarea
                      name="raw-args"
                      rows="4"
                      placeholder=${JSON.stringify(argsSkeleton(entry.tool.inputSchema))}
                    ></textarea>
                  </label>
                </details>
                <wa-button type="submit" variant="brand"
                  >${t('console.launcher.submit', { tool: entry.tool.name })}</wa-button
                >`,
            )
      }
      ${state.launcherError ? html`<p class="error" role="alert">${state.launcherError}</p>` : nothing}
    </form>
  </section>`;
}
