import type { Host, Scope, ServerInfo, Tool } from '@airlock/core';
import type { Style } from './cli-style.js';
import { exampleArgs } from './example-args.js';
import { EXIT_CODES } from './exit-codes.js';
import { resolveInvocation } from './id-prefix.js';
import { cardArguments, cardHeader } from './terminal-card.js';

/** Where a command writes, and how stdout is painted. */
export interface Out {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly style: Style;
}

/** `airlock`: the servers, the tools the model sees, and what to try next; with `--json` one object of both. */
export function overview(host: Host, source: string, json: boolean, io: Out): number {
  const failed = host.servers.list().some((s) => s.state === 'failed');
  const code = failed ? EXIT_CODES.transport_error : 0;
  if (json) {
    const tools = host.tools.list({ audience: 'model' }).map(toolSummary);
    io.stdout.write(`${JSON.stringify({ source, servers: host.servers.list(), tools }, null, 2)}\n`);
    return code;
  }
  io.stdout.write(`servers from ${source}\n`);
  listServers(host, false, io);
  io.stdout.write('\ntools the model sees\n');
  listTools(host, 'model', undefined, false, io);
  io.stdout.write(`\n${io.style.dim(`try: ${tryHint(host)}(airlock --help for more)`)}\n`);
  return code;
}

/** A call to try, on a tool that is there (an echo, else the first tool the model sees), with arguments it takes. */
function tryHint(host: Host): string {
  const tools = host.tools.list({ audience: 'model' });
  const tool =
    tools.find((t) => t.origin.kind === 'mcp' && t.origin.originalName === 'echo') ??
    tools.find((t) => t.origin.kind === 'mcp');
  if (tool?.origin.kind !== 'mcp') return '';
  const args = exampleArgs(tool.inputSchema);
  const quoted = `'${JSON.stringify(args).replaceAll("'", "'\\''")}'`;
  const flag = Object.keys(args).length === 0 ? '' : ` --args ${quoted}`;
  return `airlock call ${tool.origin.serverId}/${tool.origin.originalName}${flag}   `;
}

/** `airlock servers`: each server's state, transport, trust and tool count. */
export function listServers(host: Host, json: boolean, io: Out, scope?: Scope): number {
  const servers = host.servers.list(scope === undefined ? {} : { scope });
  if (json) io.stdout.write(`${JSON.stringify(servers, null, 2)}\n`);
  else for (const s of servers) io.stdout.write(serverLine(s, io.style));
  return servers.some((s) => s.state === 'failed') ? EXIT_CODES.transport_error : 0;
}

function serverLine(s: ServerInfo, style: Style): string {
  const version = s.protocolVersion === undefined ? '' : ` · protocol ${s.protocolVersion}`;
  const trust = s.trusted ? 'trusted' : 'untrusted';
  const state = s.disabled ? style.server('switched off', 'disabled') : style.server(s.state, s.state);
  const counts = [
    `${s.toolCount} tools`,
    ...(s.resourceCount === undefined ? [] : [`${s.resourceCount} resources`]),
    ...(s.promptCount === undefined ? [] : [`${s.promptCount} prompts`]),
  ].join(', ');
  const name = s.name === undefined ? '' : ` (${s.name})`;
  const line = `  ${style.strong(s.id)}${name} · ${state} · ${s.transport} · ${trust} · ${counts}${version}\n`;
  // Why it is not working, and whether it tries again: a degraded server retries at a time, a failed one does not.
  const retry =
    s.retryAt !== undefined
      ? `    retrying at ${new Date(s.retryAt).toISOString()}\n`
      : s.state === 'failed'
        ? '    not retrying on its own: run the command again once it is fixed\n'
        : '';
  return s.error === undefined ? line : `${line}    ${style.server(s.error, s.state)}\n${retry}`;
}

