import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, TOP_LEVEL_KEYS } from './config-definition.js';

// The settings sections of the JSON Schema describe every key the readers take, so an editor completes them and
// flags a misspelt one, and a value out of range, before the host refuses the file.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const validate = addFormats(new Ajv2020({ strict: false })).compile(configJsonSchema());
const SECTIONS = ['limits', 'console', 'model', 'retention', 'audit'] as const;

describe('the settings sections of the config schema', () => {
  it('describe each key, and no key outside them', () => {
    for (const name of SECTIONS) {
      const section = TOP_LEVEL_KEYS[name] as { properties?: Record<string, { description?: string }> };
      expect(section['additionalProperties' as keyof typeof section], name).toBe(false);
      expect(Object.keys(section.properties ?? {}).length, name).toBeGreaterThan(1);
      for (const [key, schema] of Object.entries(section.properties ?? {})) {
        expect(schema.description, `${name}.${key}`).toMatch(/\S/);
      }
    }
  });

  it('accept every setting as the readers take it', () => {
    const config = {
      limits: {
        timeoutMs: 30_000,
        maxTotalMs: 120_000,
        modelChars: 10_000,
        modelMedia: true,
        reconnectAttempts: 0,
        commitIntervalMs: 0,
        tools: { demo__slow_task: { timeoutMs: 5_000, elicitationTimeoutMs: 60_000 } },
      },
      console: {
        port: 0,
        host: '0.0.0.0',
        auth: 'token',
        users: [{ id: 'ana@example', tokenSha256: 'a'.repeat(64) }],
        allowedHosts: ['airlock.internal:7410'],
      },
      model: { baseURL: 'http://localhost:11434/v1', model: 'llama3.1', apiKeyEnv: 'OLLAMA_KEY' },
      retention: { results: 1, history: null, audit: 400, workspaces: { team: { history: 30 } }, batch: 500 },
      audit: { anchorFile: '/var/lib/airlock-anchors.ndjson', anchorEveryMs: 3_600_000 },
    };
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ retention: null })).toBe(true);
  });

  it.each([
    ['a misspelt limit', { limits: { timeotMs: 1000 } }],
    ['a per-tool limit that is not one', { limits: { tools: { demo__echo: { port: 1 } } } }],
    ['a negative timeout', { limits: { timeoutMs: -1 } }],
    ['an unknown sign-in mode', { console: { auth: 'password' } }],
    ['a port out of range', { console: { port: 70_000 } }],
    ['a token in clear instead of its sha256', { console: { users: [{ id: 'ana', tokenSha256: 'secret' }] } }],
    ['the API key in the file', { model: { apiKey: 'sk-…' } }],
    ['a model URL that is not http(s)', { model: { baseURL: 'file:///etc' } }],
    ['zero days', { retention: { history: 0 } }],
    ['a workspace key that is not a window', { retention: { workspaces: { team: { audit: 3 } } } }],
    ['a batch too large', { retention: { batch: 5000 } }],
    ['an empty anchor file', { audit: { anchorFile: '' } }],
  ])('reject %s', (_what, config) => {
    expect(validate(config)).toBe(false);
  });
});
