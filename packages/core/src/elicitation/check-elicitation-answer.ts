import type { ElicitationAnswer, ElicitationRequest } from './elicitation-request.js';
import { validateFormAnswer } from './form-validation.js';

/** An answer that may be sent, or the problems with it by field (`''` for the answer as a whole). */
export type CheckedAnswer = { ok: true; answer: ElicitationAnswer } | { ok: false; errors: Record<string, string> };

/**
 * Checks an answer before anything is sent to the server, whoever gave it (a surface, or `respond` from an API): a
 * known action, and for an accepted form, content that fits the schema exactly. The SDK checks none of this, and a
 * surface is untrusted input too.
 */
export function checkElicitationAnswer(options: {
  request: ElicitationRequest;
  /** The form schema as the server sent it, for the final validation. */
  schema: unknown;
  answer: unknown;
}): CheckedAnswer {
  const a = options.answer as { action?: unknown; content?: unknown; reason?: unknown } | null;
  if (a === null || typeof a !== 'object')
    return { ok: false, errors: { '': 'the answer must be an object with an action' } };
  if (a.action === 'cancel') return { ok: true, answer: { action: 'cancel' } };
  if (a.action === 'decline') {
    return { ok: true, answer: { action: 'decline', ...(typeof a.reason === 'string' ? { reason: a.reason } : {}) } };
  }
  if (a.action !== 'accept')
    return { ok: false, errors: { '': `unknown action ${JSON.stringify(a.action)}: use accept, decline or cancel` } };
  const form = options.request.form;
  if (form === undefined) return { ok: true, answer: { action: 'accept' } };
  const verdict = validateFormAnswer(form.model, options.schema, a.content ?? {});
  return verdict.ok
    ? { ok: true, answer: { action: 'accept', content: verdict.content } }
    : { ok: false, errors: verdict.errors };
}
