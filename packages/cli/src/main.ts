import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { Host, HostStore, InvocationRecord, Surface, Tool } from '@airlock/core';
import { createHost, HostError, logHostEvents, MemoryStore } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { auditCommand, permissionsCommand, retentionCommand } from './admin-commands.js';
import { cliScope, loadConfig, storePath } from './cli-config.js';
import { createCliLogger } from './cli-logger.js';
import { cliVersion } from './cli-version.js';
import { runConsoleCommand } from './console-command.js';
import { EXIT_CODES } from './exit-codes.js';
import { cardArguments, cardHeader, cardResult, progressLine } from './terminal-card.js';
import { FixedSurface, TerminalSurface, terminalLocale } from './terminal-surface.js';

const USAGE = `airlock: an MCP host in your terminal. Every tool call is shown, consented, bounded and kept in history.

Usage:
  airlock                          servers, and the tools the model would see
  airlock servers                  each server's state, transport, trust and tool count
  airlock tools [--audience model|app|user] [--server ID]
  airlock call SERVER/TOOL [--args JSON] [--allow] [--timeout MS] [--full]
  airlock history [--limit N]      the calls made from this CLI, newest first
  airlock history show ID [--full] one call: its transitions and the result as the model got it
  airlock permissions list         stored decisions (allow always / deny always) in this workspace
  airlock permissions revoke ID | --server ID
  airlock permissions explain SERVER/TOOL [--args JSON]   which rule or decision decides, and why
  airlock audit [--limit N] | --export | --verify   the audit trail; --verify checks the hash chain
  airlock audit --export --format seed              decisions in seed 003 R6's schema (default: ndjson)
  airlock audit --verify --anchor FILE              also checks the chain still reaches every anchored head
  airlock audit anchor FILE                         appends the chain head to FILE (outside the data directory)
  airlock retention [--dry-run]                     removes what aged out (results 7 d, history 90 d, audit 400 d)
  airlock console [--config FILE] [--port N] [--store FILE]   the web console (airlock console --help)

Options:
  --config FILE        servers in the mcpServers JSON (default ./airlock.config.json, else the demo server)
  --store FILE         SQLite history file (default $AIRLOCK_STORE or ~/.local/share/airlock/airlock.db)
  --workspace NAME     the workspace calls are kept under (default "default")
  --negotiation MODE   legacy (2025-11-25, default) or auto (probe for 2026-07-28)
  --rules FILE         permission rules ({"rules": [{"effect": "allow|deny|ask", "server", "tool", "name"}]})
  --lang LOCALE        en-US or pt-BR (default from LANG)
  --allow              allow this one call without asking (otherwise asked in a terminal, denied elsewhere)
  --json               machine-readable output
  --verbose            debug logs on stderr (JSON lines; by default only warnings and errors)
  -V, --version        the version of this CLI
`;

interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadStream;
}

