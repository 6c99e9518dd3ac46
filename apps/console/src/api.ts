import { Hono } from 'hono';
import type { Host, ServerConfig, StoredInputs } from '@airlock/core';
import { ApiError, toApiError } from './api-error.js';
import type { Chat } from './chat.js';
import type { ModelKeys } from './model-keys.js';
import type { ConversationLog } from './conversation-log.js';
import type { AuthMode } from './console-config.js';
import type { ConsoleLogger } from './console-logger.js';
import type { EventHub, KitSurface } from '@airlock/web-kit';
import { kitActionRoutes } from '@airlock/web-kit';
import type { HostEventRelay } from './host-event-relay.js';
import type { PageData } from './page-data.js';
import type { RunningCalls } from './running-calls.js';
import type { Sessions } from './sessions.js';
import { bodyLimits } from './body-limits.js';
import { ViewContexts } from './view-context.js';
import type { ConsoleEventMap } from './console-events.js';
import type { ApiApp, ApiEnv } from './routes/api-app.js';
import { mountAppViewRoutes } from './routes/app-view-routes.js';
import { mountAuditRoutes } from './routes/audit-routes.js';
import { mountServerAuthRoutes } from './routes/server-auth-routes.js';
import { mountResourceRoutes } from './routes/resource-routes.js';
import type { ConsoleSignIn } from './console-sign-in.js';
import { mountCatalogRoutes } from './routes/catalog-routes.js';
import { mountServerPanelRoutes } from './routes/server-panel-routes.js';
import { mountInputRoutes } from './routes/input-routes.js';
import { mountChatRoutes } from './routes/chat-routes.js';
import { mountModelKeyRoutes } from './routes/model-key-routes.js';
import { mountElicitationRoutes } from './routes/elicitation-routes.js';
import { mountHealthRoutes } from './routes/health-routes.js';
import { mountMetricsRoutes } from './routes/metrics-routes.js';
import type { MetricsRoutesOptions } from './routes/metrics-routes.js';
import { mountEventStreamRoutes } from './routes/event-stream-routes.js';
import { mountInvocationRoutes } from './routes/invocation-routes.js';
import { mountPermissionRoutes } from './routes/permission-routes.js';
import { scopeOf } from './routes/request-input.js';
import { mountSessionRoutes } from './routes/session-routes.js';
import { mountViewConsentRoutes } from './routes/view-consent-routes.js';
import type { ViewConsents } from './view-consents.js';
import type { ViewProxyAddress } from './view-proxy-address.js';

/** What the routes work with; the console server builds it. */
export interface ApiParts {
  readonly host: Host;
  /** Where a request that failed on our side (a 500) is logged, with its method and path, never its body. */
  readonly logger: ConsoleLogger;
  readonly sessions: Sessions;
  readonly surface: KitSurface;
  readonly signIn: ConsoleSignIn;
  /** The console's address as users reach it (its client metadata document names it). */
  readonly publicUrl: () => string;
  readonly hub: EventHub<ConsoleEventMap>;
  readonly relay: HostEventRelay;
  readonly running: RunningCalls;
  readonly pageData: PageData;
  readonly chat: Chat | undefined;
  /** Users' own keys for the chat's models; absent when no model is configured. */
  readonly modelKeys?: ModelKeys;
  readonly conversations: ConversationLog;
  /** The config's servers (the inputs they declare) and the values entered for them. */
  readonly inputs: { readonly servers: readonly ServerConfig[]; readonly values: StoredInputs };
  readonly authMode: AuthMode;
  /** Host names (with port) the page may be reached by; anything else is refused (DNS rebinding). Empty: any. */
  readonly allowedHosts: () => readonly string[];
  /** Where pages find the MCP Apps views' sandbox proxy; absent when this console shows no views. */
  readonly viewProxy?: ViewProxyAddress;
  /** What views added to the model's context, per conversation. */
  readonly viewContexts?: ViewContexts;
  /** Views' browser-permission consents, kept in the store. */
  readonly viewConsents: ViewConsents;
  /** `GET /metrics`, when the config turns it on. */
  readonly metrics?: Omit<MetricsRoutesOptions, 'app'>;
}

/**
 * The HTTP API: the checks every request passes (host name, body size, origin), then sign-in, one event stream per
 * tab, and a scoped route for everything a page shows or does, one file per resource under `routes/`.
 */
export function createApi(parts: ApiParts): ApiApp {
  const { host, sessions, surface, hub, relay, running, pageData, chat } = parts;
  const app = new Hono<ApiEnv>();

  app.onError((error, c) => {
    const api = toApiError(error);
    if (api.status === 500)
      parts.logger.error({ err: error, method: c.req.method, path: c.req.path }, 'request failed');
    return c.json({ error: { ...(api.data ?? {}), code: api.code, message: api.message } }, api.status);
  });
  app.notFound((c) => c.json({ error: { code: 'not_found', message: `no route ${c.req.method} ${c.req.path}` } }, 404));
  // Before the host-name check: an orchestrator's probe names the instance by its own address.
  mountHealthRoutes({ app, host });
  if (parts.metrics !== undefined) mountMetricsRoutes({ app, ...parts.metrics });

  app.use('*', async (c, next) => {
    const allowed = parts.allowedHosts();
    const hostHeader = c.req.header('host') ?? '';
    if (allowed.length > 0 && !allowed.includes(hostHeader)) {
      throw new ApiError(403, 'forbidden_host', `this console does not answer for host "${hostHeader}"`);
    }
    await next();
  });
  // Every route, the page's and the OAuth callback's too: nothing reads a body past its limit.
  app.use('*', bodyLimits());
  app.use('/api/*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const origin = c.req.header('origin');
      if (origin !== undefined && new URL(c.req.url).origin !== origin) {
        throw new ApiError(403, 'forbidden_origin', `requests from ${origin} are not accepted`);
      }
    }
    await next();
  });

  // First: sign-in needs no session, and its guard stands before every route mounted after it.
  mountSessionRoutes({ app, host, sessions, hub, authMode: parts.authMode, modelConfigured: chat !== undefined });
  mountEventStreamRoutes({ app, hub, pageData });
  mountCatalogRoutes({ app, host, pageData });
  mountServerPanelRoutes({ app, host, pageData });
  mountInputRoutes({ app, host, pageData, servers: parts.inputs.servers, inputs: parts.inputs.values });
  // The page's decisions, answers and cancels: the kit's routes, over the console's calls and questions.
  const actions = kitActionRoutes<ApiEnv>({
    host,
    surface,
    scopeOf: (c) => scopeOf(c),
    calls: running,
    questions: relay,
  });
  mountInvocationRoutes({ app, pageData, running, actions });
  mountPermissionRoutes({ app, host, hub, actions });
  mountElicitationRoutes({ app, relay, actions });
  mountAuditRoutes({ app, host });
  mountResourceRoutes({ app, host });
  // Sign-in to remote servers; its callback (outside /api, where authorization servers send users back) checks the
  // session itself.
  mountServerAuthRoutes({ app, host, signIn: parts.signIn, sessions, publicUrl: parts.publicUrl });
  mountChatRoutes({
    app,
    chat,
    conversations: parts.conversations,
    ...(parts.modelKeys === undefined ? {} : { modelKeys: parts.modelKeys }),
  });
  mountModelKeyRoutes({ app, modelKeys: parts.modelKeys });
  mountAppViewRoutes({
    app,
    host,
    running,
    viewProxy: parts.viewProxy,
    contexts: parts.viewContexts ?? new ViewContexts(parts.conversations),
  });
  mountViewConsentRoutes({ app, host, consents: parts.viewConsents });
  return app;
}
