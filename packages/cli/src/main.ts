import type { Host, HostStore, Surface } from '@airlock/core';
import { createHost, HostError, logHostEvents, MemoryStore } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';
import { auditCommand, permissionsCommand, retentionCommand } from './admin-commands.js';
import { authCommand } from './auth-command.js';
import { cliVault } from './cli-vault.js';
import { cliInputResolver, inputsCommand, terminalAsk } from './cli-inputs.js';
import { configCheck } from './config-command.js';
import { configImport } from './config-import-command.js';
import type { ImportHost } from './host-config-paths.js';
import { LoopbackRedirect } from './loopback-redirect.js';
import { call } from './call-command.js';
import { tasksCommand } from './tasks-command.js';
import { toolCommand } from './tool-command.js';
import { checkJson, checkPromptArgs, parseCommandLine, USAGE } from './cli-args.js';
import { readArgsOption } from './args-option.js';
import { commandHelp, usageError } from './command-help.js';
import { suggestion } from './did-you-mean.js';
import { cliScope, loadConfig, storePath } from './cli-config.js';
import { createCliLogger } from './cli-logger.js';
import { humanLogLines } from './human-log-lines.js';
import { PLAIN, styleFor } from './cli-style.js';
import { cliVersion } from './cli-version.js';
import { completionScript } from './completion.js';
import { completeIds } from './complete-ids.js';
import type { Shell } from './completion.js';
import { runConsoleCommand } from './console-command.js';
import { runGatewayCommand } from './gateway-command.js';
import { EXIT_CODES } from './exit-codes.js';
import { history, listServers, listTools, overview } from './list-commands.js';
import { promptCommand, promptsCommand, readCommand, resourcesCommand } from './resource-commands.js';
import { serverLogsCommand, serverSwitchCommand, toolSwitchCommand } from './server-commands.js';
import { FixedSurface, TerminalSurface, terminalLocale } from './terminal-surface.js';

interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadStream;
  /** The environment colour follows (NO_COLOR, FORCE_COLOR, TERM); process.env when absent. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs one `airlock` command; resolves with the exit code. */
