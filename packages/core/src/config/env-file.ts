import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Reads a server's `envFile` (dotenv syntax: `NAME=value`, `#` comments, quoted values, `export` prefixes), a path
 * relative to the config file's folder as VS Code reads it. Its values are taken as written (no variables expanded);
 * the entry's own `env` wins over them. A file that cannot be read is refused through `fail`, naming the file.
 */
export function readEnvFile(path: string, folder: string, fail: (problem: string) => never): Record<string, string> {
  const file = isAbsolute(path) ? path : join(folder, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(code === 'ENOENT' ? `names ${file}, which does not exist` : `cannot read ${file}: ${String(error)}`);
  }
  // `export NAME=value` is common in shell-sourced files; parseEnv would keep "export NAME" as the name.
  const parsed = parseEnv(text.replace(/^[ \t]*export[ \t]+/gm, ''));
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
