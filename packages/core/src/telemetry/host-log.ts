import type { HostEventName, HostListener } from '../events/host-events.js';

/**
 * Where the host's log lines go: the four methods of a pino logger (or of any logger taking a fields object, then a
 * message). Core takes the shape, not a logging library: the application picks the logger and its destination.
 */
export interface LogSink {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * Fields a logger built for a host should censor wherever they appear (pino's `redact` paths): a second line of
 * defence behind `logHostEvents`, which never logs them, for what an application logs itself.
 */
export const LOG_REDACT_PATHS: readonly string[] = [
  'args',
  '*.args',
  'arguments',
  '*.arguments',
  'content',
  '*.content',
  'headers.authorization',
  '*.headers.authorization',
  'authorization',
  '*.authorization',
  'token',
  '*.token',
  'password',
  '*.password',
  'env',
  '*.env',
];

/** The part of the host's emitter the log listens to. */
interface EventSource {
  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void;
}

/**
 * Logs what an operator needs from a running host: server state changes (a failure at warn), server and rule
 * warnings, history write failures, and at debug the end of each call (tool, server, outcome, error code). It never
 * logs argument values, results, error messages of calls (a tool's message can echo its arguments) or the scope's
 * ids beyond the call's own: the one place that decides what reaches a log, so an application cannot leak by
 * accident. Returns the detach.
 */
export function logHostEvents(host: EventSource, log: LogSink): () => void {
  const detach = [
    // A tenant's own connection (a server per user or workspace) says whose it is.
    host.on('server.state', ({ serverId, tenant, state, error }) => {
      const who = tenant === undefined ? {} : { tenant };
      const name = tenant === undefined ? serverId : `${serverId} (${tenant})`;
      if (state === 'failed') log.warn({ serverId, ...who, state, error }, `server ${name} failed`);
      else log.info({ serverId, ...who, state }, `server ${name} is ${state}`);
    }),
    host.on('server.warning', ({ serverId, tenant, message }) =>
      log.warn({ serverId, ...(tenant === undefined ? {} : { tenant }) }, message),
    ),
    host.on('permission.rule_warning', ({ message }) => log.warn({}, message)),
    host.on('store.error', ({ message }) => log.error({ error: message }, 'history stopped taking writes')),
    host.on('invocation.transition', ({ invocation }) => {
      if (invocation.outcome === null) return;
      log.debug(
        {
          invocationId: invocation.id,
          tool: invocation.tool,
          serverId: invocation.serverId,
          outcome: invocation.outcome,
          errorCode: invocation.error?.code,
          durationMs: invocation.updatedAt - invocation.createdAt,
        },
        `call to ${invocation.tool} ended: ${invocation.outcome}`,
      );
    }),
  ];
  return () => {
    for (const off of detach) off();
  };
}
