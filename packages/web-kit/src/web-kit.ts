import type { Host, Surface } from '@airlock/core';
import type { KitQuestionBus } from './kit-question-bus.js';
import type { KitSessions } from './kit-sessions.js';
import type { ExtraEvents, KitServer, ScopeOf } from './serve-kit.js';
import { serveKit } from './serve-kit.js';
import { KitSurface } from './kit-surface.js';

/** The kit before its host exists: the surface to create the host with, and `serve` once it does. */
export interface WebKit<Extra extends ExtraEvents = Record<never, never>> {
  /** Give this to `createHost({ surface })`: the host's questions wait here for a page to answer them. */
  readonly surface: Surface;
  /** The routes and the cancellable `invoke` over `host` (created with this kit's surface). */
  serve(host: Host): KitServer<Extra>;
}

/** Who each request is: a scope from the request alone, or the app's sessions (which also say when one ends). */
export type WebKitOptions = (
  | { readonly scopeOf: ScopeOf; readonly sessions?: undefined }
  | { readonly sessions: KitSessions; readonly scopeOf?: undefined }
) & {
  /**
   * Shares permission questions, answers and cancels with the app's other instances; alone when not given. Instances
   * that share a bus share one history too (one store): a cancel looks the call up there before sending it on.
   */
  readonly questions?: KitQuestionBus;
};

/**
 * The server part of the browser kit. `scopeOf` (or `sessions`) says who each request is (from your session, cookie
 * or token): a page sees and answers only its own user's questions in its own workspace. `Extra` names the app's own
 * events the stream carries beside the kit's (`KitServer.send`).
 */
export function createWebKit<Extra extends ExtraEvents = Record<never, never>>(options: WebKitOptions): WebKit<Extra> {
  const surface = new KitSurface({ questions: options.questions });
  const scopeOf = options.scopeOf;
  const sessions: KitSessions =
    options.sessions ??
    ({
      of: async (request: Request) => {
        const scope = await scopeOf!(request);
        return scope === undefined ? undefined : { scope };
      },
    } satisfies KitSessions);
  return { surface, serve: (host) => serveKit<Extra>(host, surface, sessions) };
}
