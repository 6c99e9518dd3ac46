import { parseArgs } from 'node:util';

/** What `airlock-demo-server` was asked to do. */
export interface DemoArgs {
  readonly transport: 'stdio' | 'http';
  /** The HTTP port; 0 picks a free one. */
  readonly port: number;
  /** Tools per `tools/list` page, when paginating. */
  readonly pageSize?: number;
  /** Milliseconds every tools/list after the first waits before answering (a slow catalog refresh). */
  readonly slowListMs?: number;
  /** Serve 2026-07-28 only: a 2025-11-25 `initialize` is refused with -32022. */
  readonly modernOnly?: boolean;
  /** HTTP only: refuse every request without `Authorization: Bearer <token>` with 401 and a challenge. */
  readonly bearerToken?: string;
  /** Misbehave: answer every tools/call with a line that is not JSON-RPC on stdout, instead of its result. */
  readonly garbageOnCall?: boolean;
  /** Misbehave: pad every tools/list reply with this many million characters. */
  readonly hugeListMb?: number;
  /** Also serve the tools written in deprecated forms (a host's compatibility cases); off by default. */
  readonly legacyForms?: boolean;
  readonly help: boolean;
}

/** The command line either parses, or says what is wrong with it (the bin exits 2). */
export type DemoArgsResult = { ok: true; args: DemoArgs } | { ok: false; error: string };

/** The `--help` text; also printed after a usage error. */
export const DEMO_USAGE = `usage: airlock-demo-server [--http [--port N] [--bearer-token T]] [--page-size N] [--modern-only] [--legacy-forms]

Serves the Airlock demo MCP server (protocol 2025-11-25 and 2026-07-28).

  (no flags)      serve over stdio
  --http          serve Streamable HTTP on 127.0.0.1 instead; prints
                  "listening http://127.0.0.1:PORT/mcp" to stderr once ready
  --port N        the HTTP port (default 0: any free port)
  --page-size N   put N tools on each tools/list page, with a cursor to the next
  --slow-list-ms N  answer every tools/list after the first N milliseconds late
  --modern-only   serve 2026-07-28 only (a 2025-11-25 initialize gets -32022)
  --bearer-token T  with --http: answer 401 with a Bearer challenge unless the
                  request carries "Authorization: Bearer T"
  --garbage-on-call  answer every tools/call with a line of garbage on stdout
                  instead of its result (a broken stdio server)
  --huge-list-mb N  pad every tools/list reply with N million characters
  --legacy-forms  also serve legacy_view and old_app_tool, written in the
                  deprecated _meta forms a host must still read (and warns
                  about); without it every tool uses the current forms
  --help          print this help

Environment:
  AIRLOCK_DEMO_CALL_LOG=FILE   append one JSON line per call that reaches a tool
                               and per call the client cancels`;

/** Parses the command line strictly: an unknown flag, a stray argument or a bad number is an error. */
export function parseDemoArgs(argv: readonly string[]): DemoArgsResult {
  let values: {
    http?: boolean;
    port?: string;
    'page-size'?: string;
    'slow-list-ms'?: string;
    'modern-only'?: boolean;
    'bearer-token'?: string;
    'garbage-on-call'?: boolean;
    'huge-list-mb'?: string;
    'legacy-forms'?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        http: { type: 'boolean' },
        port: { type: 'string' },
        'page-size': { type: 'string' },
        'slow-list-ms': { type: 'string' },
        'modern-only': { type: 'boolean' },
        'bearer-token': { type: 'string' },
        'garbage-on-call': { type: 'boolean' },
        'huge-list-mb': { type: 'string' },
        'legacy-forms': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const port = values.port === undefined ? 0 : integer(values.port, 0, 65_535);
  if (port === undefined)
    return { ok: false, error: `--port must be an integer from 0 to 65535, got "${values.port}"` };
  if (values.port !== undefined && values.http !== true) return { ok: false, error: '--port only applies with --http' };
  const pageSize = values['page-size'] === undefined ? undefined : integer(values['page-size'], 1, 1_000);
  if (values['page-size'] !== undefined && pageSize === undefined) {
    return { ok: false, error: `--page-size must be an integer from 1 to 1000, got "${values['page-size']}"` };
  }
  const slowListMs = values['slow-list-ms'] === undefined ? undefined : integer(values['slow-list-ms'], 0, 600_000);
  if (values['slow-list-ms'] !== undefined && slowListMs === undefined) {
    return { ok: false, error: `--slow-list-ms must be an integer from 0 to 600000, got "${values['slow-list-ms']}"` };
  }
  if (values['bearer-token'] !== undefined && values.http !== true) {
    return { ok: false, error: '--bearer-token only applies with --http' };
  }
  const hugeListMb = values['huge-list-mb'] === undefined ? undefined : integer(values['huge-list-mb'], 1, 200);
  if (values['huge-list-mb'] !== undefined && hugeListMb === undefined) {
    return { ok: false, error: `--huge-list-mb must be an integer from 1 to 200, got "${values['huge-list-mb']}"` };
  }
  return {
    ok: true,
    args: {
      transport: values.http === true ? 'http' : 'stdio',
      port,
      ...(pageSize !== undefined && { pageSize }),
      ...(slowListMs !== undefined && { slowListMs }),
      ...(values['modern-only'] === true && { modernOnly: true }),
      ...(values['bearer-token'] !== undefined && { bearerToken: values['bearer-token'] }),
      ...(values['garbage-on-call'] === true && { garbageOnCall: true }),
      ...(hugeListMb !== undefined && { hugeListMb }),
      ...(values['legacy-forms'] === true && { legacyForms: true }),
      help: values.help === true,
    },
  };
}

function integer(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}
