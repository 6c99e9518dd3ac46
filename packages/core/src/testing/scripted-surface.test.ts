import { describe, expect, it } from 'vitest';
import type { ElicitationRequest } from '../elicitation/elicitation-request.js';
import type { PermissionRequest } from '../permissions/permission-request.js';
import { ScriptedSurface } from './scripted-surface.js';

const request = (invocationId: string) => ({ invocationId }) as PermissionRequest;
const question = (id: string) => ({ id }) as ElicitationRequest;
const signal = new AbortController().signal;

describe('ScriptedSurface', () => {
  it('answers permission requests in script order, repeats the last answer, and records each request', async () => {
    const surface = new ScriptedSurface({ permissions: ['deny_once', 'allow_always'] });

    const answers = [
      await surface.askPermission(request('a')),
      await surface.askPermission(request('b')),
      await surface.askPermission(request('c')),
    ];

    expect(answers).toEqual(['deny_once', 'allow_always', 'allow_always']);
    expect(surface.requests.map((r) => r.invocationId)).toEqual(['a', 'b', 'c']);
  });

  it('allows once by default, and takes a single decision as a script that always gives it', async () => {
    expect(await new ScriptedSurface().askPermission(request('a'))).toBe('allow_once');
    const denying = new ScriptedSurface('deny_always');
    await denying.askPermission(request('a'));
    expect(await denying.askPermission(request('b'))).toBe('deny_always');
  });

  it('answers questions from its script in order and records them, in the modes it was given', async () => {
    const surface = new ScriptedSurface({
      elicitations: [{ action: 'accept', content: { name: 'Ana' } }, { action: 'decline' }],
      elicitationModes: ['form', 'url'],
    });

    expect(surface.elicitationModes).toEqual(['form', 'url']);
    expect(await surface.elicit?.(question('q1'), signal)).toEqual({ action: 'accept', content: { name: 'Ana' } });
    expect(await surface.elicit?.(question('q2'), signal)).toEqual({ action: 'decline' });
    expect(await surface.elicit?.(question('q3'), signal)).toEqual({ action: 'decline' });
    expect(surface.questions.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);
  });

  it('has no elicit at all without scripted answers, so a host declares no elicitation capability', () => {
    expect(new ScriptedSurface().elicit).toBeUndefined();
    expect(new ScriptedSurface({ elicitations: [] }).elicit).toBeUndefined();
    expect(new ScriptedSurface({ elicitations: [{ action: 'cancel' }] }).elicitationModes).toEqual(['form']);
  });
});
