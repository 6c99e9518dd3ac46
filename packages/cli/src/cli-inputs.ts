import type { ConfigInput, HostStore, InputResolver, ServerConfig, TokenVault } from '@airlock/core';
import { HostError, StoredInputs } from '@airlock/core';
import { askInputAtTerminal, inputValue } from './terminal-input.js';

/** What asks the user for an input's value; absent where no one can be asked (no terminal). */
export type AskInput = (input: ConfigInput, serverId: string) => Promise<string | undefined>;

/**
 * The CLI's inputs: the value the user gave before (sealed in the store, per user and config file), else asked at the
 * terminal and kept for next time. With no terminal, nothing is asked: the server that needs it fails, saying how to
 * give the input a value.
 */
export function cliInputResolver(options: {
  readonly store: HostStore;
  readonly vault: TokenVault;
  readonly userId: string;
  readonly configFlag: string;
  readonly ask?: AskInput;
}): InputResolver {
  const stored = new StoredInputs({ store: options.store, vault: options.vault });
  // One question per input and run, however many servers use it.
  const asked = new Map<string, Promise<string | undefined>>();
  return {
    async value({ input, serverId, source }) {
      const key = { userId: options.userId, source, inputId: input.id };
      const known = await stored.get(key);
      if (known !== undefined || options.ask === undefined) return known;
      let once = asked.get(input.id);
      if (once === undefined) {
        once = options.ask(input, serverId).then(async (value) => {
          if (value !== undefined) await stored.set(key, value);
          return value;
        });
        asked.set(input.id, once);
      }
      return once;
    },
    howToSet: (input) => `no terminal to ask in; set it with: airlock inputs set ${input.id}${options.configFlag}`,
  };
}

/** The terminal's way of asking, for a CLI run in one. */
export function terminalAsk(stdin: NodeJS.ReadStream, output: NodeJS.WritableStream): AskInput {
  // Questions are asked one at a time: servers start in parallel, the terminal is one.
  let queue: Promise<unknown> = Promise.resolve();
  return (input, serverId) => {
    const next = queue.then(() => askInputAtTerminal({ input, serverId, stdin, output }));
    queue = next.catch(() => undefined);
    return next;
  };
}

/**
 * `airlock inputs set ID` (asked at the terminal, masked for a password; read from stdin when it is not a terminal),
 * `airlock inputs clear ID`, and `airlock inputs` (each input of the config, and whether it has a value).
 */
export async function inputsCommand(options: {
  readonly rest: readonly string[];
  readonly servers: readonly ServerConfig[];
  readonly source: string;
  readonly store: HostStore;
  readonly vault: TokenVault;
  readonly userId: string;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}): Promise<number> {
  const [action = 'list', id] = options.rest;
  // The inputs the config's servers use (the file declares them), and the file they are bound to.
  const declared = [
    ...new Map(options.servers.flatMap((s) => s.inputs?.declared ?? []).map((d) => [d.id, d])).values(),
  ];
  const source = options.servers.find((s) => s.inputs !== undefined)?.inputs?.source ?? options.source;
  const stored = new StoredInputs({ store: options.store, vault: options.vault });
  if (action === 'list') {
    for (const input of declared) {
      const has = (await stored.get({ userId: options.userId, source, inputId: input.id })) !== undefined;
      const users = options.servers.filter((s) => s.inputs?.declared.some((d) => d.id === input.id)).map((s) => s.id);
      options.stdout.write(
        `${input.id}\t${has ? 'set' : 'not set'}\t${input.description ?? ''}\t${users.join(', ') || '(unused)'}\n`,
      );
    }
    if (declared.length === 0) options.stdout.write(`no server of ${source} uses an input\n`);
    return 0;
  }
  const input = declared.find((d) => d.id === id);
  if (input === undefined) {
    const known = declared.map((d) => d.id).join(', ') || 'none';
    throw new HostError('config_invalid', `no server of ${source} uses an input "${id}" (inputs in use: ${known})`);
  }
  const key = { userId: options.userId, source, inputId: input.id };
  if (action === 'clear') {
    const had = await stored.clear(key);
    options.stdout.write(had ? `input "${input.id}" cleared\n` : `input "${input.id}" had no value\n`);
    return 0;
  }
  const value =
    options.stdin.isTTY === true
      ? await askInputAtTerminal({ input, stdin: options.stdin, output: options.stderr })
      : inputValue(input, (await readAll(options.stdin)).replace(/\r?\n$/, ''));
  if (value === undefined || value === '') {
    const choices = input.options === undefined ? '' : ` (one of: ${input.options.join(', ')}, or its number)`;
    options.stderr.write(`airlock: no value given${choices}; input "${input.id}" unchanged\n`);
    return 2;
  }
  await stored.set(key, value);
  options.stdout.write(`input "${input.id}" set (kept sealed for ${options.userId})\n`);
  return 0;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}
