import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../scope.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolCaller } from './tool-registry.js';

const caller: ToolCaller = { callTool: () => Promise.reject(new Error('not called here')) };
const ana: Scope = { userId: 'ana', workspaceId: 'w', conversationId: 'c' };
const ben: Scope = { userId: 'ben', workspaceId: 'w', conversationId: 'c' };

function tool(name: string, description = name): McpToolDefinition {
  return { name, description, inputSchema: { type: 'object' } };
}

/** A registry where server "gh" has a connection per user and "fs" one for all. */
function registry(): ToolRegistry {
  return new ToolRegistry({ tenantOf: (serverId, scope) => (serverId === 'gh' ? `user:${scope.userId}` : undefined) });
}

const names = (r: ToolRegistry, scope?: Scope) =>
  r.list({ audience: 'user', ...(scope === undefined ? {} : { scope }) }).map((t) => t.name);

describe("a tenant's own view of a server's tools", () => {
  it("shows a tenant the tools its own connection listed, and everyone else the server's catalog", () => {
    const r = registry();
    r.setServerTools('gh', caller, [tool('issues'), tool('pulls')]);
    r.setServerTools('fs', caller, [tool('read')]);
    r.setServerTools('gh', caller, [tool('issues'), tool('admin')], 'user:ana');
    expect(names(r, ana)).toEqual(['gh__issues', 'gh__admin', 'fs__read']);
    expect(names(r, ben)).toEqual(['gh__issues', 'gh__pulls', 'fs__read']);
    expect(names(r)).toEqual(['gh__issues', 'gh__pulls', 'fs__read']);
  });

  it("resolves a call against the caller's own view: a tool only another user has is not found", () => {
    const r = registry();
    r.setServerTools('gh', caller, [tool('issues')]);
    r.setServerTools('gh', caller, [tool('issues'), tool('admin')], 'user:ana');
    expect(r.resolve('gh__admin', { kind: 'model' }, ana).tool.origin).toMatchObject({ originalName: 'admin' });
    expect(() => r.resolve('gh__admin', { kind: 'model' }, ben)).toThrow(/unknown tool gh__admin/);
  });

  it('keeps the definition each tenant was listed: a changed description is a changed definition hash', () => {
    const r = registry();
    r.setServerTools('gh', caller, [tool('issues', 'List issues')]);
    r.setServerTools('gh', caller, [tool('issues', 'List issues of your org')], 'user:ana');
    expect(r.get('gh__issues', ana)?.definitionHash).not.toBe(r.get('gh__issues', ben)?.definitionHash);
  });

  it("falls back to the catalog once the tenant's own listing is removed, and forgets views with the server", () => {
    const r = registry();
    r.setServerTools('gh', caller, [tool('issues')]);
    r.setServerTools('gh', caller, [tool('admin')], 'user:ana');
    r.removeTenantTools('gh', 'user:ana');
    expect(names(r, ana)).toEqual(['gh__issues']);
    r.setServerTools('gh', caller, [tool('admin')], 'user:ana');
    r.removeServer('gh');
    expect(names(r, ana)).toEqual([]);
  });
});
