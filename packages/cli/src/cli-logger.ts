import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { LOG_REDACT_PATHS } from '@airlock/core';

/**
 * Builds the CLI's structured log (pino): JSON lines on stderr, so stdout stays the command's output (and `--json`
 * stays parseable). At `warn` by default, so a command prints only what needs attention; `--verbose` is `debug`
 * (server states, every call's end). Levels are words; the paths that could hold arguments or secrets are censored.
 */
export function createCliLogger(options: {
  readonly verbose: boolean;
  readonly destination: DestinationStream;
}): Logger {
  return pino(
    {
      name: 'airlock',
      level: options.verbose ? 'debug' : 'warn',
      base: undefined,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...LOG_REDACT_PATHS], censor: '[redacted]' },
    },
    options.destination,
  );
}
