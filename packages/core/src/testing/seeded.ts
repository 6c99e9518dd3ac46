/**
 * A seeded generator for tests that sweep many inputs: the same sequence on every run, so a failure repeats. `next`
 * gives a number in [0, 1); `pick` one of the values.
 */
export function seeded(seed: number): { next: () => number; pick: <T>(values: readonly T[]) => T } {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  return { next, pick };
}
