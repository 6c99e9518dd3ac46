import { describe, expect, it } from 'vitest';
import type { Tool } from '../tools/tool.js';
import type { RiskAssessment } from './risk.js';
import { decisionToStore } from './decision-to-store.js';

const mcp = {
  name: 'demo__delete_note',
  origin: { kind: 'mcp', serverId: 'demo', originalName: 'delete_note' },
} as Tool;
const native = { name: 'clock', origin: { kind: 'native' } } as Tool;
const risk = (destructive: boolean) => (): RiskAssessment => ({
  tier: 'high',
  destructive,
  unverified: false,
  reasons: [],
});

describe('decisionToStore', () => {
  it('keeps allow always and deny always for an MCP tool', () => {
    expect(decisionToStore({ decision: 'allow_always', tool: mcp, risk: risk(false) })).toBe('allow_always');
    expect(decisionToStore({ decision: 'deny_always', tool: mcp, risk: risk(true) })).toBe('deny_always');
  });

  it('refuses what is not a decision, naming the ones there are', () => {
    expect(() => decisionToStore({ decision: 'allow_forever', tool: mcp, risk: risk(false) })).toThrow(
      'unknown decision "allow_forever": use allow_once, allow_conversation, allow_always, deny_once, deny_always',
    );
  });

  it('keeps allow for this conversation, destructive tools included, for any arguments only', () => {
    expect(decisionToStore({ decision: 'allow_conversation', tool: mcp, risk: risk(true) })).toBe('allow_conversation');
    expect(() =>
      decisionToStore({ decision: 'allow_conversation', tool: mcp, risk: risk(false), argsHash: 'h1' }),
    ).toThrow(/allow_conversation holds for any arguments/);
    expect(() => decisionToStore({ decision: 'allow_conversation', tool: native, risk: risk(false) })).toThrow(
      /clock is native/,
    );
  });

  it('refuses decisions that apply to one call only', () => {
    expect(() => decisionToStore({ decision: 'allow_once', tool: mcp, risk: risk(false) })).toThrow(
      /allow_once applies to one call/,
    );
  });

  it('refuses to store a decision for a native tool, which is asked each time', () => {
    const unasked = () => {
      throw new Error('the risk of a refused tool was worked out');
    };
    expect(() => decisionToStore({ decision: 'deny_always', tool: native, risk: unasked })).toThrow(
      /decisions are stored for MCP tools; clock is native/,
    );
  });

  it('refuses allow always for a tool that may modify or delete data', () => {
    expect(() => decisionToStore({ decision: 'allow_always', tool: mcp, risk: risk(true) })).toThrow(
      expect.objectContaining({ code: 'invalid_arguments', message: expect.stringMatching(/only a host rule/) }),
    );
  });
});
