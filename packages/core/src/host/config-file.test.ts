import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import jsonc from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../config/config-definition.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { readConfigFile } from './config-file.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const dir = scratchDir('airlock-config-');
let n = 0;
function write(text: string): string {
  const file = join(dir, `config-${n++}.json`);
  writeFileSync(file, text);
  return file;
}

describe('readConfigFile', () => {
  it('loads comments and trailing commas, as VS Code writes mcp.json', () => {
    const file = write(`{
  // the demo server
  "mcpServers": {
    "demo": { "command": "node", "args": ["bin.js",], /* trusted? */ "trusted": true, },
  },
  "permissions": { "rules": [{ "effect": "allow", "server": "demo", "tool": "echo" },], },
}`);
    const config = readConfigFile(file);
    expect(config.servers).toMatchObject([{ id: 'demo', command: 'node', args: ['bin.js'], trusted: true }]);
    expect(config.rules).toHaveLength(1);
    expect(config.warnings).toEqual([]);
  });

  it('names the file, line and column of a syntax error and what was expected', () => {
    const file = write('{\n  "mcpServers": {\n    "demo": { "command": "node" "args": [] }\n  }\n}');
    expect(() => readConfigFile(file)).toThrow(`${file}:3:33: not valid JSON: expected "," between entries`);
  });

  it('suggests the key meant for a misspelt one, with its path, line and column', () => {
    const file = write('{\n  "mcpServers": {\n    "demo": { "comand": "node" }\n  }\n}');
    expect(() => readConfigFile(file)).toThrow(
      `${file}:3:15: unknown key mcpServers.demo.comand (did you mean "command"?)`,
    );
    const top = write('{ "mcpServers": {}, "permisions": { "rules": [] } }');
    expect(() => readConfigFile(top)).toThrow('unknown key permisions (did you mean "permissions"?)');
    const nested = write('{ "mcpServers": {}, "permissions": { "expirydays": {} } }');
    expect(() => readConfigFile(nested)).toThrow('unknown key permissions.expirydays (did you mean "expiryDays"?)');
    const rule = write('{ "mcpServers": {}, "permissions": { "rules": [{ "efect": "allow" }] } }');
    expect(() => readConfigFile(rule)).toThrow('rules[0].efect is not a rule field (did you mean "effect"?');
    const bare = write('{ "mcpServer": { "demo": { "command": "node" } } }');
    expect(() => readConfigFile(bare)).toThrow('unknown key mcpServer (did you mean "mcpServers"?)');
    // The settings sections and a server's oauth, from the same definition as the schema.
    const limits = write('{ "mcpServers": {}, "limits": { "timeoutMS": 5 } }');
    expect(() => readConfigFile(limits)).toThrow('unknown key limits.timeoutMS (did you mean "timeoutMs"?)');
    const console = write('{ "mcpServers": {}, "console": { "prt": 7410 } }');
    expect(() => readConfigFile(console)).toThrow('unknown key console.prt (did you mean "port"?)');
    const oauth = write('{ "mcpServers": { "r": { "url": "https://r.example/mcp", "oauth": { "clientID": "x" } } } }');
    expect(() => readConfigFile(oauth)).toThrow('unknown key mcpServers.r.oauth.clientID (did you mean "clientId"?)');
  });

  it("warns about, and ignores, other hosts' keys it does not read (a description)", () => {
    const file = write('{ "servers": { "demo": { "type": "stdio", "command": "node", "description": "x" } } }');
    const config = readConfigFile(file);
    expect(config.servers).toMatchObject([{ id: 'demo', command: 'node' }]);
    expect(config.warnings).toEqual([`${file}:1:62: servers.demo.description is not a key Airlock knows; ignored`]);
  });

  it('loads the example config without warnings', () => {
    expect(readConfigFile(join(root, 'airlock.config.example.json')).warnings).toEqual([]);
  });
});

describe('the config JSON Schema', () => {
  it('is what the definition generates (regenerate: node scripts/write-config-schema.js after tsc -b)', () => {
    const shipped = readFileSync(join(root, 'packages/core/schema/airlock.config.schema.json'), 'utf8');
    expect(JSON.parse(shipped)).toEqual(configJsonSchema());
  });

  it('validates the example config, and rejects a wrong type', () => {
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const validate = addFormats(new Ajv2020({ strict: false })).compile(configJsonSchema());
    const example = jsonc.parse(readFileSync(join(root, 'airlock.config.example.json'), 'utf8')) as unknown;
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    // The example points editors at the shipped schema, by the path it has once @airlock/core is installed.
    const reference = (example as { $schema: string }).$schema;
    expect(reference).toBe('./node_modules/@airlock/core/schema/airlock.config.schema.json');
    expect(JSON.parse(readFileSync(join(root, reference), 'utf8'))).toEqual(configJsonSchema());
    expect(validate({ mcpServers: { demo: { command: 'node', args: 'bin.js' } } })).toBe(false);
  });
});
