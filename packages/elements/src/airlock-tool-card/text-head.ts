/**
 * When a text collapses and how it shows while collapsed. A text collapses when it is longer than `aboveChars` or
 * has more than `aboveLines` lines. While collapsed it is clipped to `lines` lines on screen, but the element still
 * holds the text (so find-in-page and screen readers reach it) up to `domChars` characters: one 5 MB line must not
 * reach the page before the user asks for it.
 */
export interface TextBounds {
  readonly aboveChars: number;
  readonly aboveLines: number;
  readonly lines: number;
  readonly domChars: number;
}

/** Result text (card spec R4, DESIGN.md Bounds): beyond 2,000 characters or 30 lines it collapses to 30 lines. */
export const RESULT_TEXT_BOUNDS: TextBounds = { aboveChars: 2_000, aboveLines: 30, lines: 30, domChars: 50_000 };

/** Arguments (R4): more than 100 lines (or a very long text) collapse to 100 lines. */
export const ARGS_TEXT_BOUNDS: TextBounds = { aboveChars: 10_000, aboveLines: 100, lines: 100, domChars: 50_000 };

/**
 * Markdown is rendered only up to this many characters; a longer text, shown in full after "show more", is plain
 * preformatted text. marked over megabytes would block the page for seconds.
 */
export const MARKDOWN_MAX_CHARS = 100_000;

/** A collapsed text: what the element holds while collapsed (the whole text, or its head up to `domChars`). */
export interface Collapsed {
  readonly held: string;
}

/**
 * How `text` collapses, or undefined when it shows whole. Work is bounded by `domChars`, not the text's size: a 5 MB
 * text costs the same as a 50 KB one.
 */
export function collapseText(text: string, bounds: TextBounds): Collapsed | undefined {
  if (text.length <= bounds.aboveChars && !hasMoreLines(text, bounds.aboveLines)) return undefined;
  if (text.length <= bounds.domChars) return { held: text };
  const cut = text.lastIndexOf('\n', bounds.domChars);
  return { held: text.slice(0, cut > bounds.domChars / 2 ? cut : bounds.domChars) };
}

/** True when `text` has more than `lines` lines (a trailing newline does not start a line). */
function hasMoreLines(text: string, lines: number): boolean {
  if (!Number.isFinite(lines)) return false;
  let position = 0;
  for (let line = 0; line < lines; line++) {
    const newline = text.indexOf('\n', position);
    if (newline === -1) return false;
    position = newline + 1;
  }
  return position < text.length;
}
