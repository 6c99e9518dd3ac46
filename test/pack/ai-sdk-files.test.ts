import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packedFiles } from './packed-files.js';

// The adapters' tests share a demo host (src/demo-host-fixture.ts): it starts the demo server, which users never
// install, so neither its source nor a build of it belongs in the tarball.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the packed @airlock/ai-sdk', () => {
  it('ships the adapters and their sources, without the test fixture', async () => {
    const files = await packedFiles(join(ROOT, 'packages/ai-sdk'));
    expect(files.filter((file) => file.includes('demo-host-fixture'))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(['dist/index.js', 'src/app-approval.ts', 'dist/langchain/index.js', 'README.md']),
    );
  });
});
