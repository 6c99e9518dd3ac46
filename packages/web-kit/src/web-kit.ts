import type { Host, Surface } from '@airlock/core';
import type { KitServer, ScopeOf } from './serve-kit.js';
import { serveKit } from './serve-kit.js';
import { KitSurface } from './kit-surface.js';

/** The kit before its host exists: the surface to create the host with, and `serve` once it does. */
export interface WebKit {
  /** Give this to `createHost({ surface })`: the host's questions wait here for a page to answer them. */
  readonly surface: Surface;
  /** The routes and the cancellable `invoke` over `host` (created with this kit's surface). */
  serve(host: Host): KitServer;
}

/**
 * The server part of the browser kit. `scopeOf` says who each request is (from your session, cookie or token): a
 * page sees and answers only its own user's questions in its own workspace.
 */
export function createWebKit(options: { readonly scopeOf: ScopeOf }): WebKit {
  const surface = new KitSurface();
  return { surface, serve: (host) => serveKit(host, surface, options.scopeOf) };
}
