import { execFile } from 'node:child_process';

/** Where a Node 22 binary came from, or why there is none (the test that needs it skips, saying so). */
export type Node22 = { readonly path: string } | { readonly missing: string };

/**
 * A Node 22 binary for tests of what only Node 22 has (`node:sqlite`): `AIRLOCK_NODE22` when set, else the registry's
 * `node@22` package through npx (cached by npm after the first run, which `npm test`'s pretest warms).
 */
export function findNode22(): Promise<Node22> {
  const fromEnv = process.env['AIRLOCK_NODE22'];
  if (fromEnv !== undefined && fromEnv !== '') return Promise.resolve({ path: fromEnv });
  return new Promise((resolve) => {
    execFile('npx', ['-y', 'node@22', '-p', 'process.execPath'], { timeout: 180_000 }, (error, stdout, stderr) => {
      if (error !== null) {
        resolve({ missing: `npx -y node@22 failed (${error.message.split('\n')[0] ?? ''}) ${stderr.trim()}` });
        return;
      }
      resolve({ path: stdout.trim() });
    });
  });
}