/** `airlock tools`: the tools one audience sees (the arguments were checked before the host started). */
export function listTools(
  host: Host,
  audience: 'model' | 'app' | 'user',
  server: string | undefined,
  json: boolean,
  io: Out,
  /** Whose switches apply (tools hidden from the model for this user or workspace). */
  scope?: Scope,
): number {
  const tools = host.tools.list({
    audience,
    ...(server === undefined ? {} : { serverId: server }),
    ...(scope === undefined ? {} : { scope }),
  });
  if (json) {
    io.stdout.write(`${JSON.stringify(tools.map(toolSummary), null, 2)}\n`);
    return 0;
  }
  for (const tool of tools) {
    const origin = tool.origin.kind === 'mcp' ? `${tool.origin.serverId}/${tool.origin.originalName}` : 'native';
    io.stdout.write(
      `  ${io.style.strong(tool.name)}  (${origin})${tool.description ? ` · ${tool.description}` : ''}\n`,
    );
    // A terminal cannot show an MCP Apps view: say where it can be seen.
    if (tool.resourceUri !== undefined) {
      io.stdout.write(`    ${io.style.dim('has a view: call it in the console (airlock console) to see it')}\n`);
    }
  }
  if (tools.length === 0) io.stdout.write('  (none)\n');
  return 0;
}

/** A tool as `--json` prints it: its definition, without the function that runs it. */
export function toolSummary(tool: Tool): Omit<Tool, 'run'> {
  const summary: Partial<Tool> = { ...tool };
  delete summary.run;
  return summary as Omit<Tool, 'run'>;
}

/**
 * `airlock history [--limit N]` and `airlock history show ID [--full]` (ID may be a prefix): the calls of the user
 * (`--user`, default the OS user) in the workspace, in every conversation.
 */
export async function history(
  host: Host,
  scope: Scope,
  rest: readonly string[],
  values: { limit?: string; full: boolean; json: boolean },
  io: Out,
): Promise<number> {
  const { style } = io;
  if (rest[0] === 'show') {
    const { id, scope: made } = await resolveInvocation(host, scope, rest[1] ?? '');
    const entry = await host.history.get({ scope: made, invocationId: id });
    if (entry === undefined) throw new Error(`invocation ${id} vanished while it was read`);
    if (values.json) {
      io.stdout.write(`${JSON.stringify(entry, null, 2)}\n`);
      return 0;
    }
    io.stdout.write(`${cardHeader(entry.invocation, style)}  ${style.dim(id)}\n`);
    // The rest of the call's key where the caller gave it (a chat's message, the model's id for the call).
    const { conversationId } = entry.invocation.scope;
    const { messageId, modelCallId } = entry.invocation;
    if (messageId !== undefined || modelCallId !== undefined) {
      const parts = [
        `conversation ${conversationId}`,
        `message ${messageId ?? '-'}`,
        `tool call ${modelCallId ?? '-'}`,
      ];
      io.stdout.write(`  ${style.dim(parts.join(' · '))}\n`);
    }
    io.stdout.write(`${cardArguments(entry.invocation.args)}\n`);
    for (const t of entry.transitions) {
      const outcome = t.outcome ? ` (${style.state(t.outcome, t.outcome)})` : '';
      io.stdout.write(
        `  ${style.dim(new Date(t.at).toISOString())} ${t.from ?? '∅'} → ${style.state(t.to, t.to)}${outcome}\n`,
      );
    }
    const expiredAt = entry.result?.expiredAt;
    if (entry.result !== undefined && values.full && expiredAt !== undefined) {
      io.stdout.write(`  the whole result expired on ${new Date(expiredAt).toISOString()} (retention)\n`);
    }
    if (entry.result !== undefined) {
      const whole = values.full && expiredAt === undefined;
      io.stdout.write(whole ? `${entry.result.fullText}\n` : `  model was given:\n${entry.result.model.text}\n`);
    }
    return 0;
  }
  // Every conversation of the user's: the CLI's own calls and the console's chats on the same file.
  const rows = await host.history.list({
    scope,
    limit: values.limit === undefined ? 20 : Number(values.limit),
    allConversations: true,
  });
  if (values.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else {
    for (const row of rows) {
      io.stdout.write(
        `${style.strong(row.id)}  ${style.dim(new Date(row.createdAt).toISOString())}  ${cardHeader(row, style)}\n`,
      );
    }
    const newest = rows[0];
    if (newest !== undefined) io.stdout.write(`${style.dim(`one call in full: airlock history show ${newest.id}`)}\n`);
  }
  return 0;
}
