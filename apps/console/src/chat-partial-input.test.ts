// A tool call's input while the model still writes it: the console tells the page (its event stream) the arguments
// read so far, in order, for a tool with a view; then the call is made from the whole arguments and is recorded with
// the model's call id, so the page knows the early view and the card are one. Partial input is display only: the
// server gets one call, with the whole arguments.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseServersConfig } from '@airlock/core';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { startMockOpenAI } from '../../../test/e2e/mock-openai.js';
import { ConsoleClient } from './testing/console-client.js';
import type { ConsoleEvent, ConsoleEventStream } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

const DEMO_BIN = join(dirname(fileURLToPath(import.meta.resolve('@airlock/demo-server'))), 'bin.js');
const TOOL = 'demo__show_dashboard';
/** The arguments as the model streams them: joined, `{"title": "Quarterly notes"}`. */
const PIECES = ['{"ti', 'tle": "Quar', 'terly', ' notes"', '}'];

let dir: string;
let running: RunningConsole | undefined;
let mock: Awaited<ReturnType<typeof startMockOpenAI>> | undefined;
let stream: ConsoleEventStream | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'airlock-partial-input-'));
});
afterEach(async () => {
  await stream?.close();
  await running?.close();
  await mock?.close();
  stream = running = mock = undefined;
  await rm(dir, { recursive: true, force: true });
});

const partials = (events: readonly ConsoleEvent[]) => events.filter((e) => e.event === 'tool.input.partial');

describe('the input of a call to a tool with a view, while the model writes it', () => {
  it("reaches the page's stream in order as it grows, then the call with the same model call id", async () => {
    // Each piece is streamed once the page has the reading of the one before: nothing is merged by the throttle.
    const pace = (piece: number) =>
      stream!
        .waitFor(() => partials(stream!.events).length >= Math.min(piece, 4), `reading ${piece}`)
        .then(() => undefined);
    mock = await startMockOpenAI([
      { toolCall: { name: TOOL, arguments: {} }, argumentPieces: PIECES, pace },
      { text: () => 'There it is.' },
    ]);
    const callLog = join(dir, 'demo.ndjson');
    running = await startConsole(
      memoryConsoleConfig('partial input test', {
        servers: parseServersConfig({
          mcpServers: {
            demo: { command: process.execPath, args: [DEMO_BIN], env: { AIRLOCK_DEMO_CALL_LOG: callLog } },
          },
        }),
        rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'show_dashboard', source: 'test' }],
        model: { baseURL: mock.baseURL, model: 'mock-model' },
      }),
    );
    await running.host.servers.settled();
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    stream = await ana.openEvents('main');

    expect((await ana.post('/api/chat', { message: 'Show the dashboard', conversation: 'main' })).status).toBe(202);
    const ended = await stream.waitFor(
      (e) => e.event === 'invocation' && (e.data as { invocation: { state: string } }).invocation.state === 'success',
      'the call to succeed',
    );

    const told = partials(stream.events);
    expect(told.map((e) => e.data)).toEqual(
      [{}, { title: 'Quar' }, { title: 'Quarterly' }, { title: 'Quarterly notes' }].map((args) => ({
        conversationId: 'main',
        modelCallId: 'call_1',
        tool: TOOL,
        serverId: 'demo',
        args,
      })),
    );
    const firstCall = stream.events.findIndex((e) => e.event === 'invocation');
    expect(stream.events.indexOf(told.at(-1)!)).toBeLessThan(firstCall);
    expect((ended.data as { invocation: unknown }).invocation).toMatchObject({
      tool: TOOL,
      modelCallId: 'call_1',
      args: { title: 'Quarterly notes' },
    });
    // Display only: the server was called once, with the whole arguments.
    const calls = existsSync(callLog)
      ? readFileSync(callLog, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as { event: string; tool: string; args?: unknown })
          .filter((line) => line.event === 'call')
      : [];
    expect(calls).toEqual([expect.objectContaining({ tool: 'show_dashboard', args: { title: 'Quarterly notes' } })]);
  });
});
