import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Clock, Host, HostError } from '@airlock/core';
import { createHost, logHostEvents, SECRET_KEY_ENV, StoredInputs, systemClock, TokenVault } from '@airlock/core';
import { createGatewayHandler, createResourceServer, GatewaySurface } from '@airlock/gateway';
import type { ResourceServer } from '@airlock/gateway';
import { EventHub, KitSurface } from '@airlock/web-kit';
import { ConsoleSignIn } from './console-sign-in.js';
import { OAUTH_CALLBACK_PATH, OAUTH_CLIENT_METADATA_PATH } from './routes/server-auth-routes.js';
import { openSqliteWorkerStore } from '@airlock/core/worker';
import type { WorkerStore } from '@airlock/core/worker';
import { createApi } from './api.js';
import { ViewConsents } from './view-consents.js';
import { consoleInputResolver } from './console-inputs.js';
import { ModelKeys } from './model-keys.js';
import { Chat } from './chat.js';
import { ConversationLog } from './conversation-log.js';
import type { ConsoleConfig } from './console-config.js';
import { LOOPBACK_HOSTS } from './console-config.js';
import { createConsoleLogger } from './console-logger.js';
import { startConsoleMetrics } from './console-metrics.js';
import type { ConsoleLogger } from './console-logger.js';
import { HostEventRelay } from './host-event-relay.js';
import { PageData } from './page-data.js';
import { IN_PROCESS_QUESTIONS } from './question-bus.js';
import { RunningCalls } from './running-calls.js';
import { Sessions } from './sessions.js';
import { openSharedHistory } from './shared-history.js';
import { startSandboxProxy } from './sandbox-proxy.js';
import { viewProxyAddress } from './view-proxy-address.js';
import { ViewContexts } from './view-context.js';
import type { ConsoleEventMap } from './console-events.js';
import { withConsoleIsolation } from './console-isolation.js';

/** Where `npm run build` puts the page (Vite, from apps/console/web). */
export const WEB_DIR = join(dirname(fileURLToPath(import.meta.url)), 'web');

