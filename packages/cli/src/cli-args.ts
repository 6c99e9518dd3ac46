import { parseArgs } from 'node:util';
import { suggestion } from './did-you-mean.js';
import { IMPORT_HOSTS } from './host-config-paths.js';

export const USAGE = `airlock: an MCP host in your terminal. Every tool call is shown, consented, bounded and kept in history.

Usage:
  airlock [--json]                 servers, and the tools the model would see
  airlock servers [--json]         each server's state (and why, and when it retries), trust, protocol, counts
  airlock servers logs SERVER [--follow]   the server's stderr and log notifications (--follow: until Ctrl-C)
  airlock servers disable|enable SERVER    switches a server off (not started, tools not listed) or on again
  airlock tools hide|show SERVER/TOOL [--everyone]   hides a tool from the model for you (or everyone here)
  airlock tools [--audience model|app|user] [--server ID] [--json]
  airlock tools SERVER/TOOL [--json]   one tool: its input schema, annotations, risk and stored decision
  airlock call SERVER/TOOL [--args JSON|@FILE|-] [--allow] [--timeout MS] [--full] [--json]
  airlock resources [--server ID] [--json]   resources and resource templates the servers offer
  airlock read SERVER URI [--full] [--json]  reads a resource (bounded; --full prints it whole)
  airlock prompts [--server ID] [--json]     prompts the servers offer, with their arguments
  airlock prompt SERVER NAME [--args JSON]   a prompt filled with its arguments (text values)
  airlock history [--limit N] [--json]   your calls (this CLI's and the console's), newest first
  airlock history show ID [--full] one call: its transitions and the result as the model got it
  airlock tasks [--json]           calls whose tasks are still open, per user and workspace
  airlock permissions list [--json]      stored decisions (allow always / deny always) in this workspace
  airlock permissions revoke ID | --server ID
  airlock permissions explain SERVER/TOOL [--args JSON]   which rule or decision decides, and why
  airlock audit [--limit N] | --export | --verify   the audit trail; --verify checks the hash chain
  airlock audit --export --format seed              only the permission decisions, one JSON line each
  airlock audit --verify --anchor FILE              also checks the chain still reaches every anchored head
  airlock audit anchor FILE                         appends the chain head to FILE (outside the data directory)
  airlock retention [--dry-run] [--json]            removes what aged out (results 7 d, history 90 d, audit 400 d)
  airlock auth login|logout SERVER                 sign in to a remote server (browser, loopback) or out of it
  airlock auth status [--json]                      your sign-in to each server that asks for one
  airlock config check [FILE]                       checks a config (variables, inputs, envFile) without starting servers
  airlock config import claude|vscode|cursor [FILE] [--out FILE] [--force]
                                                    writes an Airlock config from that host's MCP config file
  airlock inputs [set|clear ID]                     the config's inputs (\${input:ID}): set one (asked, masked), or clear it
  airlock completion bash|zsh|fish                  a shell completion script (e.g. source <(airlock completion bash))
  airlock console [--config FILE] [--port N] [--store FILE]   the web console (airlock console --help)
  airlock gateway [--config FILE] [--http]  Airlock as an MCP server for your MCP client (airlock gateway --help)
  airlock help [COMMAND]                            one command in detail (or: airlock COMMAND --help)

An ID may be given by its first characters (airlock history show 375a) when no other id starts with them.

Options:
  --config FILE        servers in the mcpServers JSON (default $AIRLOCK_CONFIG, ./airlock.config.json,
                       ~/.config/airlock/config.json, else the demo server)
  --store FILE         SQLite history file (default $AIRLOCK_STORE, the config's store.path, or
                       ~/.local/share/airlock/airlock.db)
  --workspace NAME     the workspace calls are kept under (default "default")
  --user NAME          the user calls are kept under (default your OS user name; a console sign-in name
                       reads that person's calls on the same store)
  --negotiation MODE   legacy (2025-11-25, default) or auto (probe for 2026-07-28)
  --rules FILE         permission rules ({"rules": [{"effect": "allow|deny|ask", "server", "tool", "name"}]})
  --lang LOCALE        en-US or pt-BR (default from LANG)
  --allow              allow this one call without asking (otherwise asked in a terminal, denied elsewhere)
  --json               machine-readable output (JSON on stdout, no colour, no progress bar)
  --verbose            debug logs on stderr (JSON lines; by default only warnings and errors)
  -V, --version        the version of this CLI

Colour is used in a terminal only; NO_COLOR=1 turns it off, FORCE_COLOR=1 on (FORCE_COLOR=0 off).
`;

