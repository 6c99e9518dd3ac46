import { createReadinessProbe } from '@airlock/core';
import type { Host } from '@airlock/core';
import type { ApiApp } from './api-app.js';

/** What the health routes work with. */
export interface HealthRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
}

/**
 * `GET /healthz` (the process serves: 200) and `GET /readyz` (200, or 503 with the reason: the store does not answer,
 * the servers are still connecting) for an orchestrator's probes. Mounted before every other check: a probe comes
 * without a session and with the instance's own address as its Host, and the answers say nothing about anyone's data.
 */
export function mountHealthRoutes({ app, host }: HealthRoutesOptions): void {
  const ready = createReadinessProbe(host);
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    const readiness = await ready();
    if (readiness.ready) return c.json({ status: 'ready' });
    return c.json({ status: 'not_ready', reason: readiness.reason, message: readiness.message }, 503);
  });
}
