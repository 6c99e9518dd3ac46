/** Every line of {@link hugeText} is this long, newline included, so a line number tells its offset. */
export const HUGE_TEXT_LINE_LENGTH = 100;

const PREFIX_LENGTH = 'line 000001: '.length;
const FILLER = 'abcdefghijklmnopqrstuvwxyz'.repeat(4).slice(0, HUGE_TEXT_LINE_LENGTH - PREFIX_LENGTH - 1);

/**
 * Exactly `chars` characters of numbered lines (`line 000001: abc…`), the last one cut where the count ends.
 *
 * Deterministic and recognisable at both ends, so a host's tests can check what survived truncation and paging.
 */
export function hugeText(chars: number): string {
  if (!Number.isInteger(chars) || chars < 0) throw new RangeError(`chars must be a non-negative integer, got ${chars}`);
  const lines = Math.ceil(chars / HUGE_TEXT_LINE_LENGTH);
  const parts = new Array<string>(lines);
  for (let i = 0; i < lines; i++) parts[i] = `line ${String(i + 1).padStart(6, '0')}: ${FILLER}\n`;
  return parts.join('').slice(0, chars);
}