const OPTIONS = {
  config: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean', default: false },
  rules: { type: 'string' },
  lang: { type: 'string' },
  export: { type: 'boolean', default: false },
  verify: { type: 'boolean', default: false },
  format: { type: 'string' },
  anchor: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
  store: { type: 'string' },
  workspace: { type: 'string' },
  user: { type: 'string' },
  negotiation: { type: 'string' },
  audience: { type: 'string' },
  server: { type: 'string' },
  args: { type: 'string' },
  allow: { type: 'boolean', default: false },
  timeout: { type: 'string' },
  limit: { type: 'string' },
  full: { type: 'boolean', default: false },
  follow: { type: 'boolean', default: false },
  everyone: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'V', default: false },
} as const;

/** Every command, in the order the shell offers them. */
export const COMMANDS = [
  'servers',
  'tools',
  'call',
  'resources',
  'read',
  'prompts',
  'prompt',
  'history',
  'tasks',
  'permissions',
  'audit',
  'retention',
  'auth',
  'config',
  'inputs',
  'completion',
  'console',
  'gateway',
  'help',
] as const;

/** The actions a command takes as its next word. */
export const SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  history: ['show'],
  servers: ['logs', 'disable', 'enable'],
  tools: ['hide', 'show'],
  permissions: ['list', 'revoke', 'explain'],
  audit: ['anchor'],
  auth: ['login', 'logout', 'status'],
  config: ['check', 'import'],
  inputs: ['set', 'clear'],
  completion: ['bash', 'zsh', 'fish'],
};

