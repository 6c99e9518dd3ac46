import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import type { Host } from '@airlock/core';
import { createHost, logHostEvents, sha256Hex } from '@airlock/core';
import type { WorkerStore } from '@airlock/core/worker';
import { GatewaySurface, readGatewaySettings, serveGatewayStdio, startGatewayHttp } from '@airlock/gateway';
import { loadConfig, storePath } from './cli-config.js';
import { createCliLogger } from './cli-logger.js';
import { cliVault } from './cli-vault.js';
import { EXIT_CODES } from './exit-codes.js';
import { openSqliteWorkerStore } from '@airlock/core/worker';

/** The environment variable holding the bearer token HTTP clients must present. */
export const GATEWAY_TOKEN_ENV = 'AIRLOCK_GATEWAY_TOKEN';

const MAKE_TOKEN = 'e.g. export AIRLOCK_GATEWAY_TOKEN=$(openssl rand -hex 32)';

export const GATEWAY_USAGE = `airlock gateway: Airlock as an MCP server in front of your MCP client. Every tool call
goes through the host's one path: asked of you through the client (elicitation), audited, bounded.

Usage:
  airlock gateway [--config FILE] [--store FILE] [--user NAME] [--workspace NAME]     MCP over stdio
  airlock gateway --http [--port N] [--host H] [...]   Streamable HTTP at /mcp; clients send
                                                       Authorization: Bearer $${GATEWAY_TOKEN_ENV}, or the
                                                       token of one of the config's gateway.users

Options:
  --config FILE      servers in the mcpServers JSON, with permissions.rules (default ./airlock.config.json)
  --rules FILE       more permission rules
  --store FILE       SQLite history file (default $AIRLOCK_STORE, the config's store.path, or the CLI's)
  --user NAME        whose calls they are (default: the OS user); over HTTP, the user of $${GATEWAY_TOKEN_ENV}
  --workspace NAME   the workspace calls are kept under (default "default"); likewise
  --port N           HTTP port (default 7411; 0 picks a free one)
  --host H           HTTP interface (default 127.0.0.1); clients must use this name in their Host header
  --verbose          debug logs on stderr (stdout carries MCP only)
`;

const OPTIONS = {
  config: { type: 'string' },
  rules: { type: 'string' },
  store: { type: 'string' },
  user: { type: 'string' },
  workspace: { type: 'string' },
  http: { type: 'boolean', default: false },
  port: { type: 'string', default: '7411' },
  host: { type: 'string', default: '127.0.0.1' },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** What `airlock gateway` runs with: its arguments, the streams, the environment. */
export interface GatewayCommandOptions {
  readonly argv: readonly string[];
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * `airlock gateway`: one host from the config, served to one MCP client over stdio (until it closes stdin) or to
 * token holders over HTTP (until SIGINT or SIGTERM). stdout carries MCP only; every log line goes to stderr.
 */
export async function runGatewayCommand(options: GatewayCommandOptions): Promise<number> {
  const { stderr, env } = options;
  let values;
  try {
    values = parseArgs({ args: [...options.argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    stderr.write(`airlock gateway: ${error instanceof Error ? error.message : String(error)}\n\n${GATEWAY_USAGE}`);
    return EXIT_CODES.usage;
  }
  if (values.help) {
    (values.http ? stderr : options.stdout).write(GATEWAY_USAGE);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    stderr.write(`airlock gateway: --port must be a port number (0-65535), not ${JSON.stringify(values.port)}\n`);
    return EXIT_CODES.usage;
  }
  const token = env[GATEWAY_TOKEN_ENV] || undefined;
  if (values.http && token !== undefined && token.length < 16) {
    stderr.write(`airlock gateway: $${GATEWAY_TOKEN_ENV} must be at least 16 characters; ${MAKE_TOKEN}\n`);
    return EXIT_CODES.usage;
  }
  const userId = values.user ?? (userInfo().username || 'local');
  const workspaceId = values.workspace ?? 'default';

  let host: Host | undefined;
  let store: WorkerStore | undefined;
  try {
    const config = loadConfig({
      ...(values.config === undefined ? {} : { config: values.config }),
      ...(values.rules === undefined ? {} : { rules: values.rules }),
    });
    // HTTP users: the config's gateway.users, each with their workspace, and the one of the environment's token;
    // with gateway.oauth, also the bearer JWTs of its authorization server.
    const settings = config.file === undefined ? undefined : readGatewaySettings(config.file);
    const users = [
      ...(settings?.users ?? []),
      ...(token === undefined ? [] : [{ tokenSha256: sha256Hex(token), userId, workspaceId }]),
    ];
    if (values.http && users.length === 0 && settings?.oauth === undefined) {
      stderr.write(
        `airlock gateway: --http needs bearer tokens: one in $${GATEWAY_TOKEN_ENV} (${MAKE_TOKEN}), users in ` +
          `the config's "gateway": {"users": {"NAME": {"tokenSha256": …, "workspace": …}}}, or an authorization ` +
          `server in "gateway": {"oauth": {"issuer": …}}; clients send theirs as Authorization: Bearer\n`,
      );
      return EXIT_CODES.usage;
    }
    const path = storePath(values.store, config.storePath);
    const surface = new GatewaySurface();
    // History on a worker thread: SQLite writes and audit hashing leave the thread that relays calls.
    store = await openSqliteWorkerStore({ path });
    host = createHost({
      servers: config.servers,
      store,
      surface,
      auth: { vault: await cliVault(path), clientName: 'Airlock gateway' },
      permissions: {
        rules: config.rules,
        ...(config.expiryDays === undefined ? {} : { expiryDays: config.expiryDays }),
        ...(config.unannotatedRisk === undefined ? {} : { unannotatedRisk: config.unannotatedRisk }),
      },
      retention: { ...config.retention, schedule: false },
      ...(config.audit?.anchorFile === undefined ? {} : { audit: { anchorFile: config.audit.anchorFile } }),
    });
    logHostEvents(host, createCliLogger({ verbose: values.verbose, destination: stderr }));
    await host.servers.settled();
    await host.auth.resume({ scope: { userId, workspaceId, conversationId: 'gateway' } });
    if (!values.http) {
      const scope = { userId, workspaceId, conversationId: `gateway-${randomUUID()}` };
      const session = await serveGatewayStdio({
        host,
        surface,
        scope,
        stdin: options.stdin as NodeJS.ReadStream,
        stdout: options.stdout as NodeJS.WriteStream,
        onerror: (error) => stderr.write(`airlock gateway: ${error.message}\n`),
      });
      await Promise.race([session.closed, stopSignal()]);
      await session.close();
      return 0;
    }
    const http = await startGatewayHttp({
      host,
      surface,
      users,
      ...(settings?.oauth && { oauth: settings.oauth }),
      port,
      hostname: values.host,
      onerror: (error) => stderr.write(`airlock gateway: ${error.message}\n`),
    });
    stderr.write(`airlock gateway: listening on ${http.url} (${config.source})\n`);
    await stopSignal();
    await http.close();
    return 0;
  } catch (error) {
    stderr.write(`airlock gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_CODES.usage;
  } finally {
    // The host closes its store; a host that was never made leaves it open, and its thread would keep us alive.
    await (host === undefined ? store?.close() : host.close());
  }
}

/** Settles on the first SIGINT or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
