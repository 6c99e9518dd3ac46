/**
 * The known key a misspelt one most likely meant: same letters in another case, or within a small edit distance
 * (at most 2, and at most a third of the known key's length, so `cwd` is never "meant" by `env`). Undefined when none
 * is close: then the key is foreign, not a typo.
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (candidate.toLowerCase() === key.toLowerCase()) return candidate;
    const distance = editDistance(key, candidate);
    const allowed = Math.min(2, Math.max(1, Math.floor(candidate.length / 3)));
    if (distance <= allowed && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance (insertions, deletions, substitutions), two rows. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
