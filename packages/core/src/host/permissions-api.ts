import { hashJson } from '../audit/canonical-json.js';
import type { PermissionExplanation } from '../permissions/explain-permission.js';
import type { PermissionEngine } from '../permissions/permission-engine.js';
import type { PermissionRule } from '../permissions/permission-rules.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { StoredDecision } from '../store/decision-record.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/** `host.permissions`: the stored decisions per tenant, the rules, and why a call would be decided as it would. */
export interface HostPermissionsApi {
  /** Resolves when stored decisions are loaded; calls before that are asked, never silently decided. */
  ready(): Promise<void>;
  /** Stores allow_always, deny_always (optionally for these exact arguments only) or allow_conversation (in the scope's conversation). */
  decide(options: { scope: Scope; tool: string; decision: unknown; args?: unknown }): Promise<StoredDecision>;
  list(options: { scope: Scope }): StoredDecision[];
  revoke(options: { scope: Scope; id?: string; serverId?: string }): Promise<number>;
  setExpiry(options: { scope: Scope; id: string; expiresAt: number | null }): Promise<StoredDecision>;
  /** Which rule or stored decision would decide this call now, and why. Asks no one. */
  explain(options: { scope: Scope; tool: string; args?: unknown }): PermissionExplanation;
  rules(): readonly PermissionRule[];
  /** Rules that can never match (an unknown server, a tool pattern matching no tool): reported, not ignored. */
  warnings(): readonly string[];
}

/** The `host.permissions` object over the engine; a tool is resolved as the user sees it (a server per user may list them tools no one else has). */
export function hostPermissionsApi(deps: {
  engine: PermissionEngine;
  registry: ToolRegistry;
  rules: readonly PermissionRule[];
  warnings: () => readonly string[];
}): HostPermissionsApi {
  const { engine, registry } = deps;
  const toolFor = (tool: string, scope: Scope) => registry.resolve(tool, { kind: 'user' }, scope).tool;
  return {
    ready: () => engine.synced,
    decide: async ({ scope, tool, decision, args }) => {
      const checked = assertScope(scope);
      return engine.decide({
        scope: checked,
        tool: toolFor(tool, checked),
        decision,
        argsHash: args === undefined ? null : hashJson(args),
      });
    },
    list: ({ scope }) => engine.stored.list(assertScope(scope)),
    revoke: ({ scope, id, serverId }) =>
      engine.stored.revoke({
        scope: assertScope(scope),
        ...(id === undefined ? {} : { id }),
        ...(serverId === undefined ? {} : { serverId }),
      }),
    setExpiry: ({ scope, id, expiresAt }) => engine.stored.setExpiry({ scope: assertScope(scope), id, expiresAt }),
    explain: ({ scope, tool, args }) => {
      const checked = assertScope(scope);
      return engine.explain({ scope: checked, tool: toolFor(tool, checked), argsHash: hashJson(args ?? {}) });
    },
    rules: () => deps.rules,
    warnings: deps.warnings,
  };
}
