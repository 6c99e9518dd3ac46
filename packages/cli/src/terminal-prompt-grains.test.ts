import type { PermissionRequest } from '@airlock/core';
import { describe, expect, it } from 'vitest';
import { permissionPromptText } from './terminal-surface.js';

const REQUEST: PermissionRequest = {
  invocationId: 'i1',
  scope: { userId: 'ana', workspaceId: 'w1', conversationId: 'cli' },
  caller: { kind: 'model' },
  tool: { name: 'demo__delete_note', displayName: 'Delete note', originalName: 'delete_note' },
  server: { id: 'demo', trusted: true },
  args: { id: 'n1' },
  argsHash: 'h1',
  risk: { tier: 'high', destructive: true, unverified: false, reasons: [] },
  allowAlways: { offered: false, reason: 'allow always is not offered for tools that may modify or delete data' },
  allowConversation: { offered: true },
  defaultAction: 'deny_once',
  renewal: false,
};

const actionsLine = (text: string) =>
  text
    .split('\n')
    .find((line) => line.includes('[1]'))
    ?.trim();

describe('the terminal prompt offers the five grains', () => {
  it('numbers allow for this conversation 5, after the seed’s four, and offers it where allow always is refused', () => {
    expect(actionsLine(permissionPromptText(REQUEST, 'en-US'))).toMatch(
      /^\[1\] Allow once\s+\(2\) —\s+\[3\] Deny once ←\s+\[4\] Deny always\s+\[5\] Allow for this conversation$/,
    );
    expect(permissionPromptText(REQUEST, 'pt-BR')).toContain('[5] Permitir nesta conversa');
    expect(permissionPromptText(REQUEST, 'en-US')).toContain('Choose 1-5 (Esc denies once)');
  });

  it('shows it struck out where the request does not offer it', () => {
    const native = { ...REQUEST, allowConversation: { offered: false, reason: 'native tools are asked each time' } };
    expect(actionsLine(permissionPromptText(native, 'en-US'))).toMatch(/\[4\] Deny always\s+\(5\) —$/);
  });

  it("says a tool without annotations was rated by the host's policy when it is not the worst case", () => {
    const rated = { ...REQUEST, risk: { ...REQUEST.risk, tier: 'medium' as const, destructive: false } };
    expect(permissionPromptText(rated, 'en-US')).toContain(
      "No annotations: rated by this host's policy for trusted servers",
    );
    expect(permissionPromptText(REQUEST, 'en-US')).toContain('No annotations: treated as the worst case');
  });

  it('says the server rated the risk when its own claim set the tier, in both languages', () => {
    const rated = {
      ...REQUEST,
      risk: { ...REQUEST.risk, tier: 'low' as const, destructive: false, ratedBy: 'server' as const },
    };
    const text = permissionPromptText(rated, 'en-US');
    expect(text).toContain('Risk rated by the server itself');
    expect(text).not.toContain('No annotations');
    expect(permissionPromptText(rated, 'pt-BR')).toContain('Risco avaliado pelo próprio servidor');
    expect(permissionPromptText(REQUEST, 'en-US')).not.toContain('rated by the server');
  });
});
