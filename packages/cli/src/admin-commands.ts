import type { Host, Scope, StoredDecision } from '@airlock/core';
import { existsSync } from 'node:fs';
import { HostError, readAnchors } from '@airlock/core';
import type { Style } from './cli-style.js';
import { PLAIN } from './cli-style.js';
import { EXIT_CODES } from './exit-codes.js';
import { resolveDecisionId } from './id-prefix.js';

interface Out {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** How stdout is painted (plain when absent). */
  readonly style?: Style;
}

/**
 * `airlock permissions list | revoke ID | revoke --server ID | explain SERVER/TOOL [--args JSON]`; the ID may be the
 * first characters of one.
 */
export async function permissionsCommand(
  host: Host,
  scope: Scope,
  rest: readonly string[],
  values: { server?: string; args?: string; json: boolean },
  io: Out,
): Promise<number> {
  await host.permissions.ready();
  const [action = 'list', target] = rest;
  const style = io.style ?? PLAIN;
  switch (action) {
    case 'list': {
      const decisions = host.permissions.list({ scope });
      if (values.json) io.stdout.write(`${JSON.stringify(decisions, null, 2)}\n`);
      else if (decisions.length === 0) io.stdout.write('no stored decisions in this workspace\n');
      else for (const d of decisions) io.stdout.write(`${describeDecision(d, style)}\n`);
      for (const warning of host.permissions.warnings()) io.stderr.write(`warning: ${warning}\n`);
      return 0;
    }
    case 'revoke': {
      if ((target === undefined) === (values.server === undefined)) {
        throw new HostError('invalid_arguments', 'permissions revoke takes a decision ID or --server ID');
      }
      const count = await host.permissions.revoke({
        scope,
        ...(target === undefined ? {} : { id: resolveDecisionId(host, scope, target) }),
        ...(values.server === undefined ? {} : { serverId: values.server }),
      });
      if (values.json) io.stdout.write(`${JSON.stringify({ revoked: count })}\n`);
      else io.stdout.write(`revoked ${count} decision${count === 1 ? '' : 's'}\n`);
      return 0;
    }
    case 'explain': {
      const [serverId, tool] = (target ?? '').split('/');
      if (serverId === undefined || serverId === '' || tool === undefined || tool === '') {
        throw new HostError('invalid_arguments', 'permissions explain needs SERVER/TOOL, e.g. demo/echo');
      }
      const found = host.tools
        .list({ audience: 'user' })
        .find((t) => t.origin.kind === 'mcp' && t.origin.serverId === serverId && t.origin.originalName === tool);
      if (found === undefined) throw new HostError('tool_not_found', `server "${serverId}" has no tool ${tool}`);
      const args = values.args === undefined ? {} : parseJson(values.args, '--args');
      const explanation = host.permissions.explain({ scope, tool: found.name, args });
      if (values.json) io.stdout.write(`${JSON.stringify(explanation, null, 2)}\n`);
      else {
        const { decision, risk } = explanation;
        io.stdout.write(`${style.state(decision, decision)} (${explanation.source}): ${explanation.reason}\n`);
        io.stdout.write(`${style.risk(`risk ${risk.tier}`, risk.tier)}: ${risk.reasons.join('; ')}\n`);
      }
      return 0;
    }
    default:
      throw new HostError('invalid_arguments', `unknown permissions action ${action}: use list, revoke or explain`);
  }
}

/**
 * `airlock audit [--export [--format seed]] [--verify [--anchor FILE]] [--limit N]` and `airlock audit anchor FILE`:
 * the tenant's events, as text, NDJSON or the seed's schema; verify the chain (and that it reaches every anchor); or
 * append the chain head to an anchor file.
 */
