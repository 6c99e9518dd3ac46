import { describe, expect, it } from 'vitest';
import { INVOCATION_TRANSITIONS, stateForOutcome, transition } from './invocation-state.js';

describe('the invocation state machine', () => {
  it('allows pending -> running -> success, error or cancelled, and pending -> cancelled', () => {
    expect(transition('pending', 'running')).toBe('running');
    expect(transition('pending', 'cancelled')).toBe('cancelled');
    for (const end of ['success', 'error', 'cancelled'] as const) expect(transition('running', end)).toBe(end);
  });

  it('refuses pending straight to success or error', () => {
    expect(() => transition('pending', 'success')).toThrow(/cannot move from pending to success/);
    expect(() => transition('pending', 'error')).toThrow(/pending to error/);
  });

  it('moves a task call through its statuses while it runs, and ends it from either', () => {
    expect(transition('running', 'working')).toBe('working');
    expect(transition('working', 'input_required')).toBe('input_required');
    expect(transition('input_required', 'working')).toBe('working');
    for (const end of ['success', 'error', 'cancelled'] as const) {
      expect(transition('working', end)).toBe(end);
      expect(transition('input_required', end)).toBe(end);
    }
    expect(() => transition('pending', 'working')).toThrow(/pending to working/);
    expect(() => transition('working', 'running')).toThrow(/working to running/);
  });

  it('leaves no terminal state', () => {
    for (const end of ['success', 'error', 'cancelled'] as const) {
      expect(INVOCATION_TRANSITIONS[end]).toEqual([]);
      expect(() => transition(end, 'running')).toThrow();
    }
  });

  it('maps each outcome to its terminal state', () => {
    expect(stateForOutcome('success')).toBe('success');
    expect(stateForOutcome('tool_error')).toBe('error');
    expect(stateForOutcome('protocol_error')).toBe('error');
    expect(stateForOutcome('transport_error')).toBe('error');
    expect(stateForOutcome('timeout')).toBe('error');
    expect(stateForOutcome('invalid_output')).toBe('error');
    expect(stateForOutcome('cancelled')).toBe('cancelled');
    expect(stateForOutcome('permission_denied')).toBe('cancelled');
  });
});
