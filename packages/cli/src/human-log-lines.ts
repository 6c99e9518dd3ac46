import type { DestinationStream } from 'pino';

/**
 * A pino destination for a person at a terminal: each JSON log line becomes `airlock: warning: MESSAGE (key=value)`.
 * The CLI writes JSON lines where a program reads stderr (not a terminal, or --json); a person reading raw JSON at a
 * prompt sees the braces before the message.
 */
export function humanLogLines(stderr: NodeJS.WritableStream): DestinationStream {
  return {
    write(line: string): void {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        stderr.write(line);
        return;
      }
      const { level, msg, time: _time, name: _name, ...fields } = record;
      const label = level === 'warn' ? 'warning' : typeof level === 'string' ? level : 'log';
      const detail = Object.entries(fields)
        .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
        .join(' ');
      stderr.write(`airlock: ${label}: ${String(msg)}${detail === '' ? '' : ` (${detail})`}\n`);
    },
  };
}
