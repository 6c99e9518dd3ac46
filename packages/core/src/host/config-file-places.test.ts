import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConfigVariables } from '../config/config-variables.js';
import { readConfigFile } from './config-file.js';

const dir = mkdtempSync(join(tmpdir(), 'airlock-places-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function write(text: string, name = `config-${n++}.json`): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}
const variables: ConfigVariables = {
  env: { KEY: 'k3y' },
  userHome: '/home/ana',
  workspaceFolder: dir,
  pathSeparator: '/',
};
const read = (file: string) => readConfigFile(file, { variables });

describe('a VS Code-style config', () => {
  it('expands variables in command, args, env, cwd, url and headers', () => {
    const file = write(`{
  "servers": {
    "local": {
      "command": "\${userHome}/bin/server",
      "args": ["--root", "\${workspaceFolder}\${pathSeparator}data", "\${LEVEL:-info}"],
      "env": { "KEY": "\${env:KEY}", "ALSO": "\${KEY}" },
      "cwd": "\${workspaceFolder}"
    },
    "remote": { "url": "https://\${HOST:-mcp.example}/mcp", "headers": { "Authorization": "Bearer \${KEY}" } }
  }
}`);
    expect(read(file).servers).toMatchObject([
      {
        command: '/home/ana/bin/server',
        args: ['--root', `${dir}/data`, 'info'],
        env: { KEY: 'k3y', ALSO: 'k3y' },
        cwd: dir,
      },
      { url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer k3y' } },
    ]);
  });

  it('names file, line, column and the variable of one it cannot expand', () => {
    const file = write('{\n  "servers": {\n    "s": { "command": "x", "env": { "T": "Bearer ${env:NOPE}" } }\n  }\n}');
    expect(() => read(file)).toThrow(`${file}:3:50: server "s": env.T: \${env:NOPE} names NOPE, which is not set`);
  });

  it('reads envFile relative to the config, its own env winning, and names a missing one', () => {
    write('A=from-file\n# a comment\nB="two words"\n', 'server.env');
    const file = write('{ "servers": { "s": { "command": "x", "envFile": "server.env", "env": { "A": "own" } } } }');
    expect(read(file).servers[0]).toMatchObject({ env: { A: 'own', B: 'two words' } });
    const missing = write('{ "servers": {\n "s": { "command": "x", "envFile": "nope.env" } } }');
    expect(() => read(missing)).toThrow(`${missing}:2:25: server "s": envFile names ${join(dir, 'nope.env')}`);
  });

  it('accepts any server name, keeps it for display and ids tools by its slug', () => {
    const file = write(
      '{ "mcpServers": { "Brave Search": { "command": "x" }, "io.github.acme/files": { "command": "y" } } }',
    );
    expect(read(file).servers).toMatchObject([
      { id: 'brave_search', name: 'Brave Search' },
      { id: 'io_github_acme_files', name: 'io.github.acme/files' },
    ]);
  });

  it('refuses two names with one slug, naming both with their places', () => {
    const file = write(
      '{ "mcpServers": {\n  "Brave Search": { "command": "x" },\n  "brave_search": { "command": "y" } } }',
    );
    expect(() => read(file)).toThrow(
      `${file}:3:3: servers "Brave Search" (${file}:2:3) and "brave_search" both get the id "brave_search": rename one`,
    );
  });

  it('places type errors and points common mistakes at the fix', () => {
    const typed = write('{ "mcpServers": {\n  "s": { "command": "x", "env": { "TOKEN": 42 } } } }');
    expect(() => read(typed)).toThrow(`${typed}:2:35: server "s": env.TOKEN must be a string`);
    const windsurf = write('{ "mcpServers": {\n  "s": { "serverUrl": "https://x.example/mcp" } } }');
    expect(() => read(windsurf)).toThrow(
      `${windsurf}:2:10: server "s": serverUrl is not read by Airlock: rename it to "url"`,
    );
    const spaces = write('{ "mcpServers": {\n  "s": { "command": "node server.js --port 1" } } }');
    expect(() => read(spaces)).toThrow(`split it: "command": "node", "args": ["server.js","--port","1"]`);
  });

  it('refuses a type that contradicts the entry, at the type', () => {
    const stdio = write('{ "servers": {\n  "s": { "type": "stdio", "url": "https://x.example/mcp" } } }');
    expect(() => read(stdio)).toThrow(`${stdio}:2:10: server "s": type "stdio" contradicts url`);
    const sse = write('{ "servers": {\n  "s": { "type": "sse", "command": "x" } } }');
    expect(() => read(sse)).toThrow(`${sse}:2:10: server "s": type "sse" needs a url`);
    const http = write(
      '{ "servers": { "a": { "type": "sse", "url": "http://h/sse" }, "b": { "type": "http", "url": "http://h/mcp" } } }',
    );
    expect(read(http).servers).toMatchObject([{ httpTransport: 'sse' }, { httpTransport: 'streamable' }]);
  });

  it('keeps ${input:ID} for the start, with the declared input, and refuses an undeclared one at its place', () => {
    const file = write(`{
  "inputs": [{ "type": "promptString", "id": "api-key", "description": "API key", "password": true }],
  "servers": { "s": { "command": "x", "env": { "KEY": "\${input:api-key}" } }, "t": { "command": "y" } }
}`);
    const [s, t] = read(file).servers;
    expect(s).toMatchObject({
      env: { KEY: '${input:api-key}' },
      inputs: { source: file, declared: [{ id: 'api-key', type: 'promptString', password: true }] },
    });
    expect(t?.inputs).toBeUndefined();
    const undeclared = write('{ "servers": {\n  "s": { "command": "x", "args": ["${input:nope}"] } } }');
    expect(() => read(undeclared)).toThrow(
      `${undeclared}:2:36: server "s": args[0]: \${input:nope} names input "nope", which "inputs" does not declare`,
    );
    const badInput = write('{ "inputs": [\n  { "type": "command", "id": "x" }], "servers": {} }');
    expect(() => read(badInput)).toThrow(`${badInput}:2:5: inputs[0].type must be "promptString" or "pickString"`);
  });
});
