import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findConfigFile, userConfigPath } from './config-sources.js';

const dir = mkdtempSync(join(tmpdir(), 'airlock-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findConfigFile', () => {
  it('takes --config, then AIRLOCK_CONFIG, then ./airlock.config.json, then the XDG user file', () => {
    const xdg = join(dir, 'xdg');
    const cwd = join(dir, 'project');
    mkdirSync(join(xdg, 'airlock'), { recursive: true });
    mkdirSync(cwd);
    const env = { XDG_CONFIG_HOME: xdg, AIRLOCK_CONFIG: '/named.json' };
    expect(findConfigFile({ flag: 'x.json', env, cwd })).toEqual({ path: 'x.json', from: '--config' });
    expect(findConfigFile({ env, cwd })).toEqual({ path: '/named.json', from: 'AIRLOCK_CONFIG' });
    const noName = { XDG_CONFIG_HOME: xdg };
    expect(findConfigFile({ env: noName, cwd })).toBeUndefined();
    writeFileSync(join(xdg, 'airlock', 'config.json'), '{}');
    expect(findConfigFile({ env: noName, cwd })).toEqual({ path: join(xdg, 'airlock', 'config.json'), from: 'user' });
    writeFileSync(join(cwd, 'airlock.config.json'), '{}');
    expect(findConfigFile({ env: noName, cwd })).toEqual({ path: join(cwd, 'airlock.config.json'), from: 'folder' });
  });

  it('puts the user file under ~/.config when XDG_CONFIG_HOME is not set', () => {
    expect(userConfigPath({})).toMatch(/\.config\/airlock\/config\.json$/);
  });
});
