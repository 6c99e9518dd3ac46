import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary.js';
import { CONSOLE_MESSAGES, formatConsoleMessage } from './console-messages.js';
import type { ConsoleMessageKey } from './console-messages.js';

/** The page's words in a language, as the audit view reads them. */
const wordsIn = (locale: 'en-US' | 'pt-BR') => (prefix: string, value: unknown) => {
  const key = `${prefix}${String(value)}`;
  return Object.hasOwn(CONSOLE_MESSAGES['en-US'], key)
    ? formatConsoleMessage(locale, key as ConsoleMessageKey)
    : String(value);
};

const line = (data: Record<string, unknown>, locale: 'en-US' | 'pt-BR' = 'en-US') =>
  auditSummary({ data }, wordsIn(locale));

describe("an audit line's summary", () => {
  it('says a cancelled call was cancelled once, in either language', () => {
    expect(line({ from: 'running', to: 'cancelled', outcome: 'cancelled' })).toBe('running → cancelled');
    expect(line({ from: 'running', to: 'cancelled', outcome: 'cancelled' }, 'pt-BR')).toBe('executando → cancelada');
  });

  it('does not repeat that a call which ended done succeeded', () => {
    expect(line({ from: 'running', to: 'success', outcome: 'success' })).toBe('running → done');
  });

  it('keeps the outcome when it says why the state was reached', () => {
    expect(line({ from: 'running', to: 'cancelled', outcome: 'timeout' })).toBe('running → cancelled · timed out');
    expect(line({ from: 'pending', to: 'error', outcome: 'permission_denied' })).toBe(
      'waiting → error · permission denied',
    );
  });
});
