import { describe, expect, it } from 'vitest';
import { applyPreset, PRESET_NAMES, PRESETS } from './presets.js';
import type { PresetMode, PresetToken, PresetTokens } from './presets.js';

type Rgba = { r: number; g: number; b: number; a: number };

/** `#rgb`, `#rrggbb` or `rgba(r, g, b, a)`, channels 0-255 and alpha 0-1. */
function parseColor(color: string): Rgba {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!;
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
    return { r, g, b, a: 1 };
  }
  const rgba = /^rgba?\(\s*(\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\s*\)$/.exec(color);
  if (rgba) return { r: Number(rgba[1]), g: Number(rgba[2]), b: Number(rgba[3]), a: Number(rgba[4] ?? 1) };
  throw new Error(`not a colour this test can read: ${color}`);
}

/** `top` painted over an opaque `bottom`. */
function over(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, b: number) => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

/** WCAG 2.x relative luminance of an opaque colour. */
function luminance({ r, g, b }: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function ratio(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const BLACK = parseColor('#000000');
const WHITE = parseColor('#ffffff');

/**
 * The worst contrast of `fg` on `bg` over any page backdrop. An opaque `bg` has one answer; a translucent one is
 * composited over black and over white: luminance grows with every channel, so every other backdrop lies between.
 */
function worstContrast(fg: string, bg: string): number {
  const backdrops = parseColor(bg).a === 1 ? [WHITE] : [BLACK, WHITE];
  return Math.min(
    ...backdrops.map((backdrop) => {
      const surface = over(parseColor(bg), backdrop);
      return ratio(over(parseColor(fg), surface), surface);
    }),
  );
}

/** The pairs a person must be able to read (4.5:1), and the focus ring, a non-text indicator (3:1, WCAG 1.4.11). */
const PAIRS: readonly { fg: PresetToken; bg: PresetToken; min: number }[] = [
  { fg: '--airlock-color-on-surface', bg: '--airlock-color-surface', min: 4.5 },
  { fg: '--airlock-color-muted', bg: '--airlock-color-surface', min: 4.5 },
  { fg: '--airlock-color-primary', bg: '--airlock-color-surface', min: 4.5 },
  { fg: '--airlock-color-on-primary', bg: '--airlock-color-primary', min: 4.5 },
  { fg: '--airlock-color-success', bg: '--airlock-color-success-container', min: 4.5 },
  { fg: '--airlock-color-warning', bg: '--airlock-color-warning-container', min: 4.5 },
  { fg: '--airlock-color-danger', bg: '--airlock-color-danger-container', min: 4.5 },
  { fg: '--airlock-color-success', bg: '--airlock-color-surface', min: 4.5 },
  { fg: '--airlock-color-warning', bg: '--airlock-color-surface', min: 4.5 },
  { fg: '--airlock-color-danger', bg: '--airlock-color-surface', min: 4.5 },
  { fg: '--airlock-color-focus', bg: '--airlock-color-surface', min: 3 },
];

const MODES: readonly PresetMode[] = ['light', 'dark'];
const cases = PRESET_NAMES.flatMap((name) => MODES.map((mode) => ({ name, mode, tokens: PRESETS[name][mode] })));

describe('the contrast arithmetic', () => {
  it('gives the reference ratios: 21:1 for black on white, 1:1 for a colour on itself', () => {
    expect(worstContrast('#000', '#fff')).toBeCloseTo(21, 5);
    expect(worstContrast('#6750a4', '#6750a4')).toBeCloseTo(1, 5);
  });

  it('fails #777777 on white (4.48:1), the classic near miss', () => {
    expect(worstContrast('#777777', '#ffffff')).toBeLessThan(4.5);
    expect(worstContrast('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('judges a translucent surface by its worst backdrop', () => {
    // Dark text on 20% white reads on a white page but not on a black one.
    expect(worstContrast('#111111', 'rgba(255, 255, 255, 0.2)')).toBeLessThan(4.5);
    expect(worstContrast('#111111', 'rgba(255, 255, 255, 0.8)')).toBeGreaterThan(4.5);
  });
});

describe('the seven presets', () => {
  it('are the seven of R9', () => {
    expect([...PRESET_NAMES]).toEqual([
      'material3',
      'material2',
      'terminal_classic',
      'brutalist',
      'cyberpunk_neon',
      'glassmorphism',
      'minimalist_mono',
    ]);
  });

  it.each(cases)('$name $mode sets every token of the contract', ({ tokens }) => {
    const keys = Object.keys(PRESETS.material3.light).sort();
    expect(Object.keys(tokens).sort()).toEqual(keys);
    for (const value of Object.values(tokens)) expect(value).not.toBe('');
  });

  it.each(cases)('$name $mode meets WCAG AA for every text pair and 3:1 for the focus ring', ({ tokens }) => {
    const failures = PAIRS.flatMap(({ fg, bg, min }) => {
      const value = worstContrast(tokens[fg], tokens[bg]);
      return value >= min ? [] : [`${fg} on ${bg}: ${value.toFixed(2)} < ${min}`];
    });
    expect(failures).toEqual([]);
  });
});

describe('applyPreset', () => {
  function fakeElement() {
    const properties = new Map<string, string>();
    const dataset: Record<string, string> = {};
    const element = { style: { setProperty: (k: string, v: string) => properties.set(k, v) }, dataset };
    return { element: element as unknown as HTMLElement, properties, dataset };
  }

  it('sets every token, the colour scheme and the preset and theme attributes on the target', () => {
    const { element, properties, dataset } = fakeElement();
    applyPreset(element, 'cyberpunk_neon', 'dark');
    const tokens: PresetTokens = PRESETS.cyberpunk_neon.dark;
    for (const [key, value] of Object.entries(tokens)) expect(properties.get(key)).toBe(value);
    expect(properties.get('color-scheme')).toBe('dark');
    expect(dataset).toEqual({ airlockPreset: 'cyberpunk_neon', airlockTheme: 'dark' });
  });

  it('replaces every value of the previous preset when switching', () => {
    const { element, properties } = fakeElement();
    applyPreset(element, 'glassmorphism', 'light');
    applyPreset(element, 'terminal_classic', 'light');
    for (const [key, value] of Object.entries(PRESETS.terminal_classic.light)) expect(properties.get(key)).toBe(value);
  });

  it('refuses an unknown preset name', () => {
    const { element } = fakeElement();
    expect(() => applyPreset(element, 'comic_sans' as 'material3', 'light')).toThrow(/unknown preset "comic_sans"/);
  });
});
