import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// examples/ai-sdk.mjs is run as a user runs it (here against the workspace's built packages; test/pack runs it again
// from the packed ones, installed outside the repository).

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function runExample(): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['examples/ai-sdk.mjs'], { cwd: ROOT }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}

describe('examples/ai-sdk.mjs', () => {
  it('asks once for echo, runs it, tells the model of the denied delete, and keeps both under the model ids', async () => {
    const { code, stdout, stderr } = await runExample();

    expect(stderr).toBe('');
    expect(stdout.split('\n')).toEqual([
      'asked: may the model call demo__echo? yes, once',
      'call_1: success',
      'call_2: permission_denied',
      'model: I echoed your text; deleting the note was not allowed.',
      'history: call_2 demo__delete_note permission_denied',
      'history: call_1 demo__echo success',
      '',
    ]);
    expect(code).toBe(0);
  });
});
