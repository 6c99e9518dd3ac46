import { css } from 'lit';

/**
 * What each R9 preset draws beyond its tokens, keyed by the `data-preset` attribute the PresetController copies from
 * the nearest `data-airlock-preset`. material3 and material2 need nothing more than their tokens.
 */
export const toolCardPresetStyles = css`
  :host([data-preset='terminal_classic']) .card {
    font-family: var(--_mono);
    box-shadow: none;
  }
  :host([data-preset='terminal_classic']) .name::before {
    content: '[';
  }
  :host([data-preset='terminal_classic']) .name::after {
    content: ']';
  }
  :host([data-preset='terminal_classic']) .badge {
    border-radius: 0;
  }
  :host([data-preset='brutalist']) .card {
    border: 2px solid var(--_border);
    border-radius: 0;
    background-image: none;
    box-shadow: 4px 4px 0 var(--_border);
  }
  :host([data-preset='brutalist']) .badge,
  :host([data-preset='brutalist']) .chip,
  :host([data-preset='brutalist']) button {
    border-radius: 0;
  }
  :host([data-preset='cyberpunk_neon']) .card {
    border: 1px solid var(--_primary);
    background-image: linear-gradient(
      135deg,
      color-mix(in srgb, var(--_primary) 14%, var(--_surface)),
      var(--_surface) 55%,
      color-mix(in srgb, var(--_on-danger) 10%, var(--_surface))
    );
    box-shadow:
      0 0 0 1px var(--_primary),
      0 0 14px 2px color-mix(in srgb, var(--_primary) 65%, transparent);
  }
  :host([data-preset='glassmorphism']) .card {
    background: color-mix(in srgb, var(--_surface) 20%, transparent);
    backdrop-filter: blur(14px) saturate(140%);
    -webkit-backdrop-filter: blur(14px) saturate(140%);
    border: 1px solid color-mix(in srgb, var(--_border) 60%, transparent);
  }
  :host([data-preset='minimalist_mono']) .card {
    font-family: var(--_mono);
    background: transparent;
    box-shadow: none;
    border: 1px solid var(--_border);
  }
  :host([data-preset='minimalist_mono']) .badge.success,
  :host([data-preset='minimalist_mono']) .badge.error,
  :host([data-preset='minimalist_mono']) .chip.trusted,
  :host([data-preset='minimalist_mono']) .chip.untrusted {
    background: transparent;
  }
`;
