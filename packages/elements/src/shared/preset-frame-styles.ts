import { css } from 'lit';

/**
 * What the R9 presets draw on a modal frame (the permission sheet, the elicitation dialog) beyond their tokens, keyed
 * by the `data-preset` attribute the PresetController copies from the nearest `data-airlock-preset`: the same marks
 * as the tool card, so a page in one preset looks like one product.
 */
export const presetFrameStyles = css`
  :host([data-preset='terminal_classic']) dialog {
    font-family: var(--_mono);
    box-shadow: none;
  }
  :host([data-preset='brutalist']) dialog {
    border: 2px solid var(--_border);
    border-radius: 0;
    box-shadow: 6px 6px 0 var(--_border);
  }
  :host([data-preset='brutalist']) button {
    border-radius: 0;
  }
  :host([data-preset='cyberpunk_neon']) dialog {
    border: 1px solid var(--_primary);
    background-image: linear-gradient(
      135deg,
      color-mix(in srgb, var(--_primary) 14%, var(--_surface)),
      var(--_surface) 55%
    );
    box-shadow:
      0 0 0 1px var(--_primary),
      0 0 18px 2px color-mix(in srgb, var(--_primary) 65%, transparent);
  }
  /* The preset's surface is already a translucent tint; over a dimmed page a lighter one would not be readable. */
  :host([data-preset='glassmorphism']) dialog {
    backdrop-filter: blur(16px) saturate(140%);
  }
  :host([data-preset='minimalist_mono']) dialog {
    font-family: var(--_mono);
    background: var(--_surface);
    box-shadow: none;
    border: 1px solid var(--_border);
  }
`;
