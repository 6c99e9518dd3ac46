/**
 * The candidate closest to what was typed, when it is close enough to be a typo (at most a third of the word's
 * letters off, at least one), or undefined: a guess far from the word misleads more than it helps.
 */
export function didYouMean(typed: string, candidates: readonly string[]): string | undefined {
  const budget = Math.max(1, Math.floor(typed.length / 3));
  let best: { word: string; distance: number } | undefined;
  for (const word of candidates) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase());
    if (distance <= budget && (best === undefined || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

/** The hint sentence for a guess, ready to append to an error (empty when there is none). */
export function suggestion(typed: string, candidates: readonly string[]): string {
  const guess = didYouMean(typed, candidates);
  return guess === undefined ? '' : `. Did you mean ${guess}?`;
}

/** Damerau-Levenshtein distance (optimal string alignment): a swap of two letters counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j += 1) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}
