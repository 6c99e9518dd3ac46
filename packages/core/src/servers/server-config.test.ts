import { describe, expect, it } from 'vitest';
import { parseServersConfig, serverIdentity } from './server-config.js';

describe('parseServersConfig', () => {
  it('reads stdio and HTTP servers from the common mcpServers JSON', () => {
    const servers = parseServersConfig({
      mcpServers: {
        files: { command: 'npx', args: ['-y', 'files-server'], env: { ROOT: '/tmp' }, cwd: '/work' },
        remote: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' }, trusted: true },
      },
    });
    expect(servers).toEqual([
      {
        id: 'files',
        trusted: false,
        disabled: false,
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'files-server'],
        env: { ROOT: '/tmp' },
        cwd: '/work',
      },
      {
        id: 'remote',
        trusted: true,
        disabled: false,
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer x' },
      },
    ]);
  });

  it('accepts the VS Code "servers" key', () => {
    expect(parseServersConfig({ servers: { a: { command: 'a' } } })[0]?.id).toBe('a');
  });

  it.each([
    [{ mcpServers: { s: { args: [] } } }, /server "s": command must be a non-empty string/],
    [{ mcpServers: { s: { command: 'x', args: 'y' } } }, /server "s": args must be an array of strings/],
    [{ mcpServers: { s: { url: 'not a url' } } }, /server "s": url is not a valid URL/],
    [{ mcpServers: { s: { url: 'ftp://x' } } }, /server "s": url must use http or https/],
    [{ mcpServers: { s: { command: 'x', env: { A: 1 } } } }, /server "s": env.A must be a string/],
    [{ mcpServers: { 'bad id!': { command: 'x' } } }, /server "bad id!": id must be/],
    [{ mcpServers: { s: { command: 'x', negotiation: 'new' } } }, /negotiation must be "legacy" or "auto"/],
    [{ mcpServers: [] }, /"mcpServers" must be an object/],
  ])('names the server and the field at fault (%j)', (input, message) => {
    expect(() => parseServersConfig(input)).toThrow(message);
  });

  it('binds identity to everything that makes the server what it is: command line, cwd, env, URL, headers, trust', () => {
    const identity = (entry: Record<string, unknown>) =>
      serverIdentity(parseServersConfig({ mcpServers: { s: entry } })[0]!);
    const stdio = { command: 'node', args: ['s.js'], cwd: '/work', env: { TOKEN: '1', ROOT: '/tmp' } };
    const base = identity(stdio);
    expect(identity({ ...stdio, env: { ROOT: '/tmp', TOKEN: '1' } })).toBe(base);
    for (const changed of [
      { ...stdio, command: 'deno' },
      { ...stdio, args: ['other.js'] },
      { ...stdio, cwd: '/elsewhere' },
      { command: 'node', args: ['s.js'], env: stdio.env },
      { ...stdio, env: { TOKEN: '2', ROOT: '/tmp' } },
      { ...stdio, env: { TOKEN: '1' } },
      { ...stdio, trusted: true },
    ]) {
      expect(identity(changed), JSON.stringify(changed)).not.toBe(base);
    }
    const http = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer secret-1' } };
    const remote = identity(http);
    expect(identity({ ...http, headers: { authorization: 'Bearer secret-1' } })).toBe(remote);
    for (const changed of [
      { ...http, url: 'https://mcp.example.com/other' },
      { ...http, headers: { Authorization: 'Bearer secret-2' } },
      { ...http, headers: { 'X-Api-Key': 'Bearer secret-1' } },
      { ...http, headers: {} },
      { ...http, trusted: true },
    ]) {
      expect(identity(changed), JSON.stringify(changed)).not.toBe(remote);
    }
    expect(remote).toMatch(/^[0-9a-f]{64}$/);
    expect(remote).not.toContain('secret');
  });
});
