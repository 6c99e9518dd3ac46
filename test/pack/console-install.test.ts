import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runOk } from './run-command.js';
import { findNode22 } from '../support/node22/node22.js';

// The console as a user installs it: the packed packages into an empty project. Its page is prebuilt into dist/web,
// so the install must bring nothing only the page's build uses (Lit, Web Awesome, the elements and what they pull);
// the installed console, run on Node 22's node:sqlite (no native build), serves that page and its assets.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SLOW = 600_000;
const FOLDERS = ['packages/core', 'packages/demo-server', 'packages/gateway', 'packages/web-kit', 'apps/console'];

/** Packages only the console's page build uses, at any depth of the install. */
const PAGE_ONLY = [
  '@airlock/elements',
  '@awesome.me/webawesome',
  '@lit-labs/ssr',
  '@lit/reactive-element',
  'lit',
  'lit-element',
  'lit-html',
  'dompurify',
  'marked',
  'node-fetch',
  'web-streams-polyfill',
];

/** Starts the installed console and resolves with its URL once it says where it listens. */
function startConsole(node: string, project: string, home: string): { child: ChildProcess; url: Promise<string> } {
  const bin = join(project, 'node_modules/@airlock/console/dist/bin.js');
  const child = spawn(node, [bin, '--port', '0', '--store', ':memory:'], {
    cwd: project,
    env: cleanEnv({ HOME: home }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise<string>((found, failed) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match !== null) found(match[1]!);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => failed(new Error(`the console exited ${code} before listening:\n${output}`)));
  });
  return { child, url };
}

describe('the packed console, installed outside the repository', { timeout: SLOW }, () => {
  let work: string | undefined;
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('installs without the page-build packages and serves its prebuilt page', async (context) => {
    const node22 = await findNode22();
    if ('missing' in node22) {
      context.skip(`no Node 22 binary to run the console on node:sqlite: ${node22.missing}`);
      return;
    }
    work = mkdtempSync(join(tmpdir(), 'airlock-console-pack-'));
    const packs = join(work, 'tarballs');
    const project = join(work, 'project');
    const home = join(work, 'home');
    for (const dir of [packs, project, home]) mkdirSync(dir);
    const tarballs: string[] = [];
    for (const folder of FOLDERS) {
      if (!existsSync(join(ROOT, folder, 'dist'))) throw new Error(`${folder} is not built: run npm run build first`);
      const packed = await runOk('npm', ['pack', '--json', '--pack-destination', packs], join(ROOT, folder));
      const [info] = JSON.parse(packed.stdout) as { filename: string }[];
      tarballs.push(join(packs, info!.filename));
    }
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'console-user', private: true, type: 'module' }),
    );
    await runOk('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], project);

    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const installed = Object.keys(lock.packages).map((path) => path.replace(/^(.*\/)?node_modules\//, ''));
    expect(installed.filter((name) => PAGE_ONLY.includes(name))).toEqual([]);
    const size = await runOk('du', ['-sk', 'node_modules'], project);
    console.log(`console-install: node_modules of the packed console is ${size.stdout.split('\t')[0]} kB`);

    const started = startConsole(node22.path, project, home);
    child = started.child;
    const url = await started.url;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toBe(readFileSync(join(ROOT, 'apps/console/dist/web/index.html'), 'utf8'));
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.filter((path) => path.endsWith('.js'))).toHaveLength(1);
    const served = await Promise.all(
      assets.map(async (path) => {
        const response = await fetch(new URL(path, url));
        return { path, status: response.status, body: await response.text() };
      }),
    );
    expect(served.map(({ path, status }) => `${path} ${status}`)).toEqual(assets.map((path) => `${path} 200`));
    // The page's module defines the elements itself: nothing of them is needed from node_modules.
    const script = served.find(({ path }) => path.endsWith('.js'))!;
    expect(script.body).toContain('airlock-tool-card');
  });
});
