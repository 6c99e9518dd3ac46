/**
 * When a text collapses and how much of it shows while collapsed. A text collapses when it is longer than
 * `aboveChars` or has more than `aboveLines` lines; the collapsed head is its first `lines` lines, never more than
 * `chars` characters (one 5 MB line must not reach the screen either).
 */
export interface TextBounds {
  readonly aboveChars: number;
  readonly aboveLines: number;
  readonly lines: number;
  readonly chars: number;
}

/** Result text (DESIGN.md, Bounds): beyond 2,000 characters it collapses after 30 lines. */
export const RESULT_TEXT_BOUNDS: TextBounds = { aboveChars: 2_000, aboveLines: Infinity, lines: 30, chars: 2_000 };

/** Arguments: more than 100 lines (or a very long line) collapse to the first 100 lines. */
export const ARGS_TEXT_BOUNDS: TextBounds = { aboveChars: 10_000, aboveLines: 100, lines: 100, chars: 10_000 };

/**
 * Markdown is rendered only up to this many characters; a longer text, shown in full after "show more", is plain
 * preformatted text. marked over megabytes would block the page for seconds.
 */
export const MARKDOWN_MAX_CHARS = 100_000;

/**
 * The collapsed head of `text`, or undefined when the text shows whole. Work is bounded by the head's size, not the
 * text's: a 5 MB text costs the same as a 5 KB one.
 */
export function textHead(text: string, bounds: TextBounds): string | undefined {
  if (text.length <= bounds.aboveChars && !hasMoreLines(text, bounds.aboveLines)) return undefined;
  const end = endOfLines(text, bounds.lines, bounds.chars);
  return end >= text.length ? undefined : text.slice(0, end);
}

/** The index just before the newline that ends line `lines`, capped at `limit`. */
function endOfLines(text: string, lines: number, limit: number): number {
  const window = text.slice(0, limit + 1);
  let position = 0;
  for (let line = 0; line < lines; line++) {
    const newline = window.indexOf('\n', position);
    if (newline === -1 || newline >= limit) return Math.min(text.length, limit);
    position = newline + 1;
  }
  return position - 1;
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
