import { existsSync } from 'node:fs';
import type { EntryContext } from './server-entry-context.js';

/** How an HTTP server is spoken to: Streamable HTTP, or the legacy HTTP+SSE transport of 2024-11-05. */
export type HttpTransportKind = 'streamable' | 'sse';

/** `type` values hosts write, and what each means here. */
const TYPES: Readonly<Record<string, 'stdio' | HttpTransportKind>> = {
  stdio: 'stdio',
  http: 'streamable',
  'streamable-http': 'streamable',
  streamableHttp: 'streamable',
  sse: 'sse',
};

/**
 * The transport an entry asks for. `type` (VS Code's, Cursor's) must agree with the entry: `stdio` with a `url`, or
 * `http`/`sse` with a `command`, is refused with the place of `type`. Without `type`, a `url` is HTTP with no kind
 * (Streamable HTTP, falling back to SSE) and anything else stdio. Windsurf's `serverUrl` is pointed at `url`.
 */
export function entryTransport(
  e: Readonly<Record<string, unknown>>,
  ctx: EntryContext,
): { transport: 'stdio' } | { transport: 'http'; kind?: HttpTransportKind } {
  const type = e['type'];
  if (type !== undefined && (typeof type !== 'string' || !Object.hasOwn(TYPES, type))) {
    ctx.fail('type', `must be "stdio", "http" or "sse" (not ${JSON.stringify(type)})`);
  }
  const kind = type === undefined ? undefined : TYPES[type];
  if (e['url'] === undefined && e['command'] === undefined && typeof e['serverUrl'] === 'string') {
    ctx.fail('serverUrl', 'is not read by Airlock: rename it to "url"');
  }
  if (e['url'] !== undefined && e['command'] !== undefined) ctx.fail('url', 'and command cannot both be set');
  if (kind === 'stdio' && e['url'] !== undefined) {
    ctx.fail('type', '"stdio" contradicts url: a stdio server is started from a command (remove type or url)');
  }
  if (kind !== undefined && kind !== 'stdio' && e['url'] === undefined) {
    ctx.fail('type', `"${String(type)}" needs a url (a server started from a command is "stdio")`);
  }
  if (e['url'] === undefined) return { transport: 'stdio' };
  return kind === undefined || kind === 'stdio' ? { transport: 'http' } : { transport: 'http', kind };
}

/**
 * Refuses `"command": "node server.js"` with no `args`, saying how to split it: the command is started as one program
 * name, never through a shell. A command with spaces that names an existing file (`/opt/My App/server`) is fine.
 */
export function checkCommandSpaces(command: string, args: readonly string[], ctx: EntryContext): void {
  if (args.length > 0 || !/\s/.test(command.trim()) || existsSync(command)) return;
  const [program, ...rest] = command.trim().split(/\s+/);
  ctx.fail(
    'command',
    `holds spaces (${JSON.stringify(command)}): it is started as one program, not through a shell; split it: ` +
      `"command": ${JSON.stringify(program)}, "args": ${JSON.stringify(rest)}`,
  );
}
