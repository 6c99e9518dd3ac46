import picomatch from 'picomatch';
import jsonc from 'jsonc-parser';
import type { Node as JsonNode, ParseError } from 'jsonc-parser';
import { RULE_KEYS } from '../config/config-definition.js';
import { nearestKey } from '../config/nearest-key.js';
import { HostError } from '../errors/host-error.js';
import type { Scope } from '../scope.js';
import type { RiskTier } from '../store/decision-record.js';
import { lineColumn } from '../config/json-position.js';

/** What a rule does to a call it matches. */
export type RuleEffect = 'allow' | 'deny' | 'ask';

/** What a rule governs: tool calls (the default), or resource reads. */
export type RuleKind = 'tool' | 'resource';

/** Whose rule it is. Host rules outrank workspace rules, which outrank a user's own. */
export type RuleLayer = 'host' | 'workspace' | 'user';

const LAYER_RANK: Record<RuleLayer, number> = { host: 3, workspace: 2, user: 1 };
const EFFECT_RANK: Record<RuleEffect, number> = { deny: 3, ask: 2, allow: 1 };

/**
 * A host permission rule. `server` and `tool` are globs over the server id and the tool's own name; `name` is a glob
 * over the host tool name (`demo__*`). A workspace rule applies in `workspaceId` only; a user rule to `userId` only.
 * A rule of kind `resource` governs resource reads instead of tool calls, matched by `server` and `uri` (a glob over
 * the URI read); a rule without a kind governs tool calls only, so a rule written for tools never changes reads.
 */
export interface PermissionRule {
  readonly effect: RuleEffect;
  readonly layer: RuleLayer;
  /** Absent: `tool`. */
  readonly kind?: RuleKind;
  readonly server?: string;
  /** A glob over the URI of a resource read; a `resource` rule only. */
  readonly uri?: string;
  readonly tool?: string;
  readonly name?: string;
  readonly workspaceId?: string;
  readonly userId?: string;
  /** Overrides the derived risk of the tools it matches. */
  readonly risk?: RiskTier;
  /** Where the rule was written, for `explain` and load-time reports. */
  readonly source: string;
}

/** What rules say about one call. */
export interface RuleVerdict {
  readonly effect: RuleEffect;
  readonly rule: PermissionRule;
  readonly reason: string;
}

/** The call (or read) as rules see it. */
export interface RuleTarget {
  /** Absent: a tool call. */
  readonly kind?: RuleKind;
  readonly serverId: string | null;
  readonly originalName: string;
  readonly hostName: string;
  /** The URI a resource read asks for. */
  readonly uri?: string;
}

const KEYS = new Set(Object.keys(RULE_KEYS));

/**
 * Reads rules from a JSON file's text: `{ "rules": [ ... ] }` or a bare array. Every problem is a `config_invalid`
 * error naming the file, line, column and field.
 */