export async function main(argv: readonly string[], io: Io = process): Promise<number> {
  if (argv[0] === 'console') {
    // The web console (a package of its own, when installed): the same host with a page, an API and an event
    // stream per tab; it has its own options.
    return runConsoleCommand({ argv: argv.slice(1), stderr: io.stderr });
  }
  if (argv[0] === 'gateway') return runGatewayCommand({ ...io, argv: argv.slice(1), env: io.env ?? process.env });
  // The completion scripts' own call (not a command people type, so not in the help).
  if (argv[0] === '__complete') return completeIds(argv.slice(1), io.stdout);
  // Everything on the command line is checked here, before a config is read or a server started.
  const parsed = parseCommandLine(argv);
  if (!parsed.ok) {
    io.stderr.write(usageError(parsed.error, parsed.command));
    return EXIT_CODES.usage;
  }
  const { command, rest, values } = parsed;
  const helpOn = command === 'help' ? rest[0] : values.help ? command : undefined;
  if (helpOn === 'console' || helpOn === 'gateway') return main([helpOn, '--help'], io);
  if (command === 'help' || values.help) {
    io.stdout.write(helpOn === undefined || helpOn === 'overview' ? USAGE : commandHelp(helpOn));
    return 0;
  }
  if (values.version) {
    io.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  if (command === 'completion') {
    io.stdout.write(completionScript(rest[0] as Shell));
    return 0;
  }
  if (command === 'config' && rest[0] === 'import') {
    // Reads another host's file and writes ours: no Airlock config is read, no server started.
    try {
      configImport({
        host: rest[1] as ImportHost,
        ...(rest[2] === undefined ? {} : { file: rest[2] }),
        ...(values.out === undefined ? {} : { out: values.out }),
        force: values.force,
        cwd: process.cwd(),
        env: io.env ?? process.env,
        platform: process.platform,
        stdout: io.stdout,
        stderr: io.stderr,
      });
      return 0;
    } catch (error) {
      io.stderr.write(`airlock: ${(error as Error).message}\n`);
      return EXIT_CODES.usage;
    }
  }
  try {
    const args = await readArgsOption(values.args, io.stdin);
    const bad = command === 'prompt' ? checkPromptArgs(args) : checkJson(args, '--args');
    if (bad !== undefined) {
      io.stderr.write(usageError(bad, command));
      return EXIT_CODES.usage;
    }
    if (args !== undefined) values.args = args;
  } catch (error) {
    io.stderr.write(usageError((error as Error).message, command));
    return EXIT_CODES.usage;
  }
  const negotiation = values.negotiation as 'legacy' | 'auto' | undefined;
  const env = io.env ?? process.env;
  const style = { stdout: values.json ? PLAIN : styleFor(io.stdout, env), stderr: styleFor(io.stderr, env) };

  const interactive = io.stdin.isTTY === true && (io.stdout as NodeJS.WriteStream).isTTY === true;
  const surface: Surface = values.allow
    ? new FixedSurface('allow_once')
    : interactive
      ? new TerminalSurface(io.stdin, io.stderr, terminalLocale(values.lang), style.stderr)
      : new FixedSurface('deny_once', (request) =>
          io.stderr.write(
            `airlock: ${request.tool.name} needs your permission and this is not a terminal, so it was denied.\n` +
              `  Re-run in a terminal to be asked, or add --allow to allow this one call.\n`,
          ),
        );

  let host: Host | undefined;
  let loopback: LoopbackRedirect | undefined;
  try {
    // `config check FILE` checks that file; every other command reads the config it would run on.
    const configFile = command === 'config' ? (rest[1] ?? values.config) : values.config;
    const config = loadConfig({
      ...(configFile === undefined ? {} : { config: configFile }),
      ...(values.rules === undefined ? {} : { rules: values.rules }),
      ...(negotiation === undefined ? {} : { negotiation }),
    });
    const { servers, source, rules, expiryDays, unannotatedRisk, retention, audit, limits } = config;
    if (command === 'config') return configCheck(config, io.stdout);
    // Servers and tools read the switches kept beside the history (servers switched off, tools hidden).
    const needsStore =
      [
        'call',
        'read',
        'history',
        'tasks',
        'permissions',
        'audit',
        'retention',
        'auth',
        'servers',
        'tools',
        'inputs',
      ].includes(command) || servers.some((s) => s.inputs !== undefined);
    const path = storePath(values.store, config.storePath);
    const store: HostStore = needsStore ? new SqliteStore({ path }) : new MemoryStore();
    // Sign-in to remote servers comes back to a one-use loopback listener (auth login only).
    loopback = command === 'auth' && rest[0] === 'login' ? await LoopbackRedirect.start() : undefined;
    const target =
      command === 'call' ||
      command === 'read' ||
      command === 'prompt' ||
      (command === 'tools' && rest[0]?.includes('/'))
        ? rest[0]
        : (command === 'permissions' && rest[0] === 'explain') ||
            (command === 'auth' && rest[0] !== 'status') ||
            ((command === 'servers' || command === 'tools') && rest[0] !== undefined)
          ? rest[1]
          : undefined;
    const onlyServer =
      target !== undefined ? target.split('/')[0] : command === 'permissions' ? undefined : values.server;
    const selected = onlyServer === undefined ? servers : servers.filter((s) => s.id === onlyServer);
    if (onlyServer !== undefined && selected.length === 0) {
      store.close().catch(() => undefined);
      throw new HostError(
        'server_not_found',
        `no server "${onlyServer}" in ${source}${suggestion(
          onlyServer,
          servers.map((s) => s.id),
        )}; known: ` + (servers.map((s) => s.id).join(', ') || 'none'),
      );
    }
    // Servers a command does not need stay configured but are not started (rules naming them still make sense).
    const needsServers =
      command !== 'history' &&
      command !== 'tasks' &&
      command !== 'audit' &&
      command !== 'retention' &&
      !(command === 'permissions' && rest[0] !== 'explain');
    const wanted = new Set(needsServers ? selected.map((s) => s.id) : []);
    const redirect = loopback;
    const vault = await cliVault(needsStore ? path : ':memory:');
    const userId = cliScope(values.workspace, values.user).userId;
    if (command === 'inputs') {
      const { stdin, stdout, stderr } = io;
      return await inputsCommand({ rest, servers, source, store, vault, userId, stdin, stdout, stderr }).finally(() =>
        store.close(),
      );
    }
    host = createHost({
      servers: servers.map((s) => (wanted.has(s.id) ? s : { ...s, disabled: true })),
      store,
      surface:
        redirect === undefined
          ? surface
          : withAuthorize(surface, (request, signal) =>
              redirect.authorize(request, signal, (line) => io.stderr.write(line)),
            ),
      // Tokens of remote servers: sealed with AIRLOCK_SECRET_KEY, else the key file beside the history file.
      // `${input:ID}`: the value this user gave before, else asked here in a terminal; elsewhere the server fails.
      inputs: cliInputResolver({
        store,
        vault,
        userId,
        configFlag: values.config === undefined ? '' : ` --config ${values.config}`,
        ...(interactive ? { ask: terminalAsk(io.stdin, io.stderr) } : {}),
      }),
      auth: {
        vault,
        ...(redirect === undefined ? {} : { redirectUrl: redirect.url }),
        clientName: 'Airlock CLI',
      },
      permissions: {
        rules,
        ...(expiryDays === undefined ? {} : { expiryDays }),
        ...(unannotatedRisk === undefined ? {} : { unannotatedRisk }),
      },
      // The config's timeouts and bounds, as the console runs under them (--timeout still wins for one call).
      ...(limits === undefined ? {} : { limits }),
      // A CLI run is short: the config's windows (the defaults when it has none; null keeps forever) apply to
      // `airlock retention`, never as a sweep of every command; the anchor file to `airlock audit anchor`, never on a
      // schedule.
      retention: { ...retention, schedule: false },
      // Nor does it follow tasks left open by another run: they stay open for a console (or a call) to end.
      tasks: { resume: false },
      ...(audit?.anchorFile === undefined ? {} : { audit: { anchorFile: audit.anchorFile } }),
    });
    // JSON lines where a program reads them (--json, or stderr not a terminal); sentences for a person.
    const humanLog = !values.json && (io.stderr as NodeJS.WriteStream).isTTY === true;
    const destination = humanLog ? humanLogLines(io.stderr) : io.stderr;
    logHostEvents(host, createCliLogger({ verbose: values.verbose, destination }));
    await host.servers.settled();
    const scope = cliScope(values.workspace, values.user);
    // The servers this user signed in to list their tools on the user's own connection: opened now.
    if (command !== 'auth') await host.auth.resume({ scope });
    const out = { stdout: io.stdout, stderr: io.stderr, style: style.stdout };
    switch (command) {
      case 'overview':
        return overview(host, source, values.json, out);
      case 'servers':
        if (rest[0] === 'logs') return await serverLogsCommand(host, rest[1] ?? '', values, out, interrupted());
        if (rest[0] === 'disable' || rest[0] === 'enable')
          return await serverSwitchCommand(host, rest[0], rest[1] ?? '', scope.userId, out);
        return listServers(host, values.json, out, scope);
      case 'tools':
        if (rest[0] === 'hide' || rest[0] === 'show')
          return await toolSwitchCommand(host, scope, rest[0], rest[1] ?? '', values.everyone, out);
        if (rest[0] !== undefined) return await toolCommand(host, scope, rest[0], values.json, out);
        return listTools(host, (values.audience ?? 'model') as 'model', values.server, values.json, out, scope);
      case 'resources':
        return await resourcesCommand(host, scope, values.server, values.json, out);
      case 'read':
        return await readCommand(host, scope, rest, values, out);
      case 'prompts':
        return await promptsCommand(host, scope, values.server, values.json, out);
      case 'prompt':
        return await promptCommand(host, scope, rest, values, out);
      case 'history':
        return await history(host, scope, rest, values, out);
      case 'tasks':
        return await tasksCommand(host, values.json, out);
      case 'permissions':
        return await permissionsCommand(host, scope, rest, values, out);
      case 'audit':
        return await auditCommand(host, scope, rest, values, out);
      case 'retention':
        return await retentionCommand(host, values['dry-run'], values.json, out);
      case 'auth':
        return await authCommand(host, scope, rest, values.json, out);
      default: {
        const stderrIsTerminal = (io.stderr as NodeJS.WriteStream).isTTY === true;
        return await call(host, scope, rest[0] ?? '', values, { ...out, style, stderrIsTerminal });
      }
    }
  } catch (error) {
    io.stderr.write(`airlock: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.usage;
  } finally {
    await host?.close();
    await loopback?.close();
  }
}

/** Aborts on the first Ctrl-C (SIGINT) or SIGTERM: `--follow` ends there and the host closes its servers. */
function interrupted(): AbortSignal {
  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  stop.signal.addEventListener('abort', () => {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
  });
  return stop.signal;
}

/** The surface, also signing the user in to remote servers through `authorize`. */
function withAuthorize(surface: Surface, authorize: NonNullable<Surface['authorize']>): Surface {
  return {
    askPermission: (request, signal) => surface.askPermission(request, signal),
    ...(surface.elicit === undefined
      ? {}
      : {
          elicit: (request, signal) => surface.elicit!(request, signal),
          ...(surface.elicitationModes === undefined ? {} : { elicitationModes: surface.elicitationModes }),
        }),
    authorize,
  };
}