/** Runs one `airlock` command; resolves with the exit code. */
export async function main(argv: readonly string[], io: Io = process): Promise<number> {
  if (argv[0] === 'console') {
    // The web console (a package of its own, when installed): the same host with a page, an API and an event
    // stream per tab; it has its own options.
    return runConsoleCommand({ argv: argv.slice(1), stderr: io.stderr });
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        config: { type: 'string' },
        rules: { type: 'string' },
        lang: { type: 'string' },
        export: { type: 'boolean', default: false },
        verify: { type: 'boolean', default: false },
        format: { type: 'string' },
        anchor: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        store: { type: 'string' },
        workspace: { type: 'string' },
        negotiation: { type: 'string' },
        audience: { type: 'string' },
        server: { type: 'string' },
        args: { type: 'string' },
        allow: { type: 'boolean', default: false },
        timeout: { type: 'string' },
        limit: { type: 'string' },
        full: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'V', default: false },
      },
    });
  } catch (error) {
    io.stderr.write(`airlock: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT_CODES.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    io.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  const [command = 'overview', ...rest] = positionals;
  const negotiation = values.negotiation;
  if (negotiation !== undefined && negotiation !== 'legacy' && negotiation !== 'auto') {
    io.stderr.write(`airlock: --negotiation must be legacy or auto, not ${negotiation}\n`);
    return EXIT_CODES.usage;
  }
  if (!['overview', 'servers', 'tools', 'call', 'history', 'permissions', 'audit', 'retention'].includes(command)) {
    io.stderr.write(`airlock: unknown command ${command}\n\n${USAGE}`);
    return EXIT_CODES.usage;
  }

  const interactive = io.stdin.isTTY === true && (io.stdout as NodeJS.WriteStream).isTTY === true;
  const surface: Surface = values.allow
    ? new FixedSurface('allow_once')
    : interactive
      ? new TerminalSurface(io.stdin, io.stderr, terminalLocale(values.lang))
      : new FixedSurface('deny_once', (request) =>
          io.stderr.write(
            `airlock: ${request.tool.name} needs your permission and this is not a terminal, so it was denied.\n` +
              `  Re-run in a terminal to be asked, or add --allow to allow this one call.\n`,
          ),
        );

  let host: Host | undefined;
  try {
    const { servers, source, rules, expiryDays, retention, audit } = loadConfig({
      ...(values.config === undefined ? {} : { config: values.config }),
      ...(values.rules === undefined ? {} : { rules: values.rules }),
      ...(negotiation === undefined ? {} : { negotiation }),
    });
    const needsStore = ['call', 'history', 'permissions', 'audit', 'retention'].includes(command);
    const store: HostStore = needsStore
      ? new SqliteStore({ database: new Database(storePath(values.store)) })
      : new MemoryStore();
    const target =
      command === 'call' ? rest[0] : command === 'permissions' && rest[0] === 'explain' ? rest[1] : undefined;
    const onlyServer =
      target !== undefined ? target.split('/')[0] : command === 'permissions' ? undefined : values.server;
    const selected = onlyServer === undefined ? servers : servers.filter((s) => s.id === onlyServer);
    if (onlyServer !== undefined && selected.length === 0) {
      store.close().catch(() => undefined);
      throw new HostError(
        'server_not_found',
        `no server "${onlyServer}" in ${source}; known: ${servers.map((s) => s.id).join(', ') || 'none'}`,
      );
    }
    // Servers a command does not need stay configured but are not started (rules naming them still make sense).
    const needsServers =
      command !== 'history' &&
      command !== 'audit' &&
      command !== 'retention' &&
      !(command === 'permissions' && rest[0] !== 'explain');
    const wanted = new Set(needsServers ? selected.map((s) => s.id) : []);
    host = createHost({
      servers: servers.map((s) => (wanted.has(s.id) ? s : { ...s, disabled: true })),
      store,
      surface,
      permissions: { rules, ...(expiryDays === undefined ? {} : { expiryDays }) },
      // A CLI run is short: the config's windows (the defaults when it has none; null keeps forever) apply to
      // `airlock retention`, never as a sweep of every command; the anchor file to `airlock audit anchor`, never on a
      // schedule.
      retention: { ...retention, schedule: false },
      ...(audit?.anchorFile === undefined ? {} : { audit: { anchorFile: audit.anchorFile } }),
    });
    logHostEvents(host, createCliLogger({ verbose: values.verbose, destination: io.stderr }));
    await host.servers.settled();
    const scope = cliScope(values.workspace);
    switch (command) {
      case 'overview':
        return overview(host, source, io);
      case 'servers':
        return listServers(host, values.json, io);
      case 'tools':
        return listTools(host, values.audience ?? 'model', values.server, values.json, io);
      case 'history':
        return await history(host, scope, rest, values, io);
      case 'permissions':
        return await permissionsCommand(host, scope, rest, values, io);
      case 'audit':
        return await auditCommand(host, scope, rest, values, io);
      case 'retention':
        return await retentionCommand(host, values['dry-run'], io);
      default:
        return await call(host, scope, rest[0], values, io);
    }
  } catch (error) {
    io.stderr.write(`airlock: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.usage;
  } finally {
    await host?.close();
  }
}

