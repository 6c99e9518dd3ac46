// Small helpers the target benches share: quantiles, the spread of a figure over runs, and a thread's own CPU time.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** The q-quantile of samples (nearest rank). */
export function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** A figure over several runs: its median, least and most, rounded to `digits` decimals. */
export function spread(values, digits = 3) {
  const f = 10 ** digits;
  const r = (x) => Math.round(x * f) / f;
  return { median: r(quantile(values, 0.5)), min: r(Math.min(...values)), max: r(Math.max(...values)) };
}

/** What every target line says about the machine it ran on. */
export const MACHINE = { cores: availableParallelism(), node: process.versions.node };

/**
 * CPU time the calling thread has run, in microseconds (Linux: /proc/thread-self/schedstat, in nanoseconds), or
 * undefined where the system does not tell a thread's own time. Node 20 has no per-thread CPU clock of its own;
 * process.cpuUsage() counts every thread (the store's worker, the garbage collector's helpers).
 */
export function threadCpuUs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1000;
  } catch {
    return undefined;
  }
}

/** CPU time of the whole process, every thread, in microseconds. */
export function processCpuUs() {
  const { user, system } = process.cpuUsage();
  return user + system;
}
