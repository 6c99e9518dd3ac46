import type { Hono } from 'hono';
import type { Session } from '../sessions.js';

/**
 * What a route finds on its context: the signed-in session, and whether its user is an administrator
 * (`Sessions.isAdmin`), both set before any route that needs them runs.
 */
export type ApiEnv = { Variables: { session: Session; admin: boolean } };

/** The console's Hono app, as every route file mounts on it. */
export type ApiApp = Hono<ApiEnv>;
