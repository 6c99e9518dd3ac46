import type { Context } from 'hono';
import type { AuditEventType, Host } from '@airlock/core';
import { AUDIT_EVENT_TYPES } from '@airlock/core';
import { ApiError } from '../api-error.js';
import type { ApiApp } from './api-app.js';

/** What the audit routes work with. */
export interface AuditRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
}

function numberParam(c: Context, name: string): number | undefined {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new ApiError(400, 'invalid_request', `${name} must be a number`);
  return value;
}

/**
 * The audit trail of the session's tenant: events filtered and paged, one event, the export (NDJSON of every event,
 * or `format=seed`: decisions in seed 003 R6's schema), and a check
 * of the hash chain (which is one for every tenant, so it says where it breaks, never how much others did).
 */
export function mountAuditRoutes({ app, host }: AuditRoutesOptions): void {
  app.get('/api/audit', async (c) => {
    const type = c.req.query('type');
    if (type !== undefined && type !== '' && !AUDIT_EVENT_TYPES.includes(type as AuditEventType)) {
      throw new ApiError(400, 'invalid_request', `type must be one of ${AUDIT_EVENT_TYPES.join(', ')}`);
    }
    const filters = {
      ...(type ? { type: type as AuditEventType } : {}),
      ...(c.req.query('tool') ? { tool: c.req.query('tool') } : {}),
      ...(c.req.query('serverId') ? { serverId: c.req.query('serverId') } : {}),
      ...(c.req.query('invocationId') ? { invocationId: c.req.query('invocationId') } : {}),
    };
    const since = numberParam(c, 'since');
    const afterSeq = numberParam(c, 'afterSeq');
    const limit = numberParam(c, 'limit');
    const events = await host.audit.query({
      scope: c.get('session'),
      ...filters,
      ...(since === undefined ? {} : { since }),
      ...(afterSeq === undefined ? {} : { afterSeq }),
      limit: Math.min(limit ?? 500, 10_000),
    });
    return c.json(events);
  });
  app.get('/api/audit/export', async (c) => {
    const s = c.get('session');
    // ?format=seed: the permission decisions in seed 003 R6's schema; the default stays NDJSON of every event.
    const format = c.req.query('format') || 'ndjson';
    if (format !== 'ndjson' && format !== 'seed') {
      throw new ApiError(400, 'invalid_request', `format must be ndjson or seed, not "${format}"`);
    }
    const ndjson = await host.audit.export({ scope: { userId: s.userId, workspaceId: s.workspaceId }, format });
    const name =
      format === 'seed' ? `airlock-audit-${s.workspaceId}.seed.ndjson` : `airlock-audit-${s.workspaceId}.ndjson`;
    return c.body(ndjson, 200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
    });
  });
  app.post('/api/audit/verify', async (c) => {
    // The chain is one for every tenant: say whether it holds and where it breaks, not how much others did.
    const verification = await host.audit.verify();
    return c.json(verification.ok ? { ok: true } : { ok: false, seq: verification.seq, problem: verification.problem });
  });
  app.get('/api/audit/:seq', async (c) => {
    const seq = Number(c.req.param('seq'));
    if (!Number.isInteger(seq) || seq < 1) throw new ApiError(404, 'not_found', `no audit event ${c.req.param('seq')}`);
    const [event] = await host.audit.query({ scope: c.get('session'), afterSeq: seq - 1, limit: 1 });
    if (event?.seq !== seq) throw new ApiError(404, 'not_found', `no audit event ${seq}`);
    return c.json(event);
  });
}
