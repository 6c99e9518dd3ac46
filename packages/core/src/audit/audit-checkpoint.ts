import { HostError } from '../errors/host-error.js';
import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import { auditEvent } from './audit-event-builder.js';

/**
 * The tenant of the log's own upkeep events (checkpoints, retention sweeps): no user's, so no tenant's query or
 * export shows them; an operator's (`all`) export and `verify` do.
 */
export const SYSTEM_TENANT = { userId: 'airlock:system', workspaceId: 'airlock:system' } as const;

/** What a checkpoint event's data holds: the last pruned event's number and hash, and how many events went. */
export interface CheckpointData {
  readonly throughSeq: number;
  readonly throughHash: string;
  readonly pruned: number;
}

/**
 * The checkpoint event a prune appends: it carries the hash of the last event it deletes, so `verify` can start from
 * there (the first kept event links to that hash), and the checkpoint itself is chained, so its claim cannot be
 * edited without breaking the chain.
 */
export function checkpointInput(
  through: Pick<AuditEvent, 'seq' | 'hash'>,
  pruned: number,
  at: number,
): AuditEventInput {
  return auditEvent({
    type: 'audit.checkpoint',
    at,
    scope: SYSTEM_TENANT,
    data: { throughSeq: through.seq, throughHash: through.hash, pruned },
  });
}

/** A checkpoint event's data, checked; refused as `invalid_arguments` naming the field at fault. */
export function checkpointData(input: Pick<AuditEventInput, 'type' | 'data'>): CheckpointData {
  if (input.type !== 'audit.checkpoint') {
    throw new HostError(
      'invalid_arguments',
      `a prune's checkpoint must be an audit.checkpoint event, not ${input.type}`,
    );
  }
  const { throughSeq, throughHash, pruned } = input.data;
  if (typeof throughSeq !== 'number' || !Number.isInteger(throughSeq) || throughSeq < 1) {
    throw new HostError(
      'invalid_arguments',
      `a checkpoint's throughSeq must be an integer >= 1, not ${String(throughSeq)}`,
    );
  }
  if (typeof throughHash !== 'string' || !/^[0-9a-f]{64}$/.test(throughHash)) {
    throw new HostError('invalid_arguments', "a checkpoint's throughHash must be a sha256 in hex");
  }
  if (typeof pruned !== 'number' || !Number.isInteger(pruned) || pruned < 1) {
    throw new HostError('invalid_arguments', `a checkpoint's pruned must be an integer >= 1, not ${String(pruned)}`);
  }
  return { throughSeq, throughHash, pruned };
}

/**
 * Checks a prune against what the store holds, before it changes anything: event `throughSeq` must be there with the
 * checkpoint's hash, and the events it deletes must number exactly what the checkpoint says.
 */
export function checkPrune(
  throughSeq: number,
  data: CheckpointData,
  through: Pick<AuditEvent, 'seq' | 'hash'> | undefined,
  deleting: number,
): void {
  if (data.throughSeq !== throughSeq) {
    throw new HostError('invalid_arguments', `the checkpoint names event ${data.throughSeq}, the prune ${throughSeq}`);
  }
  if (through === undefined || through.hash !== data.throughHash) {
    throw new HostError(
      'invalid_arguments',
      `the checkpoint's hash is not the hash of audit event ${throughSeq} (${through === undefined ? 'absent' : 'different'})`,
      { data: { throughSeq } },
    );
  }
  if (deleting !== data.pruned) {
    throw new HostError(
      'invalid_arguments',
      `the checkpoint says ${data.pruned} events are pruned, but ${deleting} are at or before event ${throughSeq}`,
      { data: { throughSeq } },
    );
  }
}
