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

  it('binds identity to the command line or URL, not to secrets in env or headers', () => {
    const [a, b, c] = parseServersConfig({
      mcpServers: {
        a: { command: 'node', args: ['s.js'], env: { TOKEN: '1' } },
        b: { command: 'node', args: ['s.js'], env: { TOKEN: '2' } },
        c: { command: 'node', args: ['other.js'] },
      },
    });
    expect(serverIdentity(a!)).toBe(serverIdentity(b!));
    expect(serverIdentity(a!)).not.toBe(serverIdentity(c!));
  });
});
