import type { ConfigInput } from '@airlock/core';

/**
 * Asks for one of the config's inputs at the terminal: its description, then the value typed (each character shown
 * as "*" when the input is a password, in raw mode, so it never appears on screen) or, for a pickString, the number
 * or value of one of its options. Enter alone takes the default. Ctrl-C, Escape or the end of input gives undefined.
 */
export function askInputAtTerminal(options: {
  readonly input: ConfigInput;
  /** The server that needs it, when one is starting. */
  readonly serverId?: string;
  readonly stdin: NodeJS.ReadStream;
  readonly output: NodeJS.WritableStream;
}): Promise<string | undefined> {
  const { input, stdin, output } = options;
  // Raw mode before the prompt is written: a value typed (or pasted) the moment the prompt shows would otherwise be
  // echoed by the terminal in clear before it reaches us.
  const raw = stdin.isTTY === true;
  if (raw) stdin.setRawMode(true);
  const what = input.description ?? input.id;
  const who = options.serverId === undefined ? 'Input' : `Server "${options.serverId}" needs input`;
  output.write(`\n${who} "${input.id}": ${what}\n`);
  if (input.options !== undefined) {
    input.options.forEach((option, i) => output.write(`  [${i + 1}] ${option}\n`));
  }
  const shown = input.default === undefined || input.password === true ? '' : ` [${input.default}]`;
  output.write(`  > ${shown === '' ? '' : `${shown} `}`);
  return new Promise((resolve) => {
    let typed = '';
    const finish = (value: string | undefined) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      if (raw) stdin.setRawMode(false);
      stdin.pause();
      output.write('\n');
      resolve(value === undefined ? undefined : inputValue(input, value));
    };
    const onEnd = () => finish(typed === '' ? undefined : typed);
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return finish(typed);
        if (char === '\u0003' || char === '\u001b' || char === '\u0004') return finish(undefined);
        if (char === '\u007f' || char === '\b') {
          if (typed !== '') {
            typed = typed.slice(0, -1);
            output.write('\b \b');
          }
          continue;
        }
        typed += char;
        output.write(input.password === true ? '*' : char);
      }
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}

/** The value typed, read as the input wants it: the default for nothing, an option by its number or its text. */
export function inputValue(input: ConfigInput, typed: string): string | undefined {
  if (typed === '') return input.default;
  if (input.options === undefined) return typed;
  const byNumber = input.options[Number(typed) - 1];
  if (/^\d+$/.test(typed) && byNumber !== undefined) return byNumber;
  return input.options.includes(typed) ? typed : undefined;
}
