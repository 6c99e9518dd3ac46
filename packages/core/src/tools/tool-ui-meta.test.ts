import { describe, expect, it } from 'vitest';
import { readToolUiMeta } from './tool-ui-meta.js';

describe('readToolUiMeta', () => {
  it('defaults to model and app when no visibility is given', () => {
    expect(readToolUiMeta(undefined).visibility).toEqual(['model', 'app']);
  });

  it('reads an app-only tool', () => {
    const ui = readToolUiMeta({ ui: { resourceUri: 'ui://demo/dashboard', visibility: ['app'] } });
    expect(ui.visibility).toEqual(['app']);
    expect(ui.resourceUri).toBe('ui://demo/dashboard');
    expect(ui.warnings).toEqual([]);
  });

  it('reads the deprecated flat ui/resourceUri key with a warning', () => {
    const ui = readToolUiMeta({ 'ui/resourceUri': 'ui://demo/old' });
    expect(ui.resourceUri).toBe('ui://demo/old');
    expect(ui.warnings.join()).toMatch(/deprecated/);
  });

  it('accepts the early spelling "apps" as "app" with a warning', () => {
    const ui = readToolUiMeta({ ui: { visibility: ['apps'] } });
    expect(ui.visibility).toEqual(['app']);
    expect(ui.warnings.join()).toMatch(/"apps"/);
  });

  it('ignores unknown visibility values with a warning, and a non-array hides the tool from model and apps', () => {
    expect(readToolUiMeta({ ui: { visibility: ['model', 'robots'] } }).visibility).toEqual(['model']);
    expect(readToolUiMeta({ ui: { visibility: 'model' } }).visibility).toEqual([]);
  });
});
