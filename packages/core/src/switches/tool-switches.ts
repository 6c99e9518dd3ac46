import type { AuditEventInput } from '../store/audit-record.js';
import { HostError } from '../errors/host-error.js';
import type { HistoryWriter } from '../history/history-writer.js';
import type { Scope } from '../scope.js';
import type { HostStore } from '../store/host-store.js';
import { switchKeyText } from '../store/switches.js';
import type { SwitchKey, SwitchRecord } from '../store/switches.js';
import type { RegistrySwitches } from '../tools/tool-registry.js';
import { namespacedToolName } from '../tools/tool-name.js';
import type { Tool } from '../tools/tool.js';

/** Who a tool is hidden from the model for: this user in this workspace, or everyone in the workspace. */
export type ToolSwitchLevel = 'user' | 'workspace';

/** A tool hidden from the model, as a tenant sees its switches. */
export interface ToolSwitch {
  readonly serverId: string;
  /** The tool's name as its server lists it. */
  readonly tool: string;
  readonly level: ToolSwitchLevel;
  readonly updatedAt: number;
  readonly updatedBy: string;
}

/**
 * The host's switches, kept in the store and held in memory: servers an administrator switched off (not started,
 * their tools not listed, a call naming one refused with the server's name) and tools hidden from the model for one
 * user in a workspace or for the whole workspace (VS Code's tool picker): such a tool is not in
 * `tools.list({ audience: 'model' })` and a model's call to it is refused as not listed; the user still sees it and
 * may still call it from a form. Every change is audited (`server.switched`, `tool.switched`) in the same write.
 *
 * Loaded at start (servers start after, so a server switched off never starts), and read again by `reload` when a
 * store several hosts share says another host changed a switch.
 */
export class ToolSwitches implements RegistrySwitches {
  readonly #rows = new Map<string, SwitchRecord>();
  readonly #writes: HistoryWriter;
  readonly #now: () => number;
  readonly #store: HostStore;
  /** The reload running, and whether another must follow it (news came while it read). */
  #reloading: Promise<void> | undefined;
  /** The change or read running now; the next waits for it. */
  #turn: Promise<unknown> = Promise.resolve();
  #again = false;
  /** Resolves with the servers switched off once the store was read (none when it could not be). */
  readonly loaded: Promise<ReadonlySet<string>>;

  constructor(options: {
    readonly store: HostStore;
    readonly writes: HistoryWriter;
    readonly now: () => number;
    readonly onError: (error: unknown) => void;
  }) {
    this.#writes = options.writes;
    this.#now = options.now;
    this.#store = options.store;
    this.loaded = options.store.listSwitches().then(
      (rows) => {
        for (const row of rows) this.#rows.set(switchKeyText(row), row);
        return new Set(rows.filter((row) => row.tool === '').map((row) => row.serverId));
      },
      (error: unknown) => {
        options.onError(error);
        return new Set<string>();
      },
    );
  }

