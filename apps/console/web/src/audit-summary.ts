import type { AuditEvent } from '@airlock/core';

/** A value of the log in the page's language, by the prefix of its message key (`console.state.`, …). */
export type AuditWord = (prefix: string, value: unknown) => string;

/**
 * One line of what an event says, in words: the decision and who made it, the state a call moved to, the answer.
 * The outcome is left out when the state already says it (a call that ended cancelled was cancelled; one that
 * ended done succeeded): "running → cancelled", not "running → cancelled · cancelled".
 */
export function auditSummary(event: Pick<AuditEvent, 'data'>, word: AuditWord): string {
  const data = event.data;
  const parts: string[] = [];
  if (data['decision'] !== undefined) parts.push(word('console.audit.decision.', data['decision']));
  if (data['origin'] !== undefined) parts.push(word('console.audit.origin.', data['origin']));
  let state: string | undefined;
  if (data['to'] !== undefined) {
    const from =
      data['from'] === null || data['from'] === undefined ? '' : `${word('console.state.', data['from'])} → `;
    state = word('console.state.', data['to']);
    parts.push(`${from}${state}`);
  }
  if (typeof data['outcome'] === 'string') {
    const outcome = word('console.audit.outcome.', data['outcome']);
    if (data['outcome'] !== data['to'] && outcome !== state) parts.push(outcome);
  }
  if (typeof data['action'] === 'string') parts.push(data['action']);
  return parts.join(' · ');
}
