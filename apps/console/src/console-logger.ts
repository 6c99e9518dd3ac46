import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { pino } from 'pino';
import type { DestinationStream, Level, Logger } from 'pino';
import { LOG_REDACT_PATHS } from '@airlock/core';

/** The console's log: JSON lines, one per event, with `level` as a word and `msg`. */
export type ConsoleLogger = Logger;

/**
 * Builds the console's structured log (pino): JSON lines on stderr (stdout stays the human banner), at `info` unless
 * `level` says otherwise (`--verbose`: debug; `AIRLOCK_LOG_LEVEL`). Levels are words, not pino's numbers, so a line
 * reads without a table; the paths that could hold arguments or secrets are censored (`LOG_REDACT_PATHS`). A line
 * written inside a span carries its `trace_id` and `span_id`, so a log backend joins it to the trace.
 */
export function createConsoleLogger(
  options: { readonly level?: Level | 'silent'; readonly destination?: DestinationStream } = {},
): ConsoleLogger {
  const level = options.level ?? logLevelFromEnv() ?? 'info';
  return pino(
    {
      name: 'airlock-console',
      level,
      base: undefined,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' },
      mixin: traceFields,
    },
    options.destination ?? pino.destination({ dest: 2, sync: true }),
  );
}

/** The active span's ids, after the OpenTelemetry log field names; nothing outside a span. */
function traceFields(): Record<string, string> {
  const span = trace.getSpan(context.active());
  if (span === undefined) return {};
  const ids = span.spanContext();
  if (!isSpanContextValid(ids)) return {};
  return { trace_id: ids.traceId, span_id: ids.spanId, trace_flags: ids.traceFlags.toString(16).padStart(2, '0') };
}

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** `AIRLOCK_LOG_LEVEL`, when it names a level; anything else is ignored (a log level never stops the console). */
function logLevelFromEnv(): Level | 'silent' | undefined {
  const value = process.env['AIRLOCK_LOG_LEVEL']?.trim().toLowerCase();
  return value !== undefined && LEVELS.has(value) ? (value as Level | 'silent') : undefined;
}