  /**
   * Reads the switches again, after the first load, and tells `changed` of each that differs from memory (`off`:
   * turned off). News that comes while a read runs makes one more read follow it, so the last change is never missed.
   */
  reload(changed: (row: SwitchRecord, off: boolean) => void): Promise<void> {
    if (this.#reloading !== undefined) {
      this.#again = true;
      return this.#reloading;
    }
    this.#reloading = (async () => {
      await this.loaded;
      do {
        this.#again = false;
        await this.#inTurn(async () => {
          const rows = await this.#store.listSwitches();
          const now = new Map(rows.map((row) => [switchKeyText(row), row]));
          for (const [key, row] of this.#rows) {
            if (now.has(key)) continue;
            this.#rows.delete(key);
            changed(row, false);
          }
          for (const [key, row] of now) {
            if (this.#rows.has(key)) continue;
            this.#rows.set(key, row);
            changed(row, true);
          }
        });
      } while (this.#again);
    })().finally(() => {
      this.#reloading = undefined;
    });
    return this.#reloading;
  }

  /** True when an administrator switched the server off here. */
  serverOff(serverId: string): boolean {
    return this.#rows.has(switchKeyText({ userId: '', workspaceId: '', serverId, tool: '' }));
  }

  /** The level a tool is hidden from the model at in the scope's workspace, if it is. */
  levelOf(scope: Pick<Scope, 'userId' | 'workspaceId'>, serverId: string, tool: string): ToolSwitchLevel | undefined {
    const key = { workspaceId: scope.workspaceId, serverId, tool };
    if (this.#rows.has(switchKeyText({ ...key, userId: scope.userId }))) return 'user';
    if (this.#rows.has(switchKeyText({ ...key, userId: '' }))) return 'workspace';
    return undefined;
  }

  hidden(tool: Tool, scope: Scope | undefined): string | undefined {
    if (scope === undefined || tool.origin.kind !== 'mcp' || this.#rows.size === 0) return undefined;
    const level = this.levelOf(scope, tool.origin.serverId, tool.origin.originalName);
    if (level === undefined) return undefined;
    const whom = level === 'user' ? 'you' : `workspace "${scope.workspaceId}"`;
    return `tool ${tool.name} is not listed to the model: it was switched off for ${whom}`;
  }

  unknown(name: string): string | undefined {
    for (const row of this.#rows.values()) {
      if (row.tool !== '' || !name.startsWith(`${row.serverId}__`)) continue;
      return `tool ${name} is not available: server "${row.serverId}" is switched off by an administrator`;
    }
    return undefined;
  }

  /** The tools hidden from the model for this user or their workspace, in the scope's workspace. */
  list(scope: Pick<Scope, 'userId' | 'workspaceId'>): ToolSwitch[] {
    return [...this.#rows.values()]
      .filter((r) => r.tool !== '' && r.workspaceId === scope.workspaceId)
      .filter((r) => r.userId === '' || r.userId === scope.userId)
      .map((r) => ({
        serverId: r.serverId,
        tool: r.tool,
        level: r.userId === '' ? ('workspace' as const) : ('user' as const),
        updatedAt: r.updatedAt,
        updatedBy: r.updatedBy,
      }));
  }

  /**
   * Hides a tool from the model (`hidden` true) or shows it again, for the user (in this workspace) or the whole
   * workspace; stored and audited before it returns. Showing what is not hidden changes nothing and writes nothing.
   */
  async setTool(options: {
    readonly scope: Scope;
    readonly serverId: string;
    readonly tool: string;
    readonly level: ToolSwitchLevel;
    readonly hidden: boolean;
  }): Promise<boolean> {
    const { scope, serverId, tool, level, hidden } = options;
    if (level !== 'user' && level !== 'workspace') {
      throw new HostError('invalid_arguments', `a tool is hidden for "user" or "workspace", not ${String(level)}`);
    }
    const key: SwitchKey = {
      userId: level === 'user' ? scope.userId : '',
      workspaceId: scope.workspaceId,
      serverId,
      tool,
    };
    const audit = this.#audit('tool.switched', scope, serverId, namespacedToolName(serverId, tool), { hidden, level });
    return this.#set(key, hidden, scope.userId, audit);
  }

  /** Switches a server off (`enabled` false) or on again for everyone: stored and audited. */
  async setServer(options: { readonly serverId: string; readonly enabled: boolean; readonly by: string }) {
    const key: SwitchKey = { userId: '', workspaceId: '', serverId: options.serverId, tool: '' };
    const who = { userId: options.by, workspaceId: '', conversationId: '' };
    const audit = this.#audit('server.switched', who, options.serverId, null, { enabled: options.enabled });
    return this.#set(key, !options.enabled, options.by, audit);
  }

  #set(key: SwitchKey, off: boolean, by: string, audit: AuditEventInput): Promise<boolean> {
    return this.#inTurn(async () => {
      const text = switchKeyText(key);
      if (this.#rows.has(text) === off) return false;
      const record: SwitchRecord = { ...key, updatedAt: this.#now(), updatedBy: by };
      await this.#writes.commit(off ? { kind: 'switch.put', record, audit } : { kind: 'switch.delete', key, audit });
      if (off) this.#rows.set(text, record);
      else this.#rows.delete(text);
      return true;
    });
  }

  /**
   * Runs a change or a read again after the ones before it: a read that began before a change here committed could
   * otherwise land after it and undo it in memory.
   */
  #inTurn<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(step);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  #audit(
    type: 'tool.switched' | 'server.switched',
    scope: Pick<Scope, 'userId' | 'workspaceId'>,
    serverId: string,
    tool: string | null,
    data: Record<string, unknown>,
  ): AuditEventInput {
    return {
      type,
      at: this.#now(),
      userId: scope.userId,
      workspaceId: scope.workspaceId,
      conversationId: null,
      serverId,
      tool,
      argsHash: null,
      riskTier: null,
      invocationId: null,
      data,
    };
  }
}
