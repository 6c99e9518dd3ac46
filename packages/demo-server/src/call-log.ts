import { appendFileSync } from 'node:fs';

/**
 * One line of the call log. Kept to exactly these keys: a host's tests compare lines with `toEqual`.
 *
 * - `call`: a `tools/call` reached the tool's handler (logged before anything else runs, so a line proves arrival).
 * - `cancelled`: the client aborted that call while it ran (cancel notification, closed stream or closed pipe).
 */
export type CallLogEvent = { event: 'call'; tool: string; args: unknown } | { event: 'cancelled'; tool: string };

/** Where the demo server reports what reached it; called synchronously, in order. */
export type CallLog = (event: CallLogEvent) => void;

/**
 * A call log that appends one JSON line per event to `path`, synchronously, so the line is on disk before the server
 * does anything else (a test that sees a response can read its line; a crash cannot lose it).
 */
export function fileCallLog(path: string): CallLog {
  return (event) => appendFileSync(path, `${JSON.stringify(event)}\n`);
}
