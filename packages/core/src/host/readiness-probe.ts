import type { Host } from './host.js';

/** Why a host is not ready, as a readiness endpoint names it. */
export type NotReadyReason = 'store_unreachable' | 'servers_connecting';

/** What one readiness check found: ready, or the first cause that keeps the host from serving calls. */
export type Readiness =
  { readonly ready: true } | { readonly ready: false; readonly reason: NotReadyReason; readonly message: string };

/** What {@link createReadinessProbe} takes. */
export interface ReadinessProbeOptions {
  /** How long the store's read may take before the store counts as unreachable. Default 2000 ms. */
  readonly storeTimeoutMs?: number;
}

/** The tenant the probe reads: no one's, so the read is one indexed lookup that finds nothing. */
const PROBE_SCOPE = { userId: 'airlock-readiness', workspaceId: 'airlock-readiness', conversationId: 'probe' };

/**
 * A readiness check for a `/readyz` endpoint: the host's servers have settled (each first connection ready or
 * failed: a failed server does not keep the host from serving the others), and its store answers a history read,
 * which needs the migrated schema. Messages are fixed sentences: the endpoint needs no session, so no store error
 * text (paths, addresses) goes out through it.
 */
export function createReadinessProbe(host: Host, options: ReadinessProbeOptions = {}): () => Promise<Readiness> {
  const timeoutMs = options.storeTimeoutMs ?? 2_000;
  let settled = false;
  void host.servers.settled().then(() => (settled = true));
  return async () => {
    if (!settled) {
      return { ready: false, reason: 'servers_connecting', message: 'the servers are still connecting' };
    }
    const read = await withDeadline(host.history.list({ scope: PROBE_SCOPE, limit: 1 }), timeoutMs);
    if (read === 'ok') return { ready: true };
    const how = read === 'late' ? `did not answer within ${timeoutMs} ms` : 'failed a read';
    return { ready: false, reason: 'store_unreachable', message: `the history store ${how}` };
  };
}

/** How the probe's read ended: answered, failed (a closed store too), or too late. */
async function withDeadline(read: Promise<unknown>, ms: number): Promise<'ok' | 'failed' | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([
      read.then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