export function parseRulesText(text: string, file: string, path: readonly string[] = ['rules']): PermissionRule[] {
  const errors: ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { allowTrailingComma: true }); // as airlock.config.json: comments allowed
  const where = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${file}:${line}:${column}`;
  };
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    throw new HostError(
      'config_invalid',
      `${where(first?.offset ?? 0)}: not valid JSON (${first === undefined ? 'empty document' : jsonc.printParseErrorCode(first.error)})`,
      {
        data: { file },
      },
    );
  }
  const list = root.type === 'array' ? root : jsonc.findNodeAtLocation(root, [...path]);
  if (list === undefined && root.type === 'object' && path.length > 1) return [];
  if (list?.type !== 'array') {
    throw new HostError(
      'config_invalid',
      `${where(list?.offset ?? root.offset)}: expected ${path.join('.')} to be an array of rules`,
      {
        data: { file },
      },
    );
  }
  return (list.children ?? []).map((node, index) => parseRuleNode(node, index, where));
}

/** Checks rules given as objects (from code or a parsed config), naming the rule and field at fault. */
export function parseRules(input: unknown, source = 'rules'): PermissionRule[] {
  return parseRulesText(JSON.stringify({ rules: input ?? [] }, null, 1), source);
}

function parseRuleNode(node: JsonNode, index: number, where: (offset: number) => string): PermissionRule {
  const path = `rules[${index}]`;
  const fail = (at: JsonNode, field: string, problem: string): never => {
    throw new HostError('config_invalid', `${where(at.offset)}: ${path}${field === '' ? '' : `.${field}`} ${problem}`, {
      data: { rule: index, field },
    });
  };
  if (node.type !== 'object') return fail(node, '', 'must be an object');
  const fields: Record<string, { value: unknown; node: JsonNode }> = {};
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode === undefined || valueNode === undefined) continue;
    const key = String(keyNode.value);
    if (!KEYS.has(key)) {
      const meant = nearestKey(key, [...KEYS]);
      fail(
        keyNode,
        key,
        `is not a rule field (${meant === undefined ? '' : `did you mean "${meant}"? `}use ${[...KEYS].join(', ')})`,
      );
    }
    fields[key] = { value: jsonValue(valueNode), node: valueNode };
  }
  const string = (key: string): string | undefined => {
    const f = fields[key];
    if (f === undefined) return undefined;
    if (typeof f.value !== 'string' || f.value === '') return fail(f.node, key, 'must be a non-empty string');
    return f.value;
  };
  const effect = string('effect');
  if (effect === undefined) return fail(node, 'effect', 'is required ("allow", "deny" or "ask")');
  if (effect !== 'allow' && effect !== 'deny' && effect !== 'ask') {
    return fail(fields['effect']!.node, 'effect', 'must be "allow", "deny" or "ask"');
  }
  const layer = string('layer') ?? 'host';
  if (layer !== 'host' && layer !== 'workspace' && layer !== 'user') {
    return fail(fields['layer']!.node, 'layer', 'must be "host", "workspace" or "user"');
  }
  const kindText = string('kind');
  if (kindText !== undefined && kindText !== 'tool' && kindText !== 'resource') {
    return fail(fields['kind']!.node, 'kind', 'must be "tool" or "resource"');
  }
  const kind: RuleKind | undefined = kindText;
  if (kind === 'resource') {
    for (const key of ['tool', 'name', 'risk'] as const) {
      if (fields[key] !== undefined)
        fail(fields[key].node, key, 'does not apply to a resource rule (match reads by server and uri)');
    }
  } else if (fields['uri'] !== undefined) {
    fail(fields['uri'].node, 'uri', 'applies to a resource rule only (add "kind": "resource")');
  }
  const riskText = string('risk');
  const risk: RiskTier | undefined =
    riskText === 'low' || riskText === 'medium' || riskText === 'high' ? riskText : undefined;
  if (riskText !== undefined && risk === undefined) {
    return fail(fields['risk']!.node, 'risk', 'must be "low", "medium" or "high"');
  }
  const rule: PermissionRule = {
    effect,
    layer,
    source: `${where(node.offset)} (${path})`,
    ...optionalField('kind', kind),
    ...optionalField('server', string('server')),
    ...optionalField('uri', string('uri')),
    ...optionalField('tool', string('tool')),
    ...optionalField('name', string('name')),
    ...optionalField('workspaceId', string('workspaceId')),
    ...optionalField('userId', string('userId')),
    ...optionalField('risk', risk),
  };
  if (layer === 'workspace' && rule.workspaceId === undefined)
    fail(node, 'workspaceId', 'is required for a workspace rule');
  if (layer === 'user' && rule.userId === undefined) fail(node, 'userId', 'is required for a user rule');
  if (rule.server === undefined && rule.tool === undefined && rule.name === undefined && rule.uri === undefined) {
    fail(
      node,
      'server',
      `or ${kind === 'resource' ? 'uri' : 'tool or name'} is required: a rule must say what it matches`,
    );
  }
  return rule;
}

/** True when a rule applies to this tenant and this call. */
export function ruleMatches(
  rule: PermissionRule,
  scope: Pick<Scope, 'userId' | 'workspaceId'>,
  target: RuleTarget,
): boolean {
  if (rule.workspaceId !== undefined && rule.workspaceId !== scope.workspaceId) return false;
  if (rule.userId !== undefined && rule.userId !== scope.userId) return false;
  if ((rule.kind ?? 'tool') !== (target.kind ?? 'tool')) return false;
  if (rule.uri !== undefined && (target.uri === undefined || !glob(rule.uri)(target.uri))) return false;
  if (rule.server !== undefined && (target.serverId === null || !glob(rule.server)(target.serverId))) return false;
  if (rule.tool !== undefined && !glob(rule.tool)(target.originalName)) return false;
  if (rule.name !== undefined && !glob(rule.name)(target.hostName)) return false;
  return true;
}

/**
 * The rules' verdict, or undefined when none matches. Deny first: a matching deny at any layer wins. Otherwise the
 * highest layer with a matching rule decides, and within a layer ask outranks allow.
 */
export function evaluateRules(
  rules: readonly PermissionRule[],
  scope: Pick<Scope, 'userId' | 'workspaceId'>,
  target: RuleTarget,
): RuleVerdict | undefined {
  let best: PermissionRule | undefined;
  for (const rule of rules) {
    if (!ruleMatches(rule, scope, target)) continue;
    if (best === undefined || outranks(rule, best)) best = rule;
  }
  if (best === undefined) return undefined;
  return { effect: best.effect, rule: best, reason: `${best.layer} rule ${best.source}: ${best.effect}` };
}

function outranks(a: PermissionRule, b: PermissionRule): boolean {
  if (a.effect === 'deny' || b.effect === 'deny') return EFFECT_RANK[a.effect] > EFFECT_RANK[b.effect];
  if (LAYER_RANK[a.layer] !== LAYER_RANK[b.layer]) return LAYER_RANK[a.layer] > LAYER_RANK[b.layer];
  return EFFECT_RANK[a.effect] > EFFECT_RANK[b.effect];
}

/**
 * Rules that can never match, worded for a person: a server that is not configured, or (once its tools are known)
 * a tool pattern that matches none of that server's tools.
 */
export function unmatchableRules(
  rules: readonly PermissionRule[],
  servers: ReadonlyMap<string, readonly string[] | undefined>,
): string[] {
  const problems: string[] = [];
  for (const rule of rules) {
    const serverIds = [...servers.keys()].filter((id) => rule.server === undefined || glob(rule.server)(id));
    if (rule.server !== undefined && serverIds.length === 0) {
      problems.push(
        `rule ${rule.source} names server "${rule.server}", which matches no configured server: it can never match`,
      );
      continue;
    }
    if (rule.tool === undefined) continue;
    const known = serverIds.map((id) => servers.get(id));
    if (known.some((tools) => tools === undefined)) continue; // a server's tools are not listed yet
    const matches = known.some((tools) => tools!.some((name) => glob(rule.tool!)(name)));
    if (!matches) {
      problems.push(
        `rule ${rule.source} names tool "${rule.tool}", which matches no tool of ${serverIds.map((id) => `"${id}"`).join(', ') || 'any server'}: it can never match`,
      );
    }
  }
  return problems;
}

const globs = new Map<string, (value: string) => boolean>();
function glob(pattern: string): (value: string) => boolean {
  let matcher = globs.get(pattern);
  if (matcher === undefined) {
    matcher = picomatch(pattern, { dot: true });
    globs.set(pattern, matcher);
  }
  return matcher;
}

function jsonValue(node: JsonNode): unknown {
  return node.type === 'object' || node.type === 'array' ? { complex: true } : node.value;
}

function optionalField<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
