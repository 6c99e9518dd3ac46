import { randomUUID } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../audit/canonical-json.js';
import { HostError } from '../errors/host-error.js';
import type { InvocationRecord } from '../store/invocation-record.js';
import type { PreCallContext, PreCallVerdict } from '../invocations/pre-call-chain.js';
import type { RuleTarget } from '../permissions/permission-rules.js';
import { evaluateRules } from '../permissions/permission-rules.js';
import type { PermissionEngine } from '../permissions/permission-engine.js';
import type { Scope } from '../scope.js';
import type { Tool } from '../tools/tool.js';
import type { ReadCaller } from './resource-types.js';

/** The name a read has where a tool's name would be: in rules' targets, stored decisions and the permission sheet. */
export const RESOURCE_READ = 'resources/read';

/** What the read gate needs: the permission engine's gate and rules, and the wall clock. */
export interface ReadGateDeps {
  readonly engine: Pick<PermissionEngine, 'gate' | 'rules'>;
  readonly now: () => number;
}

/**
 * A resource read as the permission gate sees it: a tool the host makes for the server (`<server>__resources/read`,
 * annotated read-only and closed-world by the host itself, so its risk is low on a trusted server and medium on an
 * untrusted one) whose one argument is the URI. A tool's own definition never applies to it: its name has a `/`,
 * outside what tool names may hold, and its definition hash is the host's.
 */
export function resourceReadTool(serverId: string): Tool {
  const definition = {
    name: RESOURCE_READ,
    title: 'Read a resource',
    description: `Reads one resource of server "${serverId}" by its URI.`,
    inputSchema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
  return {
    ...definition,
    name: `${serverId}__${RESOURCE_READ}`,
    origin: { kind: 'mcp', serverId, originalName: RESOURCE_READ },
    visibility: ['user'],
    definitionHash: sha256Hex(canonicalJson(definition)),
    run: () => Promise.reject(new HostError('not_supported', 'a resource read is not run as a tool')),
  };
}

/**
 * Decides whether a read may go to its server. The model's read is governed like a tool call: rules of kind
 * `resource`, then the tenant's stored decision (allow always holds for every read of that server), else the surface
 * asks, showing the URI; fails closed. A read the user starts (a form, a chip, the CLI) is allowed unless a resource
 * rule matches it: a deny refuses it, an ask asks. A refused read throws `permission_denied` naming the reason; the
 * decision is audited as a `permission.decision` with the URI's hash as the arguments' hash.
 */
export async function gateRead(
  deps: ReadGateDeps,
  options: { scope: Scope; caller: ReadCaller; serverId: string; uri: string; signal?: AbortSignal },
): Promise<void> {
  const { scope, caller, serverId, uri } = options;
  const tool = resourceReadTool(serverId);
  const target: RuleTarget = { kind: 'resource', serverId, originalName: RESOURCE_READ, hostName: tool.name, uri };
  if (caller === 'user' && evaluateRules(deps.engine.rules, scope, target) === undefined) return;
  const args = { uri };
  const at = deps.now();
  const invocation: InvocationRecord = {
    id: randomUUID(),
    scope,
    caller: { kind: caller },
    tool: tool.name,
    serverId,
    originalName: RESOURCE_READ,
    definitionHash: tool.definitionHash,
    args,
    argsHash: sha256Hex(canonicalJson(args)),
    state: 'pending',
    outcome: null,
    error: null,
    createdAt: at,
    updatedAt: at,
  };
  const context: PreCallContext = { invocation, tool, signal: options.signal ?? new AbortController().signal };
  const verdict: PreCallVerdict = (await deps.engine.gate(context, target)) ?? { allow: true };
  if (verdict.allow) return;
  throw new HostError(
    'permission_denied',
    `the read of resource ${JSON.stringify(uri)} of server "${serverId}" was refused: ${verdict.reason}`,
    { data: { serverId, uriHash: sha256Hex(uri), caller } },
  );
}
