// What the PostgreSQL benches share: a host whose one tool is a native echo a rule allows (so the store is what a
// call costs beyond the host's own path), and the database server's CPU time read from /proc.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createHost } from '@airlock/core';

const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** A host on `store` under `durability`, serving one native `echo` tool that a rule allows. */
export function echoHost(store, durability) {
  return createHost({
    servers: { mcpServers: {} },
    store,
    durability,
    surface: { askPermission: () => Promise.resolve('deny') },
    permissions: { rules: [{ effect: 'allow', tool: 'echo' }] },
    tools: [
      {
        name: 'echo',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        run: (args) => Promise.resolve({ content: [{ type: 'text', text: String(args.text) }] }),
      },
    ],
  });
}

/**
 * CPU time (µs) used so far by the postmaster and its backends: the live ones' own, and the postmaster's count of
 * those that have ended (cutime, cstime), so the sum only grows when a pool closes between two readings.
 */
export function postgresCpuUs(postmaster) {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15) cutime(16) cstime(17).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) === postmaster)
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    else if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * TICK_US;
}
