import type { PermissionRequest } from '@airlock/core';
import { buildFormModel } from '@airlock/core';
import { describe, expect, it } from 'vitest';
import { formSchema } from './form-schema.js';
import { decisionOf, permissionQuestion } from './permission-question.js';

function request(overrides: Partial<PermissionRequest> = {}): PermissionRequest {
  return {
    invocationId: 'call-1',
    scope: { userId: 'ada', workspaceId: 'default', conversationId: 'gateway-1' },
    caller: { kind: 'model' },
    tool: { name: 'files__delete', displayName: 'Delete file', originalName: 'delete' },
    server: { id: 'files', trusted: false },
    args: { path: '/tmp/x' },
    argsHash: 'h',
    risk: { tier: 'high', destructive: true, unverified: true, reasons: ['may delete data'] },
    allowAlways: { offered: false, reason: 'allow always is not offered for tools that may modify or delete data' },
    allowConversation: { offered: true },
    defaultAction: 'deny_once',
    renewal: false,
    reason: 'definition_changed',
    ...overrides,
  };
}

describe('the permission question asked of the MCP client', () => {
  it('names the tool, its server, the risk, why it asks and the arguments', () => {
    const { message } = permissionQuestion(request());
    expect(message).toContain('Delete file (files__delete) on server "files" (untrusted)');
    expect(message).toContain('Risk: high (may delete data)');
    expect(message).toContain("Asked because the tool's description, schema or annotations changed");
    expect(message).toContain('"path": "/tmp/x"');
  });

  it('offers allow always only where the engine allows it, with the default action pre-filled', () => {
    const destructive = permissionQuestion(request()).requestedSchema.properties['decision'];
    expect(destructive).toMatchObject({ default: 'deny_once' });
    expect((destructive as { oneOf: { const: string }[] }).oneOf.map((o) => o.const)).toEqual([
      'allow_once',
      'allow_conversation',
      'deny_once',
      'deny_always',
    ]);
    const safe = permissionQuestion(request({ allowAlways: { offered: true }, defaultAction: 'allow_once' }));
    const grains = (safe.requestedSchema.properties['decision'] as { oneOf: { const: string }[] }).oneOf;
    expect(grains.map((o) => o.const)).toContain('allow_always');
  });

  it('offers allow for this session (the gateway session is the conversation) only where the engine keeps it', () => {
    const offered = permissionQuestion(request()).requestedSchema.properties['decision'] as {
      oneOf: { const: string; title: string }[];
    };
    expect(offered.oneOf).toContainEqual({ const: 'allow_conversation', title: 'Allow for this session' });
    const answer = { action: 'accept' as const, content: { decision: 'allow_conversation' } };
    expect(decisionOf(answer, request())).toBe('allow_conversation');
    const native = request({ allowConversation: { offered: false, reason: 'native tools are asked each time' } });
    expect(() => decisionOf(answer, native)).toThrow(/not one of the offered decisions/);
  });

  it('is a form the host itself accepts as an MCP form', () => {
    expect(buildFormModel(permissionQuestion(request()).requestedSchema).ok).toBe(true);
  });

  it('reads a decline as deny once, and refuses a dismissal or a grain that was not offered', () => {
    expect(decisionOf({ action: 'decline' }, request())).toBe('deny_once');
    expect(decisionOf({ action: 'accept', content: { decision: 'allow_once' } }, request())).toBe('allow_once');
    expect(() => decisionOf({ action: 'cancel' }, request())).toThrow(/dismissed/);
    expect(() => decisionOf({ action: 'accept', content: { decision: 'allow_always' } }, request())).toThrow(
      /not one of the offered decisions/,
    );
  });
});

describe("a server's form passed on to the client", () => {
  it('comes back as the same form once read by the host', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', minLength: 1, maxLength: 40 },
        email: { type: 'string', format: 'email', description: 'Where to write' },
        age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
        agree: { type: 'boolean' },
        color: {
          type: 'string',
          oneOf: [
            { const: 'r', title: 'Red' },
            { const: 'g', title: 'Green' },
          ],
        },
        tags: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1 },
      },
      required: ['name', 'agree'],
    };
    const first = buildFormModel(schema);
    if (!first.ok) throw new Error(first.reason);
    const again = buildFormModel(formSchema(first.model));
    expect(again).toEqual(first);
  });
});
