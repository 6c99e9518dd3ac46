import { describe, expect, it } from 'vitest';
import { evaluateRules, parseRules, parseRulesText, unmatchableRules } from './permission-rules.js';

const scope = { userId: 'ana', workspaceId: 'w1' };
const echo = { serverId: 'demo', originalName: 'echo', hostName: 'demo__echo' };

describe('permission rules', () => {
  it('reports a syntax error with file, line and column', () => {
    const text = '{\n  "rules": [\n    { "effect": "allow", "server": "demo" }\n    { "effect": "deny" }\n  ]\n}\n';
    expect(() => parseRulesText(text, 'rules.json')).toThrow(/^rules.json:4:5: not valid JSON \(CommaExpected\)$/);
  });

  it('names the line and field of a bad value', () => {
    const text =
      '{\n  "rules": [\n    { "effect": "allow", "server": "demo" },\n    { "effect": "maybe", "tool": "x" }\n  ]\n}';
    expect(() => parseRulesText(text, 'rules.json')).toThrow(
      'rules.json:4:17: rules[1].effect must be "allow", "deny" or "ask"',
    );
    expect(() => parseRulesText('{"rules":[{"effect":"allow","srever":"demo"}]}', 'r.json')).toThrow(
      /r.json:1:29: rules\[0\].srever is not a rule field/,
    );
    expect(() => parseRulesText('{"rules":[{"effect":"allow"}]}', 'r.json')).toThrow(
      /rules\[0\].server or tool or name is required/,
    );
    expect(() => parseRulesText('{"rules":[{"effect":"allow","layer":"workspace","server":"a"}]}', 'r.json')).toThrow(
      /workspaceId is required for a workspace rule/,
    );
  });

  it('reads rules nested in a config file, with line numbers of that file', () => {
    const text =
      '{\n  "mcpServers": {},\n  "permissions": {\n    "rules": [\n      { "effect": "nope", "server": "x" }\n    ]\n  }\n}';
    expect(() => parseRulesText(text, 'airlock.config.json', ['permissions', 'rules'])).toThrow(
      /^airlock.config.json:5:19: rules\[0\].effect/,
    );
  });

  it('matches globs over the host tool name, the server and the tool', () => {
    const rules = parseRules([{ effect: 'allow', name: 'demo__*' }]);
    expect(evaluateRules(rules, scope, echo)?.effect).toBe('allow');
    expect(evaluateRules(rules, scope, { ...echo, serverId: 'other', hostName: 'other__echo' })).toBeUndefined();
    const byTool = parseRules([{ effect: 'deny', server: 'demo', tool: 'delete_*' }]);
    expect(
      evaluateRules(byTool, scope, { serverId: 'demo', originalName: 'delete_note', hostName: 'demo__delete_note' })
        ?.effect,
    ).toBe('deny');
    expect(evaluateRules(byTool, scope, echo)).toBeUndefined();
  });

  it('lets a deny win at any layer, then the higher layer, then ask over allow', () => {
    const rules = parseRules([
      { effect: 'allow', layer: 'host', server: 'demo' },
      { effect: 'deny', layer: 'user', userId: 'ana', tool: 'echo' },
    ]);
    expect(evaluateRules(rules, scope, echo)?.effect).toBe('deny');
    expect(evaluateRules(rules, { ...scope, userId: 'bob' }, echo)?.effect).toBe('allow');

    const layered = parseRules([
      { effect: 'ask', layer: 'user', userId: 'ana', server: 'demo' },
      { effect: 'allow', layer: 'workspace', workspaceId: 'w1', server: 'demo' },
    ]);
    expect(evaluateRules(layered, scope, echo)?.effect).toBe('allow');
    expect(evaluateRules(layered, { ...scope, workspaceId: 'w2' }, echo)?.effect).toBe('ask');

    const sameLayer = parseRules([
      { effect: 'allow', server: 'demo' },
      { effect: 'ask', tool: 'echo' },
    ]);
    expect(evaluateRules(sameLayer, scope, echo)?.effect).toBe('ask');
  });

  it('reports rules that can never match', () => {
    const rules = parseRules([
      { effect: 'allow', server: 'demmo' },
      { effect: 'deny', server: 'demo', tool: 'delte_note' },
      { effect: 'allow', server: 'demo', tool: 'echo' },
    ]);
    const problems = unmatchableRules(rules, new Map([['demo', ['echo', 'delete_note']]]));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/names server "demmo", which matches no configured server: it can never match/);
    expect(problems[1]).toMatch(/names tool "delte_note", which matches no tool of "demo"/);
    expect(unmatchableRules(rules.slice(1), new Map([['demo', undefined]]))).toEqual([]);
  });
});
