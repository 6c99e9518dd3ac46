import type { Host, Scope, ServerLogLine } from '@airlock/core';
import { HostError } from '@airlock/core';
import type { Out } from './list-commands.js';

/**
 * `airlock servers logs SERVER [--follow]`: the newest lines the server wrote to stderr and the log notifications it
 * sent (the host keeps the last 200 lines / 64 KiB per connection, control characters shown as codes). This run
 * started the server, so the tail is what it said while starting; `--follow` keeps printing new lines until Ctrl-C.
 */
export async function serverLogsCommand(
  host: Host,
  serverId: string,
  values: { follow: boolean; json: boolean },
  io: Out,
  stop: AbortSignal,
): Promise<number> {
  const print = (line: ServerLogLine) =>
    io.stdout.write(values.json ? `${JSON.stringify(line)}\n` : `${logLine(line, io)}\n`);
  for (const line of host.servers.logs(serverId)) print(line);
  if (!values.follow) return 0;
  const off = host.on('server.log', (event) => {
    if (event.serverId === serverId && event.tenant === undefined) print(event.line);
  });
  await new Promise<void>((resolve) => {
    if (stop.aborted) resolve();
    stop.addEventListener('abort', () => resolve(), { once: true });
  });
  off();
  return 0;
}

function logLine(line: ServerLogLine, io: Out): string {
  const at = io.style.dim(new Date(line.at).toISOString());
  const source = line.source === 'stderr' ? 'stderr' : `log ${line.level ?? ''}${line.logger ? ` ${line.logger}` : ''}`;
  return `${at} ${io.style.dim(source)} ${line.text}`;
}

/** `airlock servers disable|enable SERVER`: switches a server off or on for everyone, kept in the history file. */
export async function serverSwitchCommand(
  host: Host,
  action: 'disable' | 'enable',
  serverId: string,
  who: string,
  io: Out,
): Promise<number> {
  const changed = await host.servers.setEnabled(serverId, { enabled: action === 'enable', by: who });
  const now = action === 'enable' ? 'on' : 'off';
  io.stdout.write(changed ? `server "${serverId}" is switched ${now}\n` : `server "${serverId}" was already ${now}\n`);
  return 0;
}

/**
 * `airlock tools hide|show SERVER/TOOL [--everyone]`: hides a tool from the model (or shows it again) for you in this
 * workspace, or with `--everyone` for everyone in the workspace. You still see it and may still call it yourself.
 */
export async function toolSwitchCommand(
  host: Host,
  scope: Scope,
  action: 'hide' | 'show',
  target: string,
  everyone: boolean,
  io: Out,
): Promise<number> {
  const [serverId, name] = target.split('/');
  const tool = host.tools
    .list({ audience: 'user', scope })
    .find((t) => t.origin.kind === 'mcp' && t.origin.serverId === serverId && t.origin.originalName === name);
  if (tool === undefined) throw new HostError('tool_not_found', `server "${serverId}" has no tool ${name}`);
  const level = everyone ? 'workspace' : 'user';
  const changed = await host.tools.setHidden({ scope, tool: tool.name, level, hidden: action === 'hide' });
  const whom = everyone ? `everyone in workspace "${scope.workspaceId}"` : 'you';
  const state = action === 'hide' ? 'hidden from the model' : 'shown to the model';
  io.stdout.write(`${target} ${changed ? 'is now' : 'was already'} ${state} for ${whom}\n`);
  return 0;
}
