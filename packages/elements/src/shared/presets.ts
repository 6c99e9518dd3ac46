/**
 * The design-token properties a preset sets: the contract of tokens.ts. Every preset sets every one, in both modes,
 * so switching presets never leaves a value of the previous one behind.
 */
export type PresetToken =
  | '--airlock-font'
  | '--airlock-font-mono'
  | '--airlock-radius'
  | '--airlock-space'
  | '--airlock-shadow'
  | '--airlock-motion'
  | '--airlock-color-surface'
  | '--airlock-color-on-surface'
  | '--airlock-color-muted'
  | '--airlock-color-border'
  | '--airlock-color-primary'
  | '--airlock-color-on-primary'
  | '--airlock-color-focus'
  | '--airlock-color-success'
  | '--airlock-color-success-container'
  | '--airlock-color-warning'
  | '--airlock-color-warning-container'
  | '--airlock-color-danger'
  | '--airlock-color-danger-container';

/** One mode of a preset: a value for every token. Colours are `#rrggbb`, or `rgba()` for translucent surfaces. */
export type PresetTokens = Readonly<Record<PresetToken, string>>;

/** Light or dark: each preset has both. */
export type PresetMode = 'light' | 'dark';

/** A visual preset of R9 (tool invocation card spec): one token set per mode. */
export interface Preset {
  readonly light: PresetTokens;
  readonly dark: PresetTokens;
}

