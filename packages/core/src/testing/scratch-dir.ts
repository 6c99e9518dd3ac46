import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

// Registered when a test file loads this module: the file's directories go once its tests are done (a worker's
// process is ended by signal, so its 'exit' event never comes). Loaded outside a test file (a host a test runs as a
// child process), there is no suite to register with: that process's folders stay, as before.
try {
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
} catch {
  // Not collecting a test file.
}

/**
 * A fresh directory in the system's temp folder, removed after the test file's tests: for fixtures made outside a
 * test's own hooks (a server's call log, a CLI's home), which would otherwise stay behind after every run.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
