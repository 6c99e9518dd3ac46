import type { Caller } from '../caller.js';
import { HostError } from '../errors/host-error.js';

const CALLERS =
  "{ kind: 'model' } for the model's tool calls, { kind: 'user' } for the person, or { kind: 'app', serverId }";

/**
 * Checks `invoke`'s `caller` (who makes the call decides which tools it may see): a missing or malformed one is a
 * programmer's error, thrown as `invalid_options` with the shapes it may take, not a TypeError from deep in the path.
 */
export function assertCaller(value: unknown): Caller {
  if (typeof value !== 'object' || value === null) {
    throw new HostError('invalid_options', `invoke needs a caller: ${CALLERS} for an MCP App view`, {
      data: { field: 'caller' },
    });
  }
  const { kind, serverId } = value as { kind?: unknown; serverId?: unknown };
  if (kind === 'model' || kind === 'user') return value as Caller;
  if (kind === 'app' && typeof serverId === 'string' && serverId !== '') return value as Caller;
  const what =
    kind === 'app'
      ? 'an app caller needs the serverId of its view'
      : `caller.kind ${JSON.stringify(kind)} is none of model, user or app`;
  throw new HostError('invalid_options', `${what}: pass ${CALLERS} for an MCP App view`, { data: { field: 'caller' } });
}