const SYSTEM_SANS = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SYSTEM_MONO = "ui-monospace, 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/**
 * The seven visual presets of R9, each with a light and a dark set. Text on the surface, muted text, the primary
 * colour as text, on-primary on primary, and each status colour on its badge container all reach WCAG AA (4.5:1);
 * the focus ring reaches 3:1 on the surface (presets.test.ts checks every pair in both modes). Translucent surfaces
 * (glassmorphism) are checked over a black and over a white backdrop, which bounds every backdrop in between.
 *
 * What tokens cannot say (R9's bracketed names, 2px borders, glow outlines, backdrop blur) an element draws itself
 * from the `data-airlock-preset` attribute that {@link applyPreset} sets.
 */
export const PRESETS = {
  /** Material 3 baseline: medium corners (12px), tonal elevation. */
  material3: {
    light: {
      '--airlock-font': `Roboto, 'Roboto Flex', ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'Roboto Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '12px',
      '--airlock-space': '8px',
      '--airlock-shadow': '0 1px 2px rgba(0, 0, 0, 0.3), 0 1px 3px 1px rgba(0, 0, 0, 0.15)',
      '--airlock-motion': '200ms',
      '--airlock-color-surface': '#fef7ff',
      '--airlock-color-on-surface': '#1d1b20',
      '--airlock-color-muted': '#49454f',
      '--airlock-color-border': '#79747e',
      '--airlock-color-primary': '#6750a4',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#6750a4',
      '--airlock-color-success': '#17612b',
      '--airlock-color-success-container': '#c6eecf',
      '--airlock-color-warning': '#6d4c00',
      '--airlock-color-warning-container': '#ffdea3',
      '--airlock-color-danger': '#a4201a',
      '--airlock-color-danger-container': '#f9dedc',
    },
    dark: {
      '--airlock-font': `Roboto, 'Roboto Flex', ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'Roboto Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '12px',
      '--airlock-space': '8px',
      '--airlock-shadow': '0 1px 3px 1px rgba(0, 0, 0, 0.45), 0 1px 2px rgba(0, 0, 0, 0.6)',
      '--airlock-motion': '200ms',
      '--airlock-color-surface': '#1d1b20',
      '--airlock-color-on-surface': '#e6e0e9',
      '--airlock-color-muted': '#cac4d0',
      '--airlock-color-border': '#938f99',
      '--airlock-color-primary': '#d0bcff',
      '--airlock-color-on-primary': '#381e72',
      '--airlock-color-focus': '#d0bcff',
      '--airlock-color-success': '#a6e6b4',
      '--airlock-color-success-container': '#0f4d22',
      '--airlock-color-warning': '#ffdf9c',
      '--airlock-color-warning-container': '#574000',
      '--airlock-color-danger': '#f9d0cd',
      '--airlock-color-danger-container': '#8c1d18',
    },
  },
  /** Material 2: filled cards, small corners (4px), crisp elevation shadow. */
  material2: {
    light: {
      '--airlock-font': `Roboto, ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'Roboto Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '4px',
      '--airlock-space': '8px',
      '--airlock-shadow':
        '0 2px 1px -1px rgba(0, 0, 0, 0.2), 0 1px 1px rgba(0, 0, 0, 0.14), 0 1px 3px rgba(0, 0, 0, 0.12)',
      '--airlock-motion': '150ms',
      '--airlock-color-surface': '#ffffff',
      '--airlock-color-on-surface': '#212121',
      '--airlock-color-muted': '#5f5f5f',
      '--airlock-color-border': '#bdbdbd',
      '--airlock-color-primary': '#6200ee',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#6200ee',
      '--airlock-color-success': '#1b5e20',
      '--airlock-color-success-container': '#c8e6c9',
      '--airlock-color-warning': '#7a4800',
      '--airlock-color-warning-container': '#ffe0b2',
      '--airlock-color-danger': '#b00020',
      '--airlock-color-danger-container': '#fde0e4',
    },
    dark: {
      '--airlock-font': `Roboto, ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'Roboto Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '4px',
      '--airlock-space': '8px',
      '--airlock-shadow': '0 2px 1px -1px rgba(0, 0, 0, 0.6), 0 1px 3px rgba(0, 0, 0, 0.5)',
      '--airlock-motion': '150ms',
      '--airlock-color-surface': '#1e1e1e',
      '--airlock-color-on-surface': '#e1e1e1',
      '--airlock-color-muted': '#a8a8a8',
      '--airlock-color-border': '#5c5c5c',
      '--airlock-color-primary': '#bb86fc',
      '--airlock-color-on-primary': '#000000',
      '--airlock-color-focus': '#bb86fc',
      '--airlock-color-success': '#81c784',
      '--airlock-color-success-container': '#15301a',
      '--airlock-color-warning': '#ffb74d',
      '--airlock-color-warning-container': '#3a2600',
      '--airlock-color-danger': '#f28b9c',
      '--airlock-color-danger-container': '#3b0a12',
    },
  },
  /** A terminal: monospace everywhere, square corners, no shadow, phosphor green in the dark. */
  terminal_classic: {
    light: {
      '--airlock-font': `'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-font-mono': `'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '0px',
      '--airlock-space': '8px',
      '--airlock-shadow': 'none',
      '--airlock-motion': '0s',
      '--airlock-color-surface': '#f4f1e8',
      '--airlock-color-on-surface': '#1a1a1a',
      '--airlock-color-muted': '#4a4a4a',
      '--airlock-color-border': '#1a1a1a',
      '--airlock-color-primary': '#005f00',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#005f00',
      '--airlock-color-success': '#005f00',
      '--airlock-color-success-container': '#d7f0d0',
      '--airlock-color-warning': '#664b00',
      '--airlock-color-warning-container': '#f5e6b0',
      '--airlock-color-danger': '#a40000',
      '--airlock-color-danger-container': '#f8d7d0',
    },
    dark: {
      '--airlock-font': `'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-font-mono': `'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '0px',
      '--airlock-space': '8px',
      '--airlock-shadow': 'none',
      '--airlock-motion': '0s',
      '--airlock-color-surface': '#0c0c0c',
      '--airlock-color-on-surface': '#33ff66',
      '--airlock-color-muted': '#27c24f',
      '--airlock-color-border': '#1f7a35',
      '--airlock-color-primary': '#33ff66',
      '--airlock-color-on-primary': '#001a08',
      '--airlock-color-focus': '#99ffb3',
      '--airlock-color-success': '#33ff66',
      '--airlock-color-success-container': '#0f2e17',
      '--airlock-color-warning': '#ffcc33',
      '--airlock-color-warning-container': '#332600',
      '--airlock-color-danger': '#ff6e66',
      '--airlock-color-danger-container': '#3a0d0b',
    },
  },
  /** Brutalist: sharp corners, hard offset shadow, pure black and white with loud accents, no gradient. */
  brutalist: {
    light: {
      '--airlock-font': `'Space Grotesk', 'Helvetica Neue', Arial, sans-serif`,
      '--airlock-font-mono': `'Space Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '0px',
      '--airlock-space': '10px',
      '--airlock-shadow': '4px 4px 0 #000000',
      '--airlock-motion': '0s',
      '--airlock-color-surface': '#ffffff',
      '--airlock-color-on-surface': '#000000',
      '--airlock-color-muted': '#333333',
      '--airlock-color-border': '#000000',
      '--airlock-color-primary': '#0000ee',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#d4008f',
      '--airlock-color-success': '#006b1f',
      '--airlock-color-success-container': '#b6ffc6',
      '--airlock-color-warning': '#000000',
      '--airlock-color-warning-container': '#ffe600',
      '--airlock-color-danger': '#c40000',
      '--airlock-color-danger-container': '#ffd6d6',
    },
    dark: {
      '--airlock-font': `'Space Grotesk', 'Helvetica Neue', Arial, sans-serif`,
      '--airlock-font-mono': `'Space Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '0px',
      '--airlock-space': '10px',
      '--airlock-shadow': '4px 4px 0 #ffffff',
      '--airlock-motion': '0s',
      '--airlock-color-surface': '#000000',
      '--airlock-color-on-surface': '#ffffff',
      '--airlock-color-muted': '#cfcfcf',
      '--airlock-color-border': '#ffffff',
      '--airlock-color-primary': '#ffe600',
      '--airlock-color-on-primary': '#000000',
      '--airlock-color-focus': '#00e5ff',
      '--airlock-color-success': '#7dff9a',
      '--airlock-color-success-container': '#003d12',
      '--airlock-color-warning': '#ffe600',
      '--airlock-color-warning-container': '#3d3600',
      '--airlock-color-danger': '#ff7a7a',
      '--airlock-color-danger-container': '#4a0000',
    },
  },
  /** Cyberpunk neon: glowing accent outline (the shadow), deep violet night, cyan and hot pink. */
  cyberpunk_neon: {
    light: {
      '--airlock-font': `Rajdhani, 'Segoe UI', ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'Share Tech Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '2px',
      '--airlock-space': '8px',
      '--airlock-shadow': '0 0 0 1px #d1008f, 0 0 16px rgba(209, 0, 143, 0.35)',
      '--airlock-motion': '240ms',
      '--airlock-color-surface': '#fdf6ff',
      '--airlock-color-on-surface': '#1a0933',
      '--airlock-color-muted': '#4b3a6b',
      '--airlock-color-border': '#d1008f',
      '--airlock-color-primary': '#a0008a',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#007a87',
      '--airlock-color-success': '#006b3c',
      '--airlock-color-success-container': '#cbffe3',
      '--airlock-color-warning': '#665600',
      '--airlock-color-warning-container': '#fff7a8',
      '--airlock-color-danger': '#b8003c',
      '--airlock-color-danger-container': '#ffdce7',
    },
    dark: {
      '--airlock-font': `Rajdhani, 'Segoe UI', ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'Share Tech Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '2px',
      '--airlock-space': '8px',
      '--airlock-shadow': '0 0 0 1px #05d9e8, 0 0 18px rgba(5, 217, 232, 0.45)',
      '--airlock-motion': '240ms',
      '--airlock-color-surface': '#0d0221',
      '--airlock-color-on-surface': '#f0f0ff',
      '--airlock-color-muted': '#b8b3e9',
      '--airlock-color-border': '#ff2a6d',
      '--airlock-color-primary': '#05d9e8',
      '--airlock-color-on-primary': '#01012b',
      '--airlock-color-focus': '#f9f002',
      '--airlock-color-success': '#39ff14',
      '--airlock-color-success-container': '#0c2a07',
      '--airlock-color-warning': '#f9f002',
      '--airlock-color-warning-container': '#2e2b00',
      '--airlock-color-danger': '#ff5c8d',
      '--airlock-color-danger-container': '#33000f',
    },
  },
  /** Glassmorphism: a translucent surface over the page (the element adds the blur), large corners, soft shadow. */
  glassmorphism: {
    light: {
      '--airlock-font': `Inter, ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'JetBrains Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '16px',
      '--airlock-space': '10px',
      '--airlock-shadow': '0 8px 32px rgba(31, 38, 135, 0.2)',
      '--airlock-motion': '240ms',
      '--airlock-color-surface': 'rgba(255, 255, 255, 0.8)',
      '--airlock-color-on-surface': '#14142b',
      '--airlock-color-muted': '#33334d',
      '--airlock-color-border': 'rgba(20, 20, 43, 0.24)',
      '--airlock-color-primary': '#3730a3',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#3730a3',
      '--airlock-color-success': '#065f46',
      '--airlock-color-success-container': '#d1fae5',
      '--airlock-color-warning': '#713f12',
      '--airlock-color-warning-container': '#fef3c7',
      '--airlock-color-danger': '#9f1239',
      '--airlock-color-danger-container': '#ffe4e6',
    },
    dark: {
      '--airlock-font': `Inter, ${SYSTEM_SANS}`,
      '--airlock-font-mono': `'JetBrains Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '16px',
      '--airlock-space': '10px',
      '--airlock-shadow': '0 8px 32px rgba(0, 0, 0, 0.5)',
      '--airlock-motion': '240ms',
      '--airlock-color-surface': 'rgba(17, 17, 34, 0.8)',
      '--airlock-color-on-surface': '#f5f5ff',
      '--airlock-color-muted': '#c7c7e0',
      '--airlock-color-border': 'rgba(245, 245, 255, 0.28)',
      '--airlock-color-primary': '#a5b4fc',
      '--airlock-color-on-primary': '#14142b',
      '--airlock-color-focus': '#a5b4fc',
      '--airlock-color-success': '#86efac',
      '--airlock-color-success-container': '#064e3b',
      '--airlock-color-warning': '#fde68a',
      '--airlock-color-warning-container': '#4a3300',
      '--airlock-color-danger': '#fda4af',
      '--airlock-color-danger-container': '#5c0a1e',
    },
  },
  /** Minimalist mono: monospace type, one hairline border, no fill colour beyond the page's, no shadow. */
  minimalist_mono: {
    light: {
      '--airlock-font': `'JetBrains Mono', 'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-font-mono': `'JetBrains Mono', 'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '0px',
      '--airlock-space': '8px',
      '--airlock-shadow': 'none',
      '--airlock-motion': '120ms',
      '--airlock-color-surface': '#ffffff',
      '--airlock-color-on-surface': '#111111',
      '--airlock-color-muted': '#555555',
      '--airlock-color-border': '#111111',
      '--airlock-color-primary': '#111111',
      '--airlock-color-on-primary': '#ffffff',
      '--airlock-color-focus': '#111111',
      '--airlock-color-success': '#1f5130',
      '--airlock-color-success-container': '#eef5ef',
      '--airlock-color-warning': '#5c4500',
      '--airlock-color-warning-container': '#f7f1e1',
      '--airlock-color-danger': '#8b1a1a',
      '--airlock-color-danger-container': '#f8eaea',
    },
    dark: {
      '--airlock-font': `'JetBrains Mono', 'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-font-mono': `'JetBrains Mono', 'IBM Plex Mono', ${SYSTEM_MONO}`,
      '--airlock-radius': '0px',
      '--airlock-space': '8px',
      '--airlock-shadow': 'none',
      '--airlock-motion': '120ms',
      '--airlock-color-surface': '#0a0a0a',
      '--airlock-color-on-surface': '#ededed',
      '--airlock-color-muted': '#a3a3a3',
      '--airlock-color-border': '#ededed',
      '--airlock-color-primary': '#ededed',
      '--airlock-color-on-primary': '#0a0a0a',
      '--airlock-color-focus': '#ededed',
      '--airlock-color-success': '#9fd8ae',
      '--airlock-color-success-container': '#13261a',
      '--airlock-color-warning': '#e6cc80',
      '--airlock-color-warning-container': '#2b2310',
      '--airlock-color-danger': '#f2a6a6',
      '--airlock-color-danger-container': '#2e1111',
    },
  },
} as const satisfies Record<string, Preset>;

/** The name of one of the seven presets. */
export type PresetName = keyof typeof PRESETS;

/** Every preset name, in the order R9 lists them. */
export const PRESET_NAMES = Object.keys(PRESETS) as readonly PresetName[];

/**
 * Sets a preset's tokens as custom properties on `target` (usually `document.documentElement` or a container);
 * every element below inherits them. Also sets `data-airlock-preset` and `data-airlock-theme` on the target, which
 * elements use for what tokens cannot express, and `color-scheme`, so native controls follow the mode.
 * Throws on an unknown preset name, so a typo does not leave the page half-styled.
 */
export function applyPreset(target: HTMLElement, name: PresetName, mode: PresetMode): void {
  if (!Object.hasOwn(PRESETS, name)) throw new RangeError(`unknown preset "${String(name)}"`);
  const tokens: PresetTokens = PRESETS[name][mode === 'dark' ? 'dark' : 'light'];
  for (const [property, value] of Object.entries(tokens)) target.style.setProperty(property, value);
  target.style.setProperty('color-scheme', mode === 'dark' ? 'dark' : 'light');
  target.dataset['airlockPreset'] = name;
  target.dataset['airlockTheme'] = mode === 'dark' ? 'dark' : 'light';
}
