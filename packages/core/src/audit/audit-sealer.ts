import type { AuditEvent, AuditEventInput } from '../store/audit-record.js';
import { GENESIS_HASH, sealAuditInput } from './audit-chain.js';
import type { SealedAuditInput } from './audit-chain.js';
import { sha256Hex } from './canonical-json.js';

/** What no field holds: a fragment not written yet. */
const NONE: unknown = Symbol('none');

const s = JSON.stringify;

/**
 * Seals audit inputs as `sealAuditInput` does (the same text hashed, the same hash), for a store that seals many in a
 * row. A call's events share their tenant, server, tool, arguments' hash and call, so the pieces of the canonical text
 * those fields make are kept from the event before and written again only when a field differs: most of what sealing
 * an event costs beside its hash. An input whose fields are not plain text, null or finite numbers takes
 * `sealAuditInput`'s own path. One per writer; not shared between threads.
 */
export class AuditSealer {
  #argsHash: unknown = NONE;
  #head = '';
  #conversationId: unknown = NONE;
  #beforeData = '';
  #invocationId: unknown = NONE;
  #beforePrev = '';
  #riskTier: unknown = NONE;
  #beforeSeq = '';
  #serverId: unknown = NONE;
  #tool: unknown = NONE;
  #type: unknown = NONE;
  #userId: unknown = NONE;
  #workspaceId: unknown = NONE;
  #tail = '';

  /** Seals `input` (its own fields only, as stores keep them) as the next event after `prev`, its data's JSON given. */
  seal(input: AuditEventInput, prev: Pick<AuditEvent, 'seq' | 'hash'> | undefined, dataJson: string): SealedAuditInput {
    const seq = (prev?.seq ?? 0) + 1;
    const prevHash = prev?.hash ?? GENESIS_HASH;
    const { argsHash, at, conversationId, invocationId, riskTier, serverId, tool, type, userId, workspaceId } = input;
    if (
      !text(argsHash) ||
      !text(conversationId) ||
      !text(invocationId) ||
      !text(riskTier) ||
      !text(serverId) ||
      !text(tool) ||
      !text(type) ||
      !text(userId) ||
      !text(workspaceId) ||
      !Number.isFinite(at) ||
      !Number.isFinite(seq) ||
      typeof prevHash !== 'string'
    ) {
      return sealAuditInput(input, prev, dataJson);
    }
    if (argsHash !== this.#argsHash) {
      this.#argsHash = argsHash;
      this.#head = `{"argsHash":${s(argsHash)},"at":`;
    }
    if (conversationId !== this.#conversationId) {
      this.#conversationId = conversationId;
      this.#beforeData = `,"conversationId":${s(conversationId)},"data":`;
    }
    if (invocationId !== this.#invocationId) {
      this.#invocationId = invocationId;
      this.#beforePrev = `,"invocationId":${s(invocationId)},"prevHash":`;
    }
    if (riskTier !== this.#riskTier) {
      this.#riskTier = riskTier;
      this.#beforeSeq = `,"riskTier":${s(riskTier)},"seq":`;
    }
    if (
      serverId !== this.#serverId ||
      tool !== this.#tool ||
      type !== this.#type ||
      userId !== this.#userId ||
      workspaceId !== this.#workspaceId
    ) {
      this.#serverId = serverId;
      this.#tool = tool;
      this.#type = type;
      this.#userId = userId;
      this.#workspaceId = workspaceId;
      this.#tail =
        `,"serverId":${s(serverId)},"tool":${s(tool)},"type":${s(type)},"userId":${s(userId)},` +
        `"workspaceId":${s(workspaceId)}}`;
    }
    const sealed =
      this.#head +
      s(at) +
      this.#beforeData +
      dataJson +
      this.#beforePrev +
      s(prevHash) +
      this.#beforeSeq +
      s(seq) +
      this.#tail;
    return { input, dataJson, seq, prevHash, hash: sha256Hex(sealed) };
  }
}

function text(value: unknown): boolean {
  return typeof value === 'string' || value === null;
}
