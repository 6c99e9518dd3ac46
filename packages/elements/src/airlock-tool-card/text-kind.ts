/**
 * How a result text is drawn: as markdown, as plain text that keeps its line breaks in the reading font, or as plain
 * text in a monospace font (output whose columns or numbering matter).
 */
export type TextKind = 'markdown' | 'plain' | 'monospace';

/** Only this much of a text is looked at: the kind of a 5 MB log is decided by its head. */
const SAMPLE = 4_000;

/**
 * Marks only markdown makes (as the line's start where noted): an ATX heading, a code fence, a bullet or numbered
 * list item, a block quote, a table's separator row, a link or image, bold, inline code.
 */
const MARKDOWN_SIGNS: readonly RegExp[] = [
  /^#{1,6}\s+\S/m,
  /^\s{0,3}(?:```|~~~)/m,
  /^\s{0,3}[-*+]\s+\S/m,
  /^\s{0,3}\d{1,3}[.)]\s+\S/m,
  /^\s{0,3}>\s/m,
  /^\s*\|?\s*:?-{3,}:?\s*\|/m,
  /!?\[[^\]\n]+\]\([^)\s]+\)/,
  /(?:\*\*|__)\S[^\n]*?\S(?:\*\*|__)/,
  /`[^`\n]+`/,
];

/** Output that lines up in columns or counts its lines: a tab, a run of 3+ spaces inside a line, box drawing. */
const MONOSPACE_SIGNS: readonly RegExp[] = [/\t/, /\S {3,}\S/, /[\u2500-\u257f]/, /^\s*\d+[:|]\s/m];

/**
 * The kind of a text block. A declared mime type wins (`text/markdown` is markdown, any other declared type is
 * plain). Without one, the heuristic: a text with a markdown sign (see `MARKDOWN_SIGNS`) is markdown, unless it
 * also looks like columnar output (`MONOSPACE_SIGNS`) on more lines than it has markdown signs, which is monospace;
 * a text with no markdown sign is monospace when it has a columnar sign, else plain. Plain and monospace keep every
 * line break; nothing but markdown goes through the markdown renderer.
 */
export function textKind(text: string, mimeType?: string): TextKind {
  const sample = text.slice(0, SAMPLE);
  if (mimeType !== undefined && mimeType !== '') {
    if (/^text\/(?:x-)?markdown\s*(?:;|$)/i.test(mimeType)) return 'markdown';
    return MONOSPACE_SIGNS.some((sign) => sign.test(sample)) ? 'monospace' : 'plain';
  }
  const markdown = MARKDOWN_SIGNS.filter((sign) => sign.test(sample)).length;
  const columnar = sample.split('\n').filter((line) => MONOSPACE_SIGNS.some((sign) => sign.test(line))).length;
  if (markdown > 0 && columnar <= markdown) return 'markdown';
  return columnar > 0 ? 'monospace' : 'plain';
}
