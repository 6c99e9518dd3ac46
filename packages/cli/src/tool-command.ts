import type { Host, Scope, Tool } from '@airlock/core';
import { HostError } from '@airlock/core';
import type { Style } from './cli-style.js';
import { PLAIN } from './cli-style.js';
import { suggestion } from './did-you-mean.js';

interface Out {
  readonly stdout: NodeJS.WritableStream;
  readonly style?: Style;
}

/** The tool SERVER/TOOL as this user sees it, or `tool_not_found` naming the server's tool it most likely meant. */
export function findTool(host: Host, scope: Scope, target: string): Tool {
  const [serverId = '', name = ''] = target.split('/');
  const ofServer = host.tools
    .list({ audience: 'user', scope })
    .filter((tool) => tool.origin.kind === 'mcp' && tool.origin.serverId === serverId);
  const found = ofServer.find((tool) => tool.origin.kind === 'mcp' && tool.origin.originalName === name);
  if (found !== undefined) return found;
  const names = ofServer.flatMap((tool) => (tool.origin.kind === 'mcp' ? [tool.origin.originalName] : []));
  throw new HostError('tool_not_found', `server "${serverId}" has no tool ${name}${suggestion(name, names)}`, {
    data: { serverId, tool: name },
  });
}

/**
 * `airlock tools SERVER/TOOL [--json]`: one tool before calling it: what it takes (its input schema), what it says of
 * itself (annotations), the risk the host derives, and what a call would meet now (a stored decision or a rule).
 */
export async function toolCommand(host: Host, scope: Scope, target: string, json: boolean, io: Out): Promise<number> {
  await host.permissions.ready();
  const tool = findTool(host, scope, target);
  const [serverId, name] = target.split('/');
  const explanation = host.permissions.explain({ scope, tool: tool.name, args: {} });
  const stored = host.permissions.list({ scope }).filter((d) => d.serverId === serverId && d.tool === name);
  if (json) {
    io.stdout.write(`${JSON.stringify({ tool, risk: explanation.risk, decision: explanation, stored }, null, 2)}\n`);
    return 0;
  }
  const style = io.style ?? PLAIN;
  const { risk } = explanation;
  const lines = [
    `${style.strong(target)}${tool.title === undefined ? '' : `  ${tool.title}`}  (the model calls it ${tool.name})`,
    ...(tool.description === undefined ? [] : [tool.description]),
    '',
    `${style.risk(`risk ${risk.tier}`, risk.tier)}: ${risk.reasons.join('; ')}`,
    `a call now: ${style.state(explanation.decision, explanation.decision)} (${explanation.source}): ${explanation.reason}`,
    ...(stored.length === 0
      ? ['stored decisions: none']
      : stored.map(
          (d) => `stored: ${d.effect} always, ${d.argsHash === null ? 'any arguments' : 'these arguments'} (${d.id})`,
        )),
    '',
    'annotations:',
    ...Object.entries(tool.annotations ?? {}).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
    ...(tool.annotations === undefined || Object.keys(tool.annotations).length === 0 ? ['  none'] : []),
    '',
    'input schema:',
    ...JSON.stringify(tool.inputSchema, null, 2)
      .split('\n')
      .map((line) => `  ${line}`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