function overview(host: Host, source: string, io: Io): number {
  io.stdout.write(`servers from ${source}\n`);
  listServers(host, false, io);
  io.stdout.write('\ntools the model sees\n');
  listTools(host, 'model', undefined, false, io);
  io.stdout.write(`\ntry: airlock call demo/echo --args '{"text":"hello"}'   (airlock --help for more)\n`);
  return host.servers.list().some((s) => s.state === 'failed') ? EXIT_CODES.transport_error : 0;
}

function listServers(host: Host, json: boolean, io: Io): number {
  const servers = host.servers.list();
  if (json) io.stdout.write(`${JSON.stringify(servers, null, 2)}\n`);
  else {
    for (const s of servers) {
      const version = s.protocolVersion === undefined ? '' : ` · protocol ${s.protocolVersion}`;
      io.stdout.write(
        `  ${s.id} · ${s.state} · ${s.transport} · ${s.trusted ? 'trusted' : 'untrusted'} · ${s.toolCount} tools${version}\n`,
      );
      if (s.error !== undefined) io.stdout.write(`    ${s.error}\n`);
    }
  }
  return servers.some((s) => s.state === 'failed') ? EXIT_CODES.transport_error : 0;
}

function listTools(host: Host, audience: string, server: string | undefined, json: boolean, io: Io): number {
  if (audience !== 'model' && audience !== 'app' && audience !== 'user') {
    io.stderr.write(`airlock: --audience must be model, app or user, not ${audience}\n`);
    return EXIT_CODES.usage;
  }
  if (audience === 'app' && server === undefined) {
    io.stderr.write('airlock: --audience app needs --server (an app sees only its own server)\n');
    return EXIT_CODES.usage;
  }
  const tools = host.tools.list({ audience, ...(server === undefined ? {} : { serverId: server }) });
  if (json) {
    io.stdout.write(`${JSON.stringify(tools.map(toolSummary), null, 2)}\n`);
    return 0;
  }
  for (const tool of tools) {
    const origin = tool.origin.kind === 'mcp' ? `${tool.origin.serverId}/${tool.origin.originalName}` : 'native';
    io.stdout.write(`  ${tool.name}  (${origin})${tool.description ? ` · ${tool.description}` : ''}\n`);
  }
  if (tools.length === 0) io.stdout.write('  (none)\n');
  return 0;
}

/** A tool as `--json` prints it: its definition, without the function that runs it. */
function toolSummary(tool: Tool): Omit<Tool, 'run'> {
  const summary: Partial<Tool> = { ...tool };
  delete summary.run;
  return summary as Omit<Tool, 'run'>;
}

