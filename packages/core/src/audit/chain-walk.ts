import type { AuditAnchor } from './audit-anchor.js';
import type { CheckpointData } from './audit-checkpoint.js';
import { checkpointData } from './audit-checkpoint.js';
import type { AuditVerification } from './audit-chain.js';
import type { AuditEvent } from '../store/audit-record.js';
import { verifyChain } from './audit-chain.js';

/**
 * The latest checkpoint of the chain and its own number, or undefined when the chain was never pruned. A checkpoint
 * whose data is not a checkpoint's (an edited one) is not started from: the walk then starts at genesis and reports
 * the break, rather than verify throwing.
 */
export async function findCheckpoint(
  checkpoints: AsyncIterable<AuditEvent[]>,
): Promise<(CheckpointData & { readonly seq: number }) | undefined> {
  let latest: AuditEvent | undefined;
  for await (const page of checkpoints) latest = page.at(-1) ?? latest;
  if (latest === undefined) return undefined;
  try {
    return { ...checkpointData(latest), seq: latest.seq };
  } catch {
    return undefined;
  }
}

/** A walk's verdict, and the hash found at each anchored seq the walk passed. */
export interface ChainWalk {
  readonly verdict: AuditVerification;
  readonly seen: ReadonlyMap<number, string>;
}

/**
 * Verifies pages of events in order, starting after `start` (a checkpoint's last pruned event) or at genesis, and
 * notes the hash of each event an anchor names.
 */
export async function walkChain(
  pages: AsyncIterable<AuditEvent[]>,
  start: Pick<AuditEvent, 'seq' | 'hash'> | undefined,
  anchors: readonly AuditAnchor[],
): Promise<ChainWalk> {
  const wanted = new Set(anchors.map((a) => a.seq));
  const seen = new Map<number, string>();
  let state: AuditVerification | undefined;
  for await (const page of pages) {
    if (state !== undefined && !state.ok) break;
    const prev = state === undefined ? start : { seq: state.lastSeq, hash: state.lastHash };
    state = verifyChain(page, prev === undefined ? undefined : { prev, count: state?.count ?? 0 });
    if (wanted.size > 0) for (const event of page) if (wanted.has(event.seq)) seen.set(event.seq, event.hash);
  }
  state ??= verifyChain([], start === undefined ? undefined : { prev: start, count: 0 });
  return { verdict: state, seen };
}

/**
 * Checks that an intact chain still reaches every anchor: the anchored event is there with the anchored hash, or the
 * latest checkpoint pruned it (and, for the checkpoint's own last event, carries the same hash). An anchor past the
 * chain's end means its newest events were deleted.
 */
export function checkAnchors(
  walk: ChainWalk,
  anchors: readonly AuditAnchor[],
  checkpoint: CheckpointData | undefined,
): AuditVerification {
  const verdict = walk.verdict;
  if (!verdict.ok) return verdict;
  const prunedThrough = checkpoint?.throughSeq ?? 0;
  for (const anchor of anchors) {
    const at = new Date(anchor.at).toISOString();
    if (anchor.seq === 0) continue;
    if (anchor.seq < prunedThrough) continue;
    if (anchor.seq === prunedThrough) {
      if (checkpoint?.throughHash === anchor.hash) continue;
      return broken(
        verdict,
        anchor.seq,
        `the checkpoint's hash of event ${anchor.seq} is not the one anchored at ${at}`,
      );
    }
    if (anchor.seq > verdict.lastSeq) {
      return broken(
        verdict,
        anchor.seq,
        `the chain ends at event ${verdict.lastSeq}, but event ${anchor.seq} was anchored at ${at}: the newest events were removed`,
      );
    }
    if (walk.seen.get(anchor.seq) !== anchor.hash) {
      return broken(
        verdict,
        anchor.seq,
        `event ${anchor.seq} does not have the hash anchored at ${at}: the chain was rewritten`,
      );
    }
  }
  return verdict;
}

function broken(verdict: AuditVerification, seq: number, problem: string): AuditVerification {
  return { ok: false, count: verdict.count, seq, problem };
}
