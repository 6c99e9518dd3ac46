// Small helpers the target benches share: quantiles, the spread of a figure over runs, and a thread's own CPU time.
import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * CPU time of each thread of this process, in microseconds, by thread id (Linux: /proc/self/task/TID/stat, whose
 * utime and stime are in clock ticks of 10 ms: good for totals over a round, not for one call). Empty elsewhere.
 */
export function threadsCpuUs() {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * 10_000);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * CPU per call of a stretch of work, split into the call thread (this process's main thread), the thread `storeTid`
 * names (a store's worker; 0 for none) and every other thread (the garbage collector's helpers, libuv's pool), from two
 * `threadsCpuUs` readings; null where the system does not tell threads apart.
 */
export function cpuSplit(before, after, calls, storeTid = 0) {
  if (after.size === 0) return null;
  const split = { call_thread: 0, store_worker: 0, other_threads: 0 };
  for (const [tid, us] of after) {
    const used = us - (before.get(tid) ?? 0);
    if (tid === process.pid) split.call_thread += used;
    else if (tid === storeTid) split.store_worker += used;
    else split.other_threads += used;
  }
  for (const key of Object.keys(split)) split[key] = Math.round((split[key] / calls) * 10) / 10;
  return split;
}
