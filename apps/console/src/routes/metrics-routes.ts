import { timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { sha256Hex } from '@airlock/core';
import type { ConsoleMetrics } from '../console-metrics.js';
import type { ApiApp } from './api-app.js';

/** What the metrics route works with. */
export interface MetricsRoutesOptions {
  readonly app: ApiApp;
  readonly metrics: ConsoleMetrics;
  /** The sha-256 (hex) of the scraper's bearer token; without it only loopback peers are served. */
  readonly tokenSha256?: string;
}

const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * `GET /metrics` in the Prometheus text format, for a scraper on this machine or one with the configured token. It
 * needs no session (a scraper has none) and stands before the host-name check (a scraper names the instance by its
 * address); anyone else gets 404, as if it were not there.
 */
export function mountMetricsRoutes({ app, metrics, tokenSha256 }: MetricsRoutesOptions): void {
  app.get('/metrics', async (c, next) => {
    const peer = getConnInfo(c).remote.address ?? '';
    if (!LOOPBACK_PEERS.has(peer) && !tokenMatches(c.req.header('authorization'), tokenSha256)) return next();
    return c.body(await metrics.text(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
  });
}

/** True when the bearer token's sha-256 is the configured one (compared in constant time). */
function tokenMatches(authorization: string | undefined, expected: string | undefined): boolean {
  const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
  if (token === undefined || expected === undefined) return false;
  const presented = Buffer.from(sha256Hex(token), 'hex');
  const wanted = Buffer.from(expected, 'hex');
  return presented.length === wanted.length && timingSafeEqual(presented, wanted);
}
