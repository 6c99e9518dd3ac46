import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConfigFile, ConfigVariables } from '@airlock/core';
import { HostError, parseJsoncValue, readConfigFile, readConfigText } from '@airlock/core';
import { importHostConfig } from './config-import.js';
import { transportLabel } from './config-command.js';
import { DEFAULT_CONFIG_FILE } from './cli-config.js';
import { hostConfigPaths } from './host-config-paths.js';
import type { ImportHost, PathPlace } from './host-config-paths.js';

const HOST_NAMES: Readonly<Record<ImportHost, string>> = {
  claude: 'Claude Desktop',
  vscode: 'VS Code',
  cursor: 'Cursor',
};

/** What `airlock config import HOST [FILE] [--out FILE] [--force]` was asked, and where it runs. */
export interface ConfigImportRequest extends PathPlace {
  readonly host: ImportHost;
  readonly file?: string;
  readonly out?: string;
  readonly force: boolean;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/**
 * `airlock config import claude|vscode|cursor [FILE]`: reads that host's MCP config (the file named, else the first
 * of its default paths that exists), writes an Airlock config that Airlock's own reader accepts (checked before it is
 * written; a file that would not load is never written), and says what it could not carry. The file appears whole or
 * not at all (a temporary file, then a rename) and replaces an existing one only with `--force`.
 */
export function configImport(request: ConfigImportRequest): void {
  const source = sourceFile(request);
  const out = resolve(request.cwd, request.out ?? DEFAULT_CONFIG_FILE);
  if (out === source) throw new HostError('config_invalid', `${out} is the file being imported: name another --out`);
  if (!request.force && existsSync(out)) {
    throw new HostError('config_invalid', `${out} already exists: nothing written (--force replaces it)`);
  }
  const value = parseJsoncValue(readConfigText(source, `${HOST_NAMES[request.host]} config`), source);
  const imported = importHostConfig(request.host, value, {
    source,
    sourceDir: dirname(source),
    outDir: dirname(out),
    serverKeys: serverKeys(),
    env: request.env,
  });
  mkdirSync(dirname(out), { recursive: true });
  // A name no one can guess, created here only ('wx'): a link planted in a shared folder is never written through.
  const temporary = join(dirname(out), `.${basename(out)}.${randomBytes(8).toString('hex')}.tmp`);
  // Owner-only: the source may hold secrets in clear, and they are carried as they are.
  writeFileSync(temporary, `${JSON.stringify(imported.json, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  let checked: ConfigFile;
  try {
    checked = readConfigFile(temporary, { variables: checkVariables(request.env, dirname(out), request.home) });
    if (request.force) renameSync(temporary, out);
    else linkSync(temporary, out); // fails if a file appeared at `out` meanwhile: never replaced without --force
  } catch (error) {
    const message = (error as Error).message.split(temporary).join(out);
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new HostError('config_invalid', `${out} already exists: nothing written (--force replaces it)`);
    }
    throw new HostError('config_invalid', `the imported config would not load, so nothing was written: ${message}`);
  } finally {
    rmSync(temporary, { force: true });
  }
  for (const line of imported.notCarried) request.stderr.write(`airlock: not carried: ${line}\n`);
  for (const line of imported.renamed) request.stderr.write(`airlock: note: ${line}\n`);
  for (const line of imported.warnings) request.stderr.write(`airlock: warning: ${line}\n`);
  request.stdout.write(`wrote ${out}: ${checked.servers.length} server(s) from ${source}\n`);
  for (const server of checked.servers) {
    const name = server.name === undefined ? '' : ` ("${server.name}")`;
    request.stdout.write(`  ${server.id}${name}: ${transportLabel(server)}${server.disabled ? ', disabled' : ''}\n`);
  }
  const flag = out === resolve(request.cwd, DEFAULT_CONFIG_FILE) ? '' : ` --config ${out}`;
  request.stdout.write(`Next: airlock servers${flag}\n`);
}

/** The file named, else the first default path of the host that exists (the others are said when none does). */
function sourceFile(request: ConfigImportRequest): string {
  if (request.file !== undefined) return resolve(request.cwd, request.file);
  const candidates = hostConfigPaths(request.host, request);
  const found = candidates.find((path) => existsSync(path));
  if (found !== undefined) return found;
  throw new HostError(
    'config_invalid',
    `no ${HOST_NAMES[request.host]} config found (looked for ${candidates.join(', ')}): ` +
      `name the file: airlock config import ${request.host} FILE`,
  );
}

/** The keys of a server entry, from the JSON Schema Airlock ships (derived from the same definition as its reader). */
function serverKeys(): string[] {
  const schema = JSON.parse(
    readFileSync(fileURLToPath(import.meta.resolve('@airlock/core/config-schema.json')), 'utf8'),
  ) as { $defs: { server: { properties: Record<string, unknown> } } };
  return Object.keys(schema.$defs.server.properties);
}

/**
 * The variables the written file is checked with: `${workspaceFolder}` is its folder (as when it is run), and an
 * environment variable unset here stands for the value it will have when the server starts (it is warned about).
 */
function checkVariables(env: NodeJS.ProcessEnv, folder: string, home: string | undefined): ConfigVariables {
  const standIn = new Proxy(env, {
    get: (target, name) => (typeof name === 'string' ? (target[name] ?? 'unset') : undefined),
  });
  return { env: standIn, userHome: home ?? homedir(), workspaceFolder: folder, pathSeparator: sep };
}