export async function auditCommand(
  host: Host,
  scope: Scope,
  rest: readonly string[],
  values: { export: boolean; verify: boolean; limit?: string; json: boolean; format?: string; anchor?: string },
  io: Out,
): Promise<number> {
  if (rest[0] === 'anchor') {
    const file = rest[1] ?? values.anchor ?? host.audit.anchorFile;
    if (file === undefined) {
      throw new HostError('invalid_arguments', 'audit anchor needs a FILE, or audit.anchorFile in the config');
    }
    const anchor = await host.audit.anchor({ file });
    io.stdout.write(`anchored event ${anchor.seq} (${anchor.hash}) in ${file}\n`);
    return 0;
  }
  if (rest.length > 0) throw new HostError('invalid_arguments', `unknown audit action ${rest[0]}: use anchor`);
  if (values.verify) {
    // --anchor FILE, else the config's audit.anchorFile once something was anchored there.
    const configured = host.audit.anchorFile;
    const anchorPath = values.anchor ?? (configured !== undefined && existsSync(configured) ? configured : undefined);
    const anchors = anchorPath === undefined ? [] : await readAnchors(anchorPath);
    const verdict = await host.audit.verify({ anchors });
    const from =
      verdict.checkpointSeq === null
        ? 'from the first event'
        : `from checkpoint ${verdict.checkpointSeq} (events through ${verdict.startedAfter} pruned)`;
    const checked = anchors.length === 0 ? '' : `, ${anchors.length} anchor${anchors.length === 1 ? '' : 's'} reached`;
    if (verdict.ok) {
      io.stdout.write(`audit chain intact: ${verdict.count} events, ${from}${checked}\n`);
      return 0;
    }
    io.stdout.write(
      `audit chain BROKEN at event ${verdict.seq} (${verdict.count} read, ${from}): ${verdict.problem}\n`,
    );
    return EXIT_CODES.tampered;
  }
  if (values.export) {
    const format = values.format ?? 'ndjson';
    if (format !== 'ndjson' && format !== 'seed') {
      throw new HostError('invalid_arguments', `--format must be ndjson or seed, not ${format}`);
    }
    io.stdout.write(await host.audit.export({ scope, format }));
    return 0;
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit <= 0)
    throw new HostError('invalid_arguments', '--limit must be a positive integer');
  const events = await host.audit.query({ scope, limit: 10_000 });
  const shown = events.slice(-limit);
  if (values.json) io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  else {
    for (const e of shown) {
      const detail = Object.entries(e.data)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ');
      io.stdout.write(
        `#${e.seq} ${new Date(e.at).toISOString()} ${e.type} ${e.tool ?? ''} ${e.riskTier ?? ''} ${detail}\n`,
      );
    }
  }
  return 0;
}

/**
 * `airlock retention [--dry-run]`: removes what the config's `retention` windows, else the defaults (whole results
 * after 7 days, history after 90, audit events after 400, behind a checkpoint), say has aged out, or with `--dry-run`
 * only says what would go. `"retention": null` in the config keeps everything, so nothing goes.
 */
export async function retentionCommand(host: Host, dryRun: boolean, json: boolean, io: Out): Promise<number> {
  const r = await host.retention.sweep({ dryRun });
  if (json) {
    io.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
    return 0;
  }
  const more = r.capped ? ' (at least)' : '';
  const verb = dryRun ? 'would remove' : 'removed';
  io.stdout.write(
    `${verb}${more}: ${r.results} whole result${r.results === 1 ? '' : 's'}, ` +
      `${r.invocations} history row${r.invocations === 1 ? '' : 's'}, ` +
      `${r.auditEvents} audit event${r.auditEvents === 1 ? '' : 's'}, ` +
      `${r.conversations} conversation${r.conversations === 1 ? '' : 's'}, ` +
      `${r.expiredDecisions} expired decision${r.expiredDecisions === 1 ? '' : 's'}\n`,
  );
  return 0;
}

function describeDecision(d: StoredDecision, style: Style): string {
  const expires = d.expiresAt === null ? 'never expires' : `expires ${new Date(d.expiresAt).toISOString()}`;
  const scope = d.argsHash === null ? 'any arguments' : `arguments ${d.argsHash.slice(0, 12)}…`;
  // An allow for one conversation names it (a gateway session's is gateway-<id>; the CLI's own is "cli").
  const grain =
    d.conversationId === undefined ? `${d.effect} always` : `${d.effect} in conversation ${d.conversationId}`;
  const effect = style.state(grain, d.effect);
  return `${style.strong(d.id)}  ${effect}  ${d.serverId}/${d.tool}  ${scope}  ${style.risk(`risk ${d.riskTier}`, d.riskTier)}  ${expires}`;
}

function parseJson(text: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HostError('invalid_arguments', `${flag} is not valid JSON: ${(error as Error).message}`);
  }
}