/** A console that is listening. */
export interface RunningConsole {
  readonly url: string;
  readonly host: Host;
  /**
   * Resolves if another instance on the shared database took this one over (it stalled past the heartbeat's limit):
   * its writes are refused from then on, so it must stop (`close`) and start again as a new instance.
   */
  readonly fenced: Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the console's history: a `SqliteStore` on a worker thread at background priority, so history writes never
 * hold up the thread that runs calls and serves the page and its event streams. Resolves once the file is open; one
 * that cannot be opened fails here, named.
 */
async function openHistory(path: string): Promise<WorkerStore> {
  try {
    return await openSqliteWorkerStore({ path });
  } catch (error) {
    const reason = (error as HostError).data?.['reason'];
    const why = typeof reason === 'string' ? reason : (error as Error).message;
    throw new Error(`the console cannot open its history file ${path}: ${why}`, { cause: error });
  }
}

/**
 * Starts the console: one `Host` over a SQLite file with the console's tabs as its surface, the HTTP API and event
 * streams, and the page. On loopback (the default) it answers only to loopback host names, so a web page elsewhere
 * cannot reach it by DNS rebinding.
 */
export async function startConsole(
  config: ConsoleConfig,
  options: {
    /** The host's clock; tests that age data on purpose pass a fake one. Default: the system clock. */
    readonly clock?: Clock;
    /** The structured log (server lifecycle, server states, request errors). Default: JSON lines on stderr. */
    readonly logger?: ConsoleLogger;
  } = {},
): Promise<RunningConsole> {
  if (!existsSync(join(WEB_DIR, 'index.html'))) {
    throw new Error(`the console's page is missing from ${WEB_DIR}: run "npm run build" first`);
  }
  const logger = options.logger ?? createConsoleLogger();
  // On PostgreSQL, instances share the history and the questions their calls ask; alone, questions stay here.
  const shared =
    config.storeUrl === undefined ? undefined : await openSharedHistory(config.storeUrl, logger, options.clock);
  const store = shared?.store ?? (await openHistory(config.storePath));
  const questions = shared?.questions ?? IN_PROCESS_QUESTIONS;
  // Registered before the host, which records metrics only when a meter provider is there at its creation.
  const consoleMetrics = config.metrics?.prometheus === true ? startConsoleMetrics() : undefined;
  const hub = new EventHub<ConsoleEventMap>();
  // Sign-in to remote servers is offered: its hook is given once the host exists (the sign-in needs it).
  const surface = new KitSurface({ questions: questions.shared ? questions : undefined, signIn: true });
  // With gateway.enabled, MCP clients call at /mcp too: their questions go to them when they can elicit, and to the
  // user's tabs here when they cannot; every other call's questions go to the tabs as before.
  const gatewayUsers = config.gateway?.enabled === true ? config.gateway.users : undefined;
  const hostSurface = gatewayUsers === undefined ? surface : new GatewaySurface({ fallback: surface });
  let port = config.port;
  let host: Host;
  // One vault seals users' sign-in tokens and the values entered for the config's inputs.
  const vault = await openVault(config.storePath);
  try {
    host = createHost({
      // Sign-in to remote servers: tokens sealed with the key beside the history (or AIRLOCK_SECRET_KEY), users sent
      // back to this console's callback once it listens.
      auth: {
        vault,
        redirectUrl: () => `${config.publicUrl ?? `http://${urlHost(config.host)}:${port}`}${OAUTH_CALLBACK_PATH}`,
        // A metadata document is a client id only at an https URL: offered when the console is served over https.
        ...(config.publicUrl?.startsWith('https://') === true
          ? { clientMetadataUrl: `${config.publicUrl}${OAUTH_CLIENT_METADATA_PATH}` }
          : {}),
        clientName: 'Airlock console',
      },
      servers: withConsoleIsolation(config.servers),
      inputs: consoleInputResolver({ store, vault }),
      store,
      surface: hostSurface,
      limits: config.limits,
      permissions: {
        rules: config.rules,
        ...(config.expiryDays === undefined ? {} : { expiryDays: config.expiryDays }),
        ...(config.unannotatedRisk === undefined ? {} : { unannotatedRisk: config.unannotatedRisk }),
      },
      clientInfo: { name: 'airlock-console', version: '0.1.0' },
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      // The console owns its history file: retention sweeps at start and hourly (the defaults unless configured).
      retention: config.retention,
      ...(config.audit === undefined ? {} : { audit: config.audit }),
      // The page renders MCP Apps views behind the sandbox proxy below.
      apps: { views: true },
    });
  } catch (error) {
    // The history's worker thread would keep the process alive.
    await questions.stop();
    await store.close();
    throw error;
  }
  // Each part gets what it needs when it is built: the calls started here first (the chat's model tracks its calls
  // there), then the relay of the host's events, the chat, and what pages read.
  logHostEvents(host, logger);
  const running = new RunningCalls({ host, bus: questions });
  const relay = new HostEventRelay({ host, hub, surface, questions });
  const conversations = new ConversationLog({
    store,
    hub,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
  const viewContexts = new ViewContexts(conversations);
  const viewConsents = new ViewConsents({ store, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  const chat: Chat | undefined =
    config.model === undefined
      ? undefined
      : new Chat(
          host,
          { model: config.model, ...(config.modelChoices === undefined ? {} : { modelChoices: config.modelChoices }) },
          hub,
          conversations,
          {
            track: (invocation, controller) => running.track(invocation, controller),
            viewContext: (conversation) => viewContexts.forModel(conversation),
            apiKey: (scope, model): Promise<string | undefined> =>
              modelKeys?.keyFor(scope.userId, model) ?? Promise.resolve(model.apiKey),
          },
        );
  // Users' own keys for the models that take one, sealed with the vault that seals their sign-in tokens.
  const modelKeys: ModelKeys | undefined =
    chat === undefined
      ? undefined
      : new ModelKeys({
          models: chat.modelConfigs(),
          stored: new StoredInputs({ store, vault }),
          clock: options.clock ?? systemClock,
        });
  const pageData = new PageData({ host, relay, surface, chat, conversations });
  const signIn = new ConsoleSignIn(host, questions);
  // A user sent back to another instance after signing in to a server: that instance hands the redirect here.
  const stopFinishingSignIns = signIn.followElsewhere();
  surface.signInWith((request, signal) => signIn.authorize(request, signal));
  // The views' sandbox proxy: framed only by the console's own origins, at the address its pages are told.
  let proxyPort = 0;
  const views = viewProxyAddress(config, { console: () => port, proxy: () => proxyPort });
  const proxy = await startSandboxProxy(config.host, config.viewProxyPort ?? 0, {
    mayFrame: (origin) => views.mayFrame(origin),
  }).catch(async (error: unknown) => {
    // The shared questions' LISTEN connection goes back first, or ending the pool would wait for it.
    await questions.stop();
    await host.close();
    throw error;
  });
  proxyPort = proxy.port;
  const sessions = new Sessions(config.auth, config.users, shared?.sessions);
  // A sign-out or a workspace switch on another instance ends or moves that session's streams here too.
  const stopFollowing = sessions.follow({
    open: () => hub.sessionIds(),
    ended: (id) => {
      hub.sendToSession(id, 'session.ended', {});
      hub.closeSession(id);
    },
    moved: (session, from) => {
      // As on the instance where the user switched: their questions of calls here in the workspace left close.
      host.elicitations.switchWorkspace({ userId: session.userId, workspaceId: session.workspaceId, from });
      hub.sendToSession(session.id, 'session.workspace', { workspaceId: session.workspaceId });
    },
  });
  const closeParts = () => {
    stopFollowing();
    stopFinishingSignIns();
    relay.close();
    running.close();
    void proxy.close();
  };
  const app = createApi({
    signIn,
    publicUrl: () => config.publicUrl ?? `http://${urlHost(config.host)}:${port}`,
    host,
    logger,
    sessions,
    surface,
    hub,
    relay,
    running,
    pageData,
    chat,
    ...(modelKeys === undefined ? {} : { modelKeys }),
    conversations,
    viewConsents,
    inputs: { servers: config.servers, values: new StoredInputs({ store, vault }) },
    authMode: config.auth,
    allowedHosts: () =>
      LOOPBACK_HOSTS.has(config.host)
        ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
        : (config.allowedHosts ?? []),
    viewProxy: views,
    viewContexts,
    ...(consoleMetrics === undefined
      ? {}
      : { metrics: { metrics: consoleMetrics, ...optionalToken(config.metrics?.tokenSha256) } }),
  });
  app.use('*', async (c, next) => {
    await next();
    // The page runs only its own code, cannot be framed (a permission click is the user's own), sniffs no types;
    // it frames only the views' sandbox proxy (at the address its pages are told).
    const frames = new URL(views.proxyUrl(views.pageOrigin({ url: c.req.url, host: c.req.header('host') }))).origin;
    c.header(
      'content-security-policy',
      "default-src 'self'; img-src 'self' data: https:; media-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
        `object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; frame-src ${frames}`,
    );
    c.header('x-frame-options', 'DENY');
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });
  const index = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
  app.get('/', (c) => c.html(index));
  app.get('/assets/*', serveStatic({ root: WEB_DIR }));

  // With gateway.oauth, /mcp also takes the JWTs of that authorization server, for the console's public /mcp URL.
  const oauth = config.gateway?.oauth;
  let resourceServer: ResourceServer | undefined;
  const gateway =
    hostSurface instanceof GatewaySurface && gatewayUsers !== undefined
      ? createGatewayHandler({
          host,
          surface: hostSurface,
          users: gatewayUsers,
          resourceServer: () =>
            oauth === undefined
              ? undefined
              : (resourceServer ??= createResourceServer(
                  oauth,
                  `${config.publicUrl ?? `http://${urlHost(config.host)}:${port}`}/mcp`,
                  (error) => logger.warn({ error: error.message }, 'gateway: the authorization server keys'),
                )),
          allowedHostnames: gatewayHostnames(config),
          onerror: (error) => logger.warn({ error: error.message }, 'gateway session error'),
        })
      : undefined;
  // The process's own `Response` and `Request` stay (the server's faster ones would replace them for every library in
  // the process, and the MCP SDK's OAuth error parsing fails on them).
  const server = serve({
    fetch: (request: Request, env: unknown) => {
      const path = new URL(request.url).pathname;
      if (gateway === undefined) return app.fetch(request, env);
      if (path === '/mcp') return gateway.handle(request);
      return gateway.metadata(path) ?? app.fetch(request, env);
    },
    hostname: config.host,
    port: config.port,
    overrideGlobalObjects: false,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', (error: Error) =>
        reject(new Error(`the console cannot listen on ${config.host}:${config.port}: ${error.message}`)),
      );
    });
  } catch (error) {
    // Nothing keeps running: the servers the host started and its store close before the error is told.
    closeParts();
    await gateway?.close();
    await questions.stop();
    await shared?.sessions.stop();
    await host.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(config.host)}:${port}/`;
  logger.info(
    { url, servers: config.servers.length, ...(gateway === undefined ? {} : { mcp: `${url}mcp` }) },
    'console listening',
  );
  if (config.auth === 'local') {
    logger.info(
      { auth: 'local' },
      'local sign-in: whoever signs in may enter any workspace; auth "token" with each user\'s "workspaces" restricts them',
    );
  }
  // On a shared database: alive from here on, and watching for instances that died (their open tasks taken over).
  shared?.onInstanceDied(() => host.tasks.takeOver());
  const fenced = new Promise<void>((resolve) => shared?.onFenced(resolve));
  await shared?.heartbeat.start();
  return {
    url,
    host,
    fenced,
    close: async () => {
      closeParts();
      await gateway?.close();
      await shared?.heartbeat.stop();
      await questions.stop();
      await shared?.sessions.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Event streams stay open until their tabs go; close them so the process can end.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await host.close();
      await consoleMetrics?.close();
      logger.info({ url }, 'console stopped');
    },
  };
}

/**
 * The names `/mcp` may be reached by (its Host and Origin checks, as the page's): loopback's on loopback; off it, those
 * of `console.allowedHosts` and `publicUrl`, or any when the operator listed none.
 */
function gatewayHostnames(config: ConsoleConfig): readonly string[] | 'any' {
  if (LOOPBACK_HOSTS.has(config.host)) return ['localhost', '127.0.0.1', '[::1]'];
  if (config.allowedHosts === undefined) return 'any';
  const names = config.allowedHosts.map((name) => new URL(`http://${name}`).hostname);
  return config.publicUrl === undefined ? names : [...names, new URL(config.publicUrl).hostname];
}

function optionalToken(tokenSha256: string | undefined): { tokenSha256?: string } {
  return tokenSha256 === undefined ? {} : { tokenSha256 };
}

/** A host name as it goes in a URL (an IPv6 address in brackets). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The vault sealing users' tokens: over `AIRLOCK_SECRET_KEY` when set (several instances on one database must share
 * it), else a key file beside the history file (created 0600 on first use), else a key for this process only.
 */
async function openVault(storePath: string): Promise<TokenVault> {
  if (process.env[SECRET_KEY_ENV] !== undefined || storePath === '' || storePath === ':memory:') {
    return process.env[SECRET_KEY_ENV] !== undefined
      ? TokenVault.fromKey(process.env[SECRET_KEY_ENV], SECRET_KEY_ENV)
      : TokenVault.fromKey(randomBytes(32));
  }
  return TokenVault.open({ keyFile: join(dirname(resolve(storePath)), 'secret.key') });
}
