import { describe, expect, it } from 'vitest';
import { isolationOf, parseServersConfig, serverIdentity } from './server-config.js';

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
    [{ mcpServers: { 'Bad Id': { command: 'x' }, bad_id: { command: 'y' } } }, /"Bad Id".*"bad_id" both get/],
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

describe('isolation and oauth', () => {
  const one = (entry: unknown) => parseServersConfig({ mcpServers: { s: entry } })[0]!;
  it('defaults: stdio shared, HTTP with oauth per user, client credentials and configured headers shared', () => {
    expect(isolationOf(one({ command: 'node' }))).toBe('shared');
    expect(isolationOf(one({ url: 'https://x.example/mcp', oauth: {} }))).toBe('user');
    expect(one({ url: 'https://x.example/mcp', oauth: {} }).oauth).toEqual({ grant: 'authorization_code' });
    const machine = { grant: 'client_credentials', clientId: 'id', clientSecret: 'secret' };
    expect(isolationOf(one({ url: 'https://x.example/mcp', oauth: machine }))).toBe('shared');
    expect(isolationOf(one({ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer t' } }))).toBe('shared');
    // No credentials of its own: shared until the server asks for sign-in (the pool then turns per user).
    expect(isolationOf(one({ url: 'https://x.example/mcp' }))).toBe('auto');
    expect(isolationOf(one({ command: 'node', isolation: 'workspace' }))).toBe('workspace');
  });

  it('names the field at fault', () => {
    expect(() => one({ command: 'node', isolation: 'team' })).toThrow(
      /server "s": isolation must be "shared", "user" or "workspace"/,
    );
    expect(() => one({ command: 'node', oauth: {} })).toThrow(/server "s": oauth applies to HTTP servers/);
    expect(() => one({ url: 'https://x.example/mcp', oauth: { clientID: 'x' } })).toThrow(
      /oauth\.clientID is not a known setting/,
    );
    expect(() => one({ url: 'https://x.example/mcp', oauth: { scopes: 'read' } })).toThrow(/oauth\.scopes must be/);
    expect(() => one({ url: 'https://x.example/mcp', oauth: { grant: 'client_credentials' } })).toThrow(
      /client_credentials needs clientId, and clientSecret or a private key/,
    );
    expect(() => one({ url: 'https://x.example/mcp', oauth: {}, isolation: 'shared' })).toThrow(
      /isolation "shared" cannot be used with oauth/,
    );
    expect(() => one({ url: 'https://x.example/mcp', oauth: {}, isolation: 'workspace' })).toThrow(
      /isolation "workspace" cannot be used with oauth/,
    );
  });
});