/** Every long option, as typed. */
export const OPTION_NAMES: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`);

/** The long options that take a value (the next word is theirs, not a command's argument). */
export const VALUE_OPTION_NAMES: readonly string[] = Object.entries(OPTIONS)
  .filter(([, option]) => option.type === 'string')
  .map(([name]) => `--${name}`);

export type CliValues = ReturnType<typeof parseOptions>['values'];

function parseOptions(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
}

/**
 * A command line that parsed and whose arguments make sense, or what is wrong with it (and the command it is about,
 * when that much was understood, so the error can show that command's usage).
 */
export type ParsedCommandLine =
  { ok: true; command: string; rest: string[]; values: CliValues } | { ok: false; error: string; command?: string };

/**
 * Parses and checks the whole command line before anything starts: an unknown option, a missing or malformed
 * argument, or a value out of range is reported here, so a mistake never costs a server start (or leaves one behind).
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const named = argv.find((word) => !word.startsWith('-'));
  const about = named !== undefined && (COMMANDS as readonly string[]).includes(named) ? named : undefined;
  const badOption = unknownOption(argv);
  if (badOption !== undefined)
    return { ok: false, error: badOption, ...(about === undefined ? {} : { command: about }) };
  let parsed;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    return {
      ok: false,
      error: optionError(error as Error & { code?: string }),
      ...(about === undefined ? {} : { command: about }),
    };
  }
  const { values, positionals } = parsed;
  const [command = 'overview', ...rest] = positionals;
  const error = checkCommand(command, rest, values);
  if (error === undefined) return { ok: true, command, rest, values };
  return { ok: false, error, ...(about === undefined ? {} : { command: about }) };
}

/** The first option nobody knows (before a `--`), said our way, with the option it most likely meant. */
function unknownOption(argv: readonly string[]): string | undefined {
  const shorts = Object.values(OPTIONS).flatMap((option) => ('short' in option ? [`-${option.short}`] : []));
  for (const word of argv) {
    if (word === '--') return undefined;
    if (!word.startsWith('-') || word === '-') continue;
    const name = word.split('=')[0]!;
    if (OPTION_NAMES.includes(name) || shorts.includes(name)) continue;
    return `unknown option ${name}${suggestion(name, OPTION_NAMES)}`;
  }
  return undefined;
}

/** node:util's parser errors in our words: which option, and what it wants. */
function optionError(error: Error & { code?: string }): string {
  const option = /'(-{1,2}[\w-]+)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    const name = option.startsWith('--') ? option.slice(2) : undefined;
    const takesValue = name !== undefined && name in OPTIONS && OPTIONS[name as keyof typeof OPTIONS].type === 'string';
    return takesValue ? `${option} needs a value` : `${option} takes no value`;
  }
  return error.message;
}

function checkCommand(command: string, rest: readonly string[], values: CliValues): string | undefined {
  if (values.help || values.version) return undefined;
  const negotiation = values.negotiation;
  if (negotiation !== undefined && negotiation !== 'legacy' && negotiation !== 'auto') {
    return `--negotiation must be legacy or auto, not ${negotiation}`;
  }
  // A workspace is an id like the console's (it names a tenant, never a path): "../../etc" is refused here.
  if (values.user !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/.test(values.user)) {
    return `--user must be 1-64 letters, digits, ".", "_", "@" or "-", not ${JSON.stringify(values.user)}`;
  }
  if (values.workspace !== undefined && !/^[A-Za-z0-9._@-]{1,64}$/.test(values.workspace)) {
    return `--workspace must be 1-64 letters, digits, ".", "_", "@" or "-", not ${JSON.stringify(values.workspace)}`;
  }
  if (command !== 'overview' && !(COMMANDS as readonly string[]).includes(command)) {
    return `unknown command ${command}${suggestion(command, COMMANDS)}`;
  }
  if ((values.out !== undefined || values.force) && !(command === 'config' && rest[0] === 'import')) {
    return `${values.out === undefined ? '--force' : '--out'} applies to config import only`;
  }
  const extra = (allowed: number) =>
    rest.length > allowed ? `unexpected argument ${rest[allowed]} after ${command}` : undefined;
  const limit = () => positiveInteger(values.limit, '--limit', 'a positive integer');
  switch (command) {
    case 'overview':
    case 'retention':
      return extra(0);
    case 'servers':
      if (rest[0] === undefined) return undefined;
      if (!['logs', 'disable', 'enable'].includes(rest[0]))
        return `unknown servers action ${rest[0]}: use logs, disable or enable`;
      return rest[1] === undefined ? `servers ${rest[0]} needs a server id` : extra(2);
    case 'tools':
      if (rest[0] === 'hide' || rest[0] === 'show') return checkTarget(rest[1], `tools ${rest[0]}`) ?? extra(2);
      if (rest[0]?.includes('/') === true) return checkTarget(rest[0], 'tools') ?? extra(1);
      if (rest[0] !== undefined) return `unknown tools action ${rest[0]}: use SERVER/TOOL, hide or show`;
      return extra(0) ?? checkAudience(values.audience, values.server);
    case 'call':
      return (
        checkTarget(rest[0], 'call') ??
        extra(1) ??
        checkJson(literalArgs(values.args), '--args') ??
        positiveInteger(values.timeout, '--timeout', 'a positive number of milliseconds')
      );
    case 'resources':
    case 'prompts':
      return extra(0);
    case 'read':
      if (rest[0] === undefined || rest[1] === undefined) return 'read needs SERVER URI, e.g. demo demo://notes/1';
      return extra(2);
    case 'prompt':
      if (rest[0] === undefined || rest[1] === undefined)
        return 'prompt needs SERVER NAME, e.g. everything simple-prompt';
      return extra(2) ?? checkPromptArgs(literalArgs(values.args));
    case 'history':
      if (rest[0] === undefined) return limit();
      if (rest[0] !== 'show') return `unknown history action ${rest[0]}: use show ID`;
      return rest[1] === undefined ? 'history show needs an invocation id (or its first characters)' : extra(2);
    case 'tasks':
      return extra(0);
    case 'permissions':
      return checkPermissions(rest, values);
    case 'audit':
      if (rest[0] !== undefined && rest[0] !== 'anchor') return `unknown audit action ${rest[0]}: use anchor`;
      if (values.format !== undefined && values.format !== 'ndjson' && values.format !== 'seed') {
        return `--format must be ndjson or seed, not ${values.format}`;
      }
      return extra(rest[0] === 'anchor' ? 2 : 0) ?? limit();
    case 'auth':
      if (rest[0] === 'status') return extra(1);
      if (rest[0] !== 'login' && rest[0] !== 'logout')
        return 'auth needs an action: login SERVER, logout SERVER or status';
      return rest[1] === undefined ? `auth ${rest[0]} needs a server id` : extra(2);
    case 'config':
      return checkConfig(rest, extra);
    case 'inputs':
      if (rest[0] === undefined) return undefined;
      if (rest[0] !== 'set' && rest[0] !== 'clear') return `unknown inputs action ${rest[0]}: use set ID or clear ID`;
      return rest[1] === undefined ? `inputs ${rest[0]} needs an input id` : extra(2);
    case 'help':
      if (rest[0] !== undefined && !(COMMANDS as readonly string[]).includes(rest[0]))
        return `no help for ${rest[0]}: not a command${suggestion(rest[0], COMMANDS)}`;
      return extra(1);
    case 'completion':
      if (rest[0] === undefined) return 'completion needs a shell: bash, zsh or fish';
      if (!['bash', 'zsh', 'fish'].includes(rest[0])) return `completion supports bash, zsh or fish, not ${rest[0]}`;
      return extra(1);
    default:
      return undefined;
  }
}

function checkConfig(rest: readonly string[], extra: (allowed: number) => string | undefined): string | undefined {
  const [action, host] = rest;
  if (action === 'check') return extra(2);
  if (action === undefined) return 'config needs an action: check [FILE] or import claude|vscode|cursor [FILE]';
  if (action !== 'import')
    return `unknown config action ${action}: use check or import${suggestion(action, ['check', 'import'])}`;
  if (host === undefined) return 'config import needs a host: claude, vscode or cursor';
  if (!(IMPORT_HOSTS as readonly string[]).includes(host)) {
    return `config import reads claude, vscode or cursor, not ${host}${suggestion(host, IMPORT_HOSTS)}`;
  }
  return extra(3);
}

function checkPermissions(rest: readonly string[], values: CliValues): string | undefined {
  const [action = 'list', target] = rest;
  switch (action) {
    case 'list':
      return rest.length > 1 ? `unexpected argument ${rest[1]} after permissions list` : undefined;
    case 'revoke':
      if ((target === undefined) === (values.server === undefined)) {
        return 'permissions revoke takes a decision ID (or its first characters) or --server ID';
      }
      return rest.length > 2 ? `unexpected argument ${rest[2]} after permissions revoke` : undefined;
    case 'explain':
      return (
        checkTarget(target, 'permissions explain') ??
        (rest.length > 2 ? `unexpected argument ${rest[2]}` : undefined) ??
        checkJson(literalArgs(values.args), '--args')
      );
    default:
      return `unknown permissions action ${action}: use list, revoke or explain`;
  }
}

function checkTarget(target: string | undefined, what: string): string | undefined {
  const [serverId, toolName, more] = (target ?? '').split('/');
  if (serverId === undefined || serverId === '' || toolName === undefined || toolName === '' || more !== undefined) {
    return `${what} needs SERVER/TOOL, e.g. demo/echo; got ${JSON.stringify(target ?? '')}`;
  }
  return undefined;
}

function checkAudience(audience: string | undefined, server: string | undefined): string | undefined {
  if (audience === undefined) return undefined;
  if (audience !== 'model' && audience !== 'app' && audience !== 'user') {
    return `--audience must be model, app or user, not ${audience}`;
  }
  return audience === 'app' && server === undefined
    ? '--audience app needs --server (an app sees only its own server)'
    : undefined;
}

/** `--args` when it is JSON on the command line; `@FILE` and `-` are read (and checked) once the command runs. */
function literalArgs(text: string | undefined): string | undefined {
  return text === undefined || text === '-' || text.startsWith('@') ? undefined : text;
}

/** A prompt's `--args`: a JSON object of text values (the protocol carries prompt arguments as text). */
export function checkPromptArgs(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const bad = checkJson(text, '--args');
  if (bad !== undefined) return bad;
  const value = JSON.parse(text) as unknown;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return '--args of a prompt must be a JSON object, e.g. {"city":"Lisbon"}';
  }
  const notText = Object.entries(value).find(([, v]) => typeof v !== 'string');
  return notText === undefined ? undefined : `--args: the value of "${notText[0]}" must be text (a JSON string)`;
}

export function checkJson(text: string | undefined, flag: string): string | undefined {
  if (text === undefined) return undefined;
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return `${flag} is not valid JSON: ${(error as Error).message}`;
  }
}

function positiveInteger(text: string | undefined, flag: string, what: string): string | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? undefined : `${flag} must be ${what}, not ${text}`;
}
