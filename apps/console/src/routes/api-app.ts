import type { Hono } from 'hono';
import type { Session } from '../sessions.js';

/** What a route finds on its context: the signed-in session, set before any route that needs one runs. */
export type ApiEnv = { Variables: { session: Session } };

/** The console's Hono app, as every route file mounts on it. */
export type ApiApp = Hono<ApiEnv>;
