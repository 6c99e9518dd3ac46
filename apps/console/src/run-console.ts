import { parseArgs } from 'node:util';
import { HostError } from '@airlock/core';
import { loadConsoleConfig, redactUrl } from './console-config.js';
import { createConsoleLogger } from './console-logger.js';
import { startConsole } from './console-server.js';
import { consoleVersion } from './console-version.js';

const USAGE = `usage: airlock console [--config FILE] [--host H] [--port N] [--store FILE]

Starts the Airlock console: a web page with live tool cards, consent and elicitation, on 127.0.0.1.
  --config FILE   airlock.config.json (default: ./airlock.config.json, else the embedded demo server)
  --host H        the address to listen on (default console.host, else 127.0.0.1; another than loopback needs
                  console.auth "token")
  --port N        the port to listen on (default 7410; 0 picks a free one)
  --store FILE    the SQLite history file (default: under ~/.local/share/airlock; ":memory:" keeps nothing), or
                  postgres://user@host/db: a PostgreSQL database several instances share (also AIRLOCK_DATABASE_URL)
  --verbose       debug logs (JSON lines on stderr; default level info, or AIRLOCK_LOG_LEVEL)
  -V, --version   the version of this console
`;

/** `airlock console` and `airlock-console`: loads the config, starts the console, prints where it listens. */
export async function runConsole(argv: readonly string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        store: { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'V' },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`airlock console: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version === true) {
    process.stdout.write(`${consoleVersion()}\n`);
    return 0;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    process.stderr.write(`airlock console: --port must be a port number, not "${values.port}"\n`);
    return 2;
  }
  let running;
  try {
    const config = loadConsoleConfig({
      ...(values.config === undefined ? {} : { config: values.config }),
      ...(port === undefined ? {} : { port }),
      ...(values.host === undefined ? {} : { host: values.host }),
      ...(values.store === undefined ? {} : { store: values.store }),
    });
    running = await startConsole(
      config,
      values.verbose === true ? { logger: createConsoleLogger({ level: 'debug' }) } : {},
    );
    process.stdout.write(
      `Airlock console listening on ${running.url}\n` +
        `  servers: ${config.source}\n  history: ${config.storeUrl === undefined ? config.storePath : redactUrl(config.storeUrl)}\n` +
        `  model: ${config.model === undefined ? 'none (set AIRLOCK_MODEL_BASE_URL and AIRLOCK_MODEL for the chat box)' : `${config.model.model} at ${config.model.baseURL}`}\n`,
    );
  } catch (error) {
    process.stderr.write(
      `airlock console: ${error instanceof HostError || error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  const stop = running;
  let onSignal = () => undefined as void;
  const signalled = new Promise<'signal'>((resolve) => {
    onSignal = () => resolve('signal');
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  const why = await Promise.race([signalled, stop.fenced.then(() => 'fenced' as const)]);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  await stop.close();
  if (why === 'signal') return 0;
  process.stderr.write(
    'airlock console: another instance took this one over (it stalled past the heartbeat limit); ' +
      'start it again to rejoin as a new instance\n',
  );
  // EX_TEMPFAIL: a supervisor (systemd Restart=on-failure, a Kubernetes pod) starts it again, as a new instance.
  return 75;
}
