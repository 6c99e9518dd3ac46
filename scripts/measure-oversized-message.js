// What a message over the cap costs the host (issue 15, item 2): a 50 MB tools/call result from one stdio demo server
// while an echo loop runs on another, and a 50 MB tools/list reply at connect. Prints one JSON line each: when the big
// reply's first byte came, when it passed the cap, when the call was refused, the worst echo and event-loop delay
// before (1 s of echo alone) and during. Needs the built packages (npm run build).
// Usage: node scripts/measure-oversized-message.js [capMB=16] [resultMB=50]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createHost } from '@airlock/core';
import { LineReader } from '../packages/core/dist/servers/line-reader.js';

const capMb = Number(process.argv[2] ?? 16);
const resultMb = Number(process.argv[3] ?? 50);
const demoBin = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
const server = (id, args = []) => ({
  id,
  transport: 'stdio',
  command: process.execPath,
  args: [demoBin, ...args],
  env: {},
  trusted: false,
  disabled: false,
});
const scope = { userId: 'm', workspaceId: 'm', conversationId: 'm' };
const round = (ms) => (ms === undefined ? undefined : Math.round(ms * 10) / 10);

// The chunks read from servers' stdout, timed: where the big reply's bytes arrive.
const chunks = [];
const push = LineReader.prototype.push;
LineReader.prototype.push = function (chunk) {
  if (chunk.length >= 16_384) chunks.push([performance.now(), chunk.length]);
  return push.call(this, chunk);
};

async function echoLoop(call, until) {
  const samples = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  while (!until()) {
    const t = performance.now();
    const result = await call('other__echo', { text: 'ping' });
    if (result.outcome !== 'success') throw new Error(result.text);
    samples.push(performance.now() - t);
  }
  loop.disable();
  samples.sort((a, b) => a - b);
  return {
    calls: samples.length,
    medianMs: round(samples[Math.floor(samples.length / 2)]),
    maxMs: round(samples.at(-1)),
    eventLoopMaxDelayMs: round(loop.max / 1e6),
  };
}

{
  const host = createHost({
    servers: [server('big'), server('other')],
    surface: { askPermission: async () => 'allow_once', elicit: async () => ({ action: 'cancel' }) },
    limits: { maxMessageBytes: capMb * 1_000_000, timeoutMs: 120_000 },
  });
  await host.servers.settled();
  const call = (tool, args) => host.invoke({ scope, caller: { kind: 'model' }, tool, args });
  for (let i = 0; i < 200; i++) await call('other__echo', { text: 'warm' });
  const stopAt = performance.now() + 1_000;
  const alone = await echoLoop(call, () => performance.now() > stopAt);
  let done = false;
  const start = performance.now();
  const big = call('big__huge_output', { megabytes: resultMb }).then((result) => {
    done = true;
    return { result, ms: performance.now() - start };
  });
  const during = await echoLoop(call, () => done);
  const { result, ms } = await big;
  let firstByteMs;
  let capPassedMs;
  let bytes = 0;
  for (const [t, n] of chunks) {
    if (t < start) continue;
    firstByteMs ??= t - start;
    bytes += n;
    if (bytes > capMb * 1_000_000) {
      capPassedMs = t - start;
      break;
    }
  }
  console.log(
    JSON.stringify({
      bench: 'oversized_result',
      capMb,
      resultMb,
      outcome: result.outcome,
      code: result.error?.code,
      firstByteMs: round(firstByteMs),
      capPassedMs: round(capPassedMs),
      endedMs: round(ms),
      echoAlone: alone,
      echoDuring: during,
    }),
  );
  await host.close();
}

{
  const start = performance.now();
  const host = createHost({
    servers: [server('listing', ['--huge-list-mb', String(resultMb)])],
    limits: { maxMessageBytes: capMb * 1_000_000 },
  });
  await host.servers.settled();
  const listing = host.servers.list()[0];
  console.log(
    JSON.stringify({
      bench: 'oversized_tools_list',
      capMb,
      replyMb: resultMb,
      state: listing?.state,
      settledMs: round(performance.now() - start),
      error: listing?.error,
    }),
  );
  await host.close();
}
process.exit(0);