async function call(
  host: Host,
  scope: ReturnType<typeof cliScope>,
  target: string | undefined,
  values: { args?: string; timeout?: string; full: boolean; json: boolean },
  io: Io,
): Promise<number> {
  const [serverId, toolName, extra] = (target ?? '').split('/');
  if (serverId === undefined || serverId === '' || toolName === undefined || toolName === '' || extra !== undefined) {
    throw new HostError(
      'invalid_arguments',
      `call needs SERVER/TOOL, e.g. demo/echo; got ${JSON.stringify(target ?? '')}`,
    );
  }
  let args: unknown = {};
  if (values.args !== undefined) {
    try {
      args = JSON.parse(values.args);
    } catch (error) {
      throw new HostError('invalid_arguments', `--args is not valid JSON: ${(error as Error).message}`);
    }
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs <= 0)) {
    throw new HostError('invalid_arguments', `--timeout must be a positive number of milliseconds`);
  }
  const server = host.servers.list().find((s) => s.id === serverId);
  if (server?.state !== 'ready') {
    throw new HostError('server_unavailable', server?.error ?? `server "${serverId}" is ${server?.state ?? 'unknown'}`);
  }
  const tool = host.tools
    .list({ audience: 'user' })
    .find((t) => t.origin.kind === 'mcp' && t.origin.serverId === serverId && t.origin.originalName === toolName);
  if (tool === undefined) throw new HostError('tool_not_found', `server "${serverId}" has no tool ${toolName}`);

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT_CODES.cancelled);
    io.stderr.write('\ncancelling… (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  const log = (text: string) => {
    if (!values.json) io.stderr.write(`${text}\n`);
  };
  const offTransition = host.on('invocation.transition', ({ invocation }) => {
    log(cardHeader(invocation));
    if (invocation.state === 'pending') log(cardArguments(invocation.args));
  });
  const offProgress = host.on('invocation.progress', ({ progress }) => log(progressLine(progress)));
  try {
    const result = await host.invoke({
      scope,
      caller: { kind: 'user' },
      tool: tool.name,
      args,
      signal: controller.signal,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    });
    // Refused before it was recorded (arguments that fail the schema): nothing was sent, and no history has it.
    if (result.outcome === 'tool_not_found' || result.outcome === 'invalid_arguments') {
      io.stderr.write(`airlock: ${result.error?.message ?? result.text}\n`);
      return EXIT_CODES[result.outcome];
    }
    const entry = await host.history.get({ scope, invocationId: result.invocationId });
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ ...result, screen: entry?.result?.screen }, null, 2)}\n`);
    } else if (entry?.result !== undefined) {
      io.stdout.write(`${await resultText(host, scope, entry.invocation, entry.result.screen, values.full)}\n`);
    }
    return EXIT_CODES[result.outcome];
  } finally {
    offTransition();
    offProgress();
    process.off('SIGINT', onSigint);
  }
}

async function resultText(
  host: Host,
  scope: ReturnType<typeof cliScope>,
  invocation: InvocationRecord,
  screen: Parameters<typeof cardResult>[0],
  full: boolean,
): Promise<string> {
  if (!full) return cardResult(screen, { full: false });
  const parts: string[] = [];
  for (let offset = 0; ;) {
    const slice = await host.results.read({ scope, handle: screen.handle, offset, length: 1_000_000 });
    parts.push(slice.text);
    if (slice.done) break;
    offset += slice.text.length;
  }
  return `${cardHeader(invocation)}\n${parts.join('')}`;
}

async function history(
  host: Host,
  scope: ReturnType<typeof cliScope>,
  rest: readonly string[],
  values: { limit?: string; full: boolean; json: boolean },
  io: Io,
): Promise<number> {
  if (rest[0] === 'show') {
    const id = rest[1];
    if (id === undefined) throw new HostError('invalid_arguments', 'history show needs an invocation id');
    const entry = await host.history.get({ scope, invocationId: id });
    if (entry === undefined) throw new HostError('not_found', `no invocation ${id} in this workspace`);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(entry, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(`${cardHeader(entry.invocation)}\n${cardArguments(entry.invocation.args)}\n`);
    for (const t of entry.transitions) {
      io.stdout.write(
        `  ${new Date(t.at).toISOString()} ${t.from ?? '∅'} → ${t.to}${t.outcome ? ` (${t.outcome})` : ''}\n`,
      );
    }
    const expiredAt = entry.result?.expiredAt;
    if (entry.result !== undefined && values.full && expiredAt !== undefined) {
      io.stdout.write(`  the whole result expired on ${new Date(expiredAt).toISOString()} (retention)\n`);
    }
    if (entry.result !== undefined) {
      const whole = values.full && expiredAt === undefined;
      io.stdout.write(whole ? `${entry.result.fullText}\n` : `  model was given:\n${entry.result.model.text}\n`);
    }
    return 0;
  }
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit <= 0)
    throw new HostError('invalid_arguments', '--limit must be a positive integer');
  const rows = await host.history.list({ scope, limit });
  if (values.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else
    for (const row of rows)
      io.stdout.write(`${row.id}  ${new Date(row.createdAt).toISOString()}  ${cardHeader(row)}\n`);
  return 0;
}
