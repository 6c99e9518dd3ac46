import type { ElicitationAnswer, ElicitationRequest } from '@airlock/core';

/**
 * Whether a closed question goes on as a URL flow: the user accepted a URL question that the server named (its
 * `serverElicitationId`), so the page keeps showing "done, retry" until the server says the flow has finished. The
 * server (which keeps such flows for a tab that opens later) and the page (which shows them as they close) both
 * ask this one function, so they cannot disagree about which questions stay open.
 */
export function isAcceptedUrlFlow(request: ElicitationRequest, action: ElicitationAnswer['action']): boolean {
  return request.mode === 'url' && action === 'accept' && request.serverElicitationId !== undefined;
}
