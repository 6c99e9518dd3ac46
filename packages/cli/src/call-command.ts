import { findTool } from './tool-command.js';
import type { Host, InvocationRecord, Scope } from '@airlock/core';
import { HostError } from '@airlock/core';
import type { Style } from './cli-style.js';
import { EXIT_CODES } from './exit-codes.js';
import { ProgressDisplay } from './progress-bar.js';
import { cardArguments, cardHeader, cardResult } from './terminal-card.js';

/** Where `airlock call` writes: the result on stdout, the card's life (header, arguments, progress) on stderr. */
export interface CallIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** How stdout and stderr are painted. */
  readonly style: { readonly stdout: Style; readonly stderr: Style };
  /** Whether stderr is a terminal, where progress is one bar redrawn in place. */
  readonly stderrIsTerminal: boolean;
}

/**
 * `airlock call SERVER/TOOL`: the call through the host's one path (consent, bounds, history). The command line was
 * checked before the host started; here the server and tool must exist. Ctrl-C cancels the call, twice quits.
 */
export async function call(
  host: Host,
  scope: Scope,
  target: string,
  values: { args?: string; timeout?: string; full: boolean; json: boolean },
  io: CallIo,
): Promise<number> {
  const [serverId = ''] = target.split('/');
  const args: unknown = values.args === undefined ? {} : JSON.parse(values.args);
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  // As this user sees it: on a server each user signs in to, their own connection.
  const server = host.servers.list({ scope }).find((s) => s.id === serverId);
  if (server?.state === 'needs_auth') {
    throw new HostError(
      'needs_auth',
      `server "${serverId}" needs you to sign in first: airlock auth login ${serverId}${server.error === undefined ? '' : ` (${server.error})`}`,
    );
  }
  if (server?.state !== 'ready') {
    throw new HostError('server_unavailable', server?.error ?? `server "${serverId}" is ${server?.state ?? 'unknown'}`);
  }
  const tool = findTool(host, scope, target);

  const controller = new AbortController();
  let interrupts = 0;
  // With --json nothing but the JSON is written: no card on stderr and no bar.
  const display = new ProgressDisplay(io.stderr, io.stderrIsTerminal && !values.json);
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT_CODES.cancelled);
    display.line('\ncancelling… (Ctrl-C again to quit at once)');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const log = (text: string) => {
    if (!values.json) display.line(text);
  };
  const offTransition = host.on('invocation.transition', ({ invocation }) => {
    log(cardHeader(invocation, io.style.stderr));
    if (invocation.state === 'pending') log(cardArguments(invocation.args));
  });
  const offProgress = host.on('invocation.progress', ({ progress }) => {
    if (!values.json) display.update(progress);
  });
  // A server's question is asked on the same stream: it starts on a line of its own, below the bar.
  const offQuestion = host.on('elicitation.requested', () => display.end());
  try {
    const result = await host.invoke({
      scope,
      caller: { kind: 'user' },
      tool: tool.name,
      args,
      signal: controller.signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    display.end();
    // Refused before it was recorded (arguments that fail the schema): nothing was sent, and no history has it.
    if (result.outcome === 'tool_not_found' || result.outcome === 'invalid_arguments') {
      io.stderr.write(`airlock: ${result.error?.message ?? result.text}\n`);
      return EXIT_CODES[result.outcome];
    }
    const entry = await host.history.get({ scope, invocationId: result.invocationId });
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ ...result, screen: entry?.result?.screen }, null, 2)}\n`);
    } else if (entry?.result !== undefined) {
      io.stdout.write(`${await resultText(host, scope, entry.invocation, entry.result.screen, values.full, io)}\n`);
    }
    if (!values.json)
      io.stderr.write(`${io.style.stderr.dim(`  again: airlock history show ${result.invocationId}`)}\n`);
    return EXIT_CODES[result.outcome];
  } finally {
    display.end();
    offTransition();
    offProgress();
    offQuestion();
    process.off('SIGINT', onSigint);
  }
}

async function resultText(
  host: Host,
  scope: Scope,
  invocation: InvocationRecord,
  screen: Parameters<typeof cardResult>[0],
  full: boolean,
  io: CallIo,
): Promise<string> {
  if (!full) return cardResult(screen, { full: false, invocationId: invocation.id });
  const parts: string[] = [];
  for (let offset = 0; ;) {
    const slice = await host.results.read({ scope, handle: screen.handle, offset, length: 1_000_000 });
    parts.push(slice.text);
    if (slice.done) break;
    offset += slice.text.length;
  }
  return `${cardHeader(invocation, io.style.stdout)}\n${parts.join('')}`;
}
