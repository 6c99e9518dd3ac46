import { css } from 'lit';

/** The card's embedded code (a labelled, monospace block, seed 000 R2) and the note under a text the host cut. */
export const toolCardCodeStyles = css`
  .code-label {
    margin: 0;
    font-size: 0.75em;
    font-family: var(--_mono);
    color: var(--_muted);
  }
  .code-block {
    padding: var(--_space);
    border-radius: calc(var(--_radius) / 2);
    border-inline-start: 3px solid var(--_primary);
    background: color-mix(in srgb, var(--_border) 25%, var(--_surface));
  }
  .cut-note {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
    align-items: baseline;
  }
  .show-all-failed {
    flex-basis: 100%;
    padding: calc(var(--_space) * 0.5) var(--_space);
    border-radius: calc(var(--_radius) / 2);
    background: var(--_danger);
    color: var(--_on-danger);
    overflow-wrap: anywhere;
  }
`;
