import { HostError } from '../errors/host-error.js';

/**
 * A switch turned off, as a store keeps it: a row exists only while something is off, and turning it on again deletes
 * the row. Three shapes, told by which fields are empty:
 * - a server switched off for everyone by an administrator: `userId`, `workspaceId` and `tool` are '';
 * - a tool hidden from the model for a whole workspace: `userId` is '';
 * - a tool hidden from the model for one user in one workspace: every field is set.
 * A tool is named as its server lists it (`tool`, the original name) under the configured server id, so a switch
 * outlives a change of the server's command line or of the tool's description.
 */
export interface SwitchRecord {
  readonly userId: string;
  readonly workspaceId: string;
  readonly serverId: string;
  readonly tool: string;
  /** When it was turned off, in milliseconds. */
  readonly updatedAt: number;
  /** The user who turned it off. */
  readonly updatedBy: string;
}

/** What names one switch: its four key fields. */
export type SwitchKey = Pick<SwitchRecord, 'userId' | 'workspaceId' | 'serverId' | 'tool'>;

/** What kind of switch a key names (see {@link SwitchRecord}). */
export type SwitchLevel = 'server' | 'workspace' | 'user';

function invalid(message: string): HostError {
  return new HostError('invalid_arguments', message);
}

function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`a switch's ${field} must be a string, not ${typeof value}`);
  if (value.length > 256) throw invalid(`a switch's ${field} is longer than 256 characters`);
  return value;
}

/** The level of a key; refused as `invalid_arguments` when its fields make none of the three shapes. */
export function switchLevel(key: SwitchKey): SwitchLevel {
  if (key.serverId === '') throw invalid('a switch needs its serverId');
  if (key.tool === '') {
    if (key.userId !== '' || key.workspaceId !== '') {
      throw invalid('a server is switched off for everyone: its switch has no userId or workspaceId');
    }
    return 'server';
  }
  if (key.workspaceId === '') throw invalid("a tool's switch needs the workspaceId it applies in");
  return key.userId === '' ? 'workspace' : 'user';
}

/** The key exactly as a store keeps it, refused as `invalid_arguments` when it is not one. */
export function storedSwitchKey(key: SwitchKey): SwitchKey {
  if (typeof key !== 'object' || key === null) throw invalid('a switch key must be an object');
  const stored = {
    userId: text(key.userId, 'userId'),
    workspaceId: text(key.workspaceId, 'workspaceId'),
    serverId: text(key.serverId, 'serverId'),
    tool: text(key.tool, 'tool'),
  };
  switchLevel(stored);
  return stored;
}

/** The record exactly as a store keeps it, refused as `invalid_arguments` when it could not be kept faithfully. */
export function storedSwitch(record: SwitchRecord): SwitchRecord {
  if (typeof record !== 'object' || record === null) throw invalid('a switch must be an object');
  const key = storedSwitchKey(record);
  if (typeof record.updatedAt !== 'number' || !Number.isFinite(record.updatedAt)) {
    throw invalid("a switch's updatedAt must be a time in milliseconds");
  }
  return { ...key, updatedAt: record.updatedAt, updatedBy: text(record.updatedBy, 'updatedBy') };
}

/** One text for a key, for maps: the four fields in order. */
export function switchKeyText(key: SwitchKey): string {
  return JSON.stringify([key.userId, key.workspaceId, key.serverId, key.tool]);
}
