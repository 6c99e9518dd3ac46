import type { ConsoleMessageKey } from './console-messages.js';
import type { ServerView } from '../../src/wire.js';

/** One sentence of a server's reason, as a catalog key and its parameters (the page fills them in its language). */
export interface ReasonLine {
  readonly key: ConsoleMessageKey;
  readonly params?: Readonly<Record<string, string>>;
}

/**
 * Why a server is in its state, in sentences: switched off by an administrator; degraded with its last error and
 * when it retries (`retryAt`, as `time` formats it); failed with its error and that it does not retry on its own;
 * needs sign-in; starting. A ready server needs no reason. The error is the host's, with the server's control
 * characters already shown as codes; the page shows it as text.
 */
export function serverReason(server: ServerView, time: (at: number) => string): ReasonLine[] {
  if (server.disabled) return [{ key: 'console.server_panel.reason.disabled' }];
  const error = server.error ?? '';
  switch (server.state) {
    case 'degraded':
      return [
        ...(error === '' ? [] : [{ key: 'console.server_panel.reason.degraded' as const, params: { error } }]),
        ...(server.retryAt === undefined
          ? []
          : [{ key: 'console.server_panel.reason.retrying' as const, params: { time: time(server.retryAt) } }]),
      ];
    case 'failed':
      return [
        ...(error === '' ? [] : [{ key: 'console.server_panel.reason.failed' as const, params: { error } }]),
        { key: 'console.server_panel.reason.not_retrying' },
      ];
    case 'needs_auth':
      return [{ key: 'console.server_panel.reason.needs_auth' }];
    case 'connecting':
      return [{ key: 'console.server_panel.reason.connecting' }];
    default:
      return [];
  }
}
