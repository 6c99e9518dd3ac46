import { HostError } from '../errors/host-error.js';
import type { HostEvents } from '../events/host-events.js';
import type { Scope } from '../scope.js';
import { assertScope } from '../scope.js';
import type { Tool } from '../tools/tool.js';
import type { Audience } from '../caller.js';
import type { NativeToolDefinition, ToolRegistry } from '../tools/tool-registry.js';
import type { ToolSwitch, ToolSwitchLevel, ToolSwitches } from '../switches/tool-switches.js';

/** What `host.tools.setHidden` takes. */
export interface ToolHideOptions {
  readonly scope: Scope;
  /** The tool's host name (`server__tool`) as `tools.list` gives it. */
  readonly tool: string;
  /** `user`: for this user in this workspace; `workspace`: for everyone in the workspace. */
  readonly level: ToolSwitchLevel;
  readonly hidden: boolean;
}

/** `host.tools`: what each audience sees, native tools, and the per-tool switches of the model's list. */
export interface HostToolsApi {
  /** With `audience: 'model'` and a scope, the tools switched off for that user or workspace are left out. */
  list(options: { audience: Audience; serverId?: string; scope?: Scope }): Tool[];
  register(definition: NativeToolDefinition): Tool;
  /**
   * Hides a server's tool from the model, or shows it again (VS Code's tool picker): stored, audited
   * (`tool.switched`), then applied to the model's listing and to the model's calls (refused as not listed). The user
   * still sees and may call it. Resolves with false when it was so already.
   */
  setHidden(options: ToolHideOptions): Promise<boolean>;
  /** The tools hidden from the model in the scope's workspace: the user's own switches and the workspace's. */
  switches(options: { scope: Scope }): ToolSwitch[];
}

/** The `host.tools` object over the registry and the switches. */
export function hostToolsApi(registry: ToolRegistry, switches: ToolSwitches, events: HostEvents): HostToolsApi {
  const scoped = (scope: Scope | undefined) => (scope === undefined ? {} : { scope: assertScope(scope) });
  return {
    list: ({ audience, serverId, scope }) =>
      registry.list({ audience, ...(serverId === undefined ? {} : { serverId }), ...scoped(scope) }),
    register: (definition) => {
      const tool = registry.registerNative(definition);
      events.emit('tools.changed', { serverId: null });
      return tool;
    },
    setHidden: async ({ scope, tool, level, hidden }) => {
      const checked = assertScope(scope);
      if (typeof hidden !== 'boolean') throw new HostError('invalid_arguments', 'hidden must be true or false');
      // As this user sees the tool (a server per user may list them tools no one else has).
      const found = registry.resolve(tool, { kind: 'user' }, checked).tool;
      if (found.origin.kind !== 'mcp') {
        throw new HostError(
          'invalid_arguments',
          `tool ${tool} is the application's own: only a server's tool is switched`,
        );
      }
      const { serverId, originalName } = found.origin;
      const changed = await switches.setTool({ scope: checked, serverId, tool: originalName, level, hidden });
      const tenant = level === 'user' ? `user:${checked.userId}` : `workspace:${checked.workspaceId}`;
      if (changed) events.emit('tools.changed', { serverId, tenant });
      return changed;
    },
    switches: ({ scope }) => switches.list(assertScope(scope)),
  };
}
