import { readFile } from 'node:fs/promises';
import { HostError } from '@airlock/core';

/**
 * The text of `--args`: as typed, the content of FILE for `@FILE`, or all of standard input for `-` (as `gh` and
 * `curl -d @file` do), so arguments too long or too quoted for a shell line still reach the tool exactly.
 */
export async function readArgsOption(
  value: string | undefined,
  stdin: NodeJS.ReadableStream,
): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (value === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (!value.startsWith('@')) return value;
  const file = value.slice(1);
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new HostError('invalid_arguments', `--args @${file}: cannot read ${file} (${reason})`);
  }
}
