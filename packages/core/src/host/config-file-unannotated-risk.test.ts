import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing/scratch-dir.js';
import { readConfigFile } from './config-file.js';

const dir = scratchDir('airlock-config-risk-');
let n = 0;
function write(text: string): string {
  const file = join(dir, `config-${n++}.json`);
  writeFileSync(file, text);
  return file;
}

describe('permissions.unannotatedRisk in a config file', () => {
  it('reads a risk tier, and leaves it out when the file says nothing', () => {
    const file = write('{ "mcpServers": {}, "permissions": { "unannotatedRisk": "medium" } }');
    expect(readConfigFile(file)).toMatchObject({ unannotatedRisk: 'medium', warnings: [] });
    expect(readConfigFile(write('{ "mcpServers": {} }'))).not.toHaveProperty('unannotatedRisk');
  });

  it('refuses anything else with the file, line and column, and the values it takes', () => {
    const file = write('{\n  "mcpServers": {},\n  "permissions": {\n    "unannotatedRisk": "none"\n  }\n}');
    expect(() => readConfigFile(file)).toThrow(
      `${file}:4:5: permissions.unannotatedRisk must be "low", "medium" or "high", not "none"`,
    );
    const number = write('{ "mcpServers": {}, "permissions": { "unannotatedRisk": 2 } }');
    expect(() => readConfigFile(number)).toThrow(`${number}:1:38: permissions.unannotatedRisk must be`);
  });

  it('suggests the key meant for a misspelt one', () => {
    const file = write('{ "mcpServers": {}, "permissions": { "unannotatedrisk": "low" } }');
    expect(() => readConfigFile(file)).toThrow(
      'unknown key permissions.unannotatedrisk (did you mean "unannotatedRisk"?)',
    );
  });
});
