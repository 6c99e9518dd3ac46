import { css } from 'lit';

/**
 * The design tokens every element reads, as CSS custom properties with light defaults. A preset (see presets.ts)
 * or the page sets them; `prefers-color-scheme: dark` and `[data-airlock-theme="dark"]` switch to the dark set.
 *
 * --airlock-font, --airlock-font-mono, --airlock-radius, --airlock-space (base spacing unit),
 * --airlock-color-surface, --airlock-color-on-surface, --airlock-color-muted, --airlock-color-border,
 * --airlock-color-primary, --airlock-color-on-primary, --airlock-color-focus,
 * --airlock-color-success, --airlock-color-warning, --airlock-color-danger (and -container variants for badges),
 * --airlock-shadow, --airlock-motion (a duration; 0s under prefers-reduced-motion).
 */
export const baseStyles = css`
  :host {
    font-family: var(--airlock-font, system-ui, sans-serif);
    color: var(--airlock-color-on-surface, #1b1b1f);
    --_surface: var(--airlock-color-surface, #ffffff);
    --_muted: var(--airlock-color-muted, #4a4a55);
    --_border: var(--airlock-color-border, #c4c4cc);
    --_primary: var(--airlock-color-primary, #3a4fb5);
    --_on-primary: var(--airlock-color-on-primary, #ffffff);
    --_focus: var(--airlock-color-focus, #1a56db);
    --_success: var(--airlock-color-success-container, #d5f5dc);
    --_on-success: var(--airlock-color-success, #0b5a1f);
    --_warning: var(--airlock-color-warning-container, #fff1c2);
    --_on-warning: var(--airlock-color-warning, #6a4b00);
    --_danger: var(--airlock-color-danger-container, #fde2e1);
    --_on-danger: var(--airlock-color-danger, #8a1c17);
    --_radius: var(--airlock-radius, 12px);
    --_space: var(--airlock-space, 8px);
    --_motion: var(--airlock-motion, 160ms);
    --_mono: var(--airlock-font-mono, ui-monospace, monospace);
  }
  @media (prefers-reduced-motion: reduce) {
    :host {
      --_motion: 0s;
    }
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  button {
    min-height: 48px;
    min-width: 48px;
    font: inherit;
    border-radius: var(--_radius);
    cursor: pointer;
  }
  [hidden] {
    display: none !important;
  }
`;
