import type { PermissionRequest } from '@airlock/core';
import { describe, expect, it } from 'vitest';
import { permissionPromptText } from './terminal-surface.js';

const REQUEST: PermissionRequest = {
  invocationId: 'i1',
  scope: { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' },
  caller: { kind: 'model' },
  tool: { name: 'demo__echo', displayName: 'Echo', originalName: 'echo', annotations: { readOnlyHint: true } },
  server: { id: 'demo', trusted: false },
  args: { text: 'hi' },
  argsHash: 'h1',
  risk: { tier: 'medium', destructive: false, unverified: true, reasons: [] },
  allowAlways: { offered: true },
  allowConversation: { offered: true },
  defaultAction: 'allow_once',
  renewal: false,
  reason: 'server_changed',
};

const linesOf = (text: string) => text.split('\n').map((line) => line.trim());

describe('the terminal prompt says why it asks', () => {
  it('puts the reason on the line under the title, in the terminal locale', () => {
    const en = linesOf(permissionPromptText(REQUEST, 'en-US'));
    expect(en.slice(1, 3)).toEqual([
      'Allow this tool to run?',
      "This server's setup changed since you last decided (command, address, environment, headers or trust).",
    ]);
    const pt = linesOf(permissionPromptText({ ...REQUEST, reason: 'decision_expired' }, 'pt-BR'));
    expect(pt.slice(1, 3)).toEqual([
      'Permitir execução desta ferramenta?',
      'Seu "Permitir sempre" anterior expirou: renove ou escolha de novo.',
    ]);
  });

  it('names the allow for one conversation when that is the one that expired', () => {
    const expired = { ...REQUEST, reason: 'decision_expired', expiredGrain: 'conversation' } as const;
    expect(linesOf(permissionPromptText(expired, 'en-US'))[2]).toBe(
      'Your earlier "Allow for this conversation" has expired: renew it or choose again.',
    );
    expect(linesOf(permissionPromptText(expired, 'pt-BR'))[2]).toBe(
      'Seu "Permitir nesta conversa" anterior expirou: renove ou escolha de novo.',
    );
  });

  it('adds no line for a request without a reason', () => {
    const withoutReason: PermissionRequest = { ...REQUEST };
    delete (withoutReason as { reason?: unknown }).reason;
    const lines = linesOf(permissionPromptText(withoutReason, 'en-US'));
    expect(lines[1]).toBe('Allow this tool to run?');
    expect(lines[2]).toMatch(/^Echo \(echo\) · From demo/);
  });
});
