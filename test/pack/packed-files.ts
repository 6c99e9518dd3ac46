import { execFile } from 'node:child_process';

/** The published packages, by folder. */
export const PACKAGE_FOLDERS = [
  'packages/core',
  'packages/demo-server',
  'packages/gateway',
  'packages/cli',
  'packages/ai-sdk',
  'packages/web-kit',
  'packages/elements',
  'apps/console',
] as const;

/** The paths `npm pack` would put in the tarball of the package at `folder` (relative to it), without packing. */
export function packedFiles(folder: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts'],
      { cwd: folder, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error !== null) {
          reject(new Error(`npm pack --dry-run failed in ${folder}`, { cause: error }));
          return;
        }
        const [info] = JSON.parse(stdout) as { files: { path: string }[] }[];
        resolve(info!.files.map((file) => file.path));
      },
    );
  });
}
