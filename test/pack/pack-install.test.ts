import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCommand, runOk } from './run-command.js';

// What a user gets from npm, tried as a user would: each package packed (`npm pack`, from the built tree: `npm test`
// builds first) and installed into an empty project outside the repository, where nothing of the workspace can be
// found. Slow (on Node 20 the test adds better-sqlite3, which compiles from source, about a minute), hence its own
// timeouts. node22-install.test.ts installs the CLI on Node 22, where node:sqlite needs no native build.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SLOW = 600_000;

/** The published packages, by folder. The CLI's install must not need the last three (the frameworks, the console). */
const PACKAGES = {
  core: 'packages/core',
  demoServer: 'packages/demo-server',
  gateway: 'packages/gateway',
  cli: 'packages/cli',
  aiSdk: 'packages/ai-sdk',
  webKit: 'packages/web-kit',
  elements: 'packages/elements',
  console: 'apps/console',
} as const;

/** What the console and the elements bring, which a CLI user must not have to install. */
const CONSOLE_ONLY = [
  'hono',
  '@hono/node-server',
  'ai',
  '@ai-sdk/openai-compatible',
  'lit',
  '@airlock/web-kit',
  '@airlock/console',
];

const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];

describe('the packed packages, installed outside the repository', { timeout: SLOW }, () => {
  let work: string;
  let project: string;
  const tarballs = {} as Record<keyof typeof PACKAGES, string>;
  let firstInstall: { readonly seconds: number; readonly present: readonly string[] };
  const started = Date.now();

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'airlock-pack-'));
    const packs = join(work, 'tarballs');
    project = join(work, 'project');
    mkdirSync(packs);
    mkdirSync(project);
    for (const [key, folder] of Object.entries(PACKAGES)) {
      if (!existsSync(join(ROOT, folder, 'dist'))) throw new Error(`${folder} is not built: run npm run build first`);
      const packed = await runOk('npm', ['pack', '--json', '--pack-destination', packs], join(ROOT, folder));
      const [info] = JSON.parse(packed.stdout) as { filename: string }[];
      tarballs[key as keyof typeof PACKAGES] = join(packs, info!.filename);
    }
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'airlock-user-project', private: true, type: 'module' }, null, 2),
    );
    // First what a CLI and library user installs; the console and the elements come after, in the test for them.
    const before = Date.now();
    const cliTarballs = [tarballs.core, tarballs.demoServer, tarballs.gateway, tarballs.cli];
    await runOk('npm', [...INSTALL, ...cliTarballs, 'better-sqlite3@^12.11.1'], project);
    firstInstall = {
      seconds: (Date.now() - before) / 1000,
      present: CONSOLE_ONLY.filter((name) => existsSync(join(project, 'node_modules', name))),
    };
  }, SLOW);

  afterAll(() => {
    console.log(
      `pack-install: ${((Date.now() - started) / 1000).toFixed(0)} s in all (first install ${firstInstall?.seconds.toFixed(0)} s)`,
    );
    if (work !== undefined) rmSync(work, { recursive: true, force: true });
  });

  it('installs @airlock/cli without the console, Hono, the AI SDK or Lit', () => {
    expect(firstInstall.present).toEqual([]);
    expect(existsSync(join(project, 'node_modules/@airlock/cli/LICENSE'))).toBe(true);
    for (const name of ['core', 'cli']) {
      expect(existsSync(join(project, `node_modules/@airlock/${name}/README.md`)), name).toBe(true);
    }
    // The CLI's @airlock/core is the packed one, not a copy from the registry.
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    expect(lock.packages['node_modules/@airlock/core']?.resolved).toMatch(/^file:/);
    expect(Object.keys(lock.packages).filter((path) => /node_modules\/@airlock\/.*node_modules/.test(path))).toEqual(
      [],
    );
  });

  it("runs the README's sample, examples/quick-start.mjs, as written: it prints success and exits 0", async () => {
    copyFileSync(join(ROOT, 'examples/quick-start.mjs'), join(project, 'quick-start.mjs'));
    const result = await runCommand(process.execPath, ['quick-start.mjs'], project);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('demo__echo');
    expect(result.stdout).toContain('outcome: success');
    expect(result.code).toBe(0);
  });

  it('require()s @airlock/core from CommonJS in the installed project (Node >= 20.19)', async () => {
    const script = "const { createHost } = require('@airlock/core'); console.log(typeof createHost);";
    const result = await runOk(process.execPath, ['-e', script], project);
    expect(result.stdout).toBe('function\n');
  });

  it("imports @airlock/core's subpaths from the installed package", async () => {
    const script = [
      "import * as core from '@airlock/core';",
      "import { MESSAGES } from '@airlock/core/i18n';",
      "import { SqliteStore } from '@airlock/core/sqlite';",
      "import { WorkerStore } from '@airlock/core/worker';",
      'console.log([typeof core.createHost, typeof MESSAGES, typeof SqliteStore, typeof WorkerStore].join());',
    ].join('\n');
    const result = await runOk(process.execPath, ['--input-type=module', '-e', script], project);
    expect(result.stdout).toBe('function,object,function,function\n');
  });

  it('npx airlock --version prints the installed version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, PACKAGES.cli, 'package.json'), 'utf8')) as {
      version: string;
    };
    const result = await runOk('npx', ['--no-install', 'airlock', '--version'], project);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('npx airlock tools lists the installed demo server tools', async () => {
    writeFileSync(
      join(project, 'airlock.config.json'),
      JSON.stringify({
        mcpServers: { demo: { command: process.execPath, args: ['node_modules/@airlock/demo-server/dist/bin.js'] } },
      }),
    );
    const result = await runOk(
      'npx',
      ['--no-install', 'airlock', 'tools', '--config', 'airlock.config.json', '--store', 'cli.db'],
      project,
    );
    expect(result.stdout).toContain('demo__echo');
    // No warnings about our own demo server (its deprecated _meta forms are served only with --legacy-forms).
    expect(result.stderr).not.toContain('"level":"warn"');
  });

  it('adds @airlock/elements (module, bundle, types for both) and @airlock/console, which airlock console finds', async () => {
    await runOk('npm', [...INSTALL, tarballs.webKit, tarballs.elements, tarballs.console], project);
    const elements = join(project, 'node_modules/@airlock/elements');
    const shipped = ['dist/index.js', 'dist/index.d.ts', 'dist/bundle/airlock-elements.js', 'LICENSE', 'README.md'];
    for (const file of [...shipped, 'dist/custom-elements.json']) {
      expect(existsSync(join(elements, file)), file).toBe(true);
    }
    expect(existsSync(join(project, 'node_modules/@airlock/console/README.md'))).toBe(true);
    // The Custom Elements Manifest is where package.json says, for the tools that read it from node_modules.
    const manifestPath = (
      JSON.parse(readFileSync(join(elements, 'package.json'), 'utf8')) as { customElements: string }
    ).customElements;
    expect(readFileSync(join(elements, manifestPath), 'utf8')).toContain('"tagName": "airlock-tool-card"');
    // Types for both entries of the elements and for core's subpaths, as TypeScript finds them (noImplicitAny: an
    // entry without types fails).
    writeFileSync(
      join(project, 'types-check.ts'),
      [
        "import * as elements from '@airlock/elements';",
        "import * as bundle from '@airlock/elements/bundle';",
        "import type { Host } from '@airlock/core';",
        "import type { SqliteStore } from '@airlock/core/sqlite';",
        "import type { WorkerStore } from '@airlock/core/worker';",
        'export const same: typeof elements = bundle;',
        'export type Used = [Host, SqliteStore, WorkerStore];',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const types = await runCommand(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--lib', 'es2023,dom', 'types-check.ts'],
      project,
    );
    expect(types.stdout).toBe('');
    expect(types.code).toBe(0);
    const consoleHelp = await runOk('npx', ['--no-install', 'airlock', 'console', '--help'], project);
    expect(consoleHelp.stdout).toContain('usage: airlock console');
    const consoleVersion = await runOk('npx', ['--no-install', 'airlock-console', '--version'], project);
    expect(consoleVersion.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('adds @airlock/ai-sdk with the frameworks it serves, and runs examples/ai-sdk.mjs as written', async () => {
    await runOk(
      'npm',
      [...INSTALL, tarballs.aiSdk, 'ai@^6.0.326', '@openai/agents@^0.14.3', '@langchain/core@^1.4.0'],
      project,
    );
    copyFileSync(join(ROOT, 'examples/ai-sdk.mjs'), join(project, 'ai-sdk.mjs'));
    const example = await runCommand(process.execPath, ['ai-sdk.mjs'], project);
    expect(example.stderr).toBe('');
    expect(example.stdout).toContain('call_1: success\ncall_2: permission_denied\n');
    expect(example.code).toBe(0);
    // Each entry imports from the installed package, and has types TypeScript finds.
    const script = [
      "import { airlockTools } from '@airlock/ai-sdk';",
      "import { airlockAgentTools } from '@airlock/ai-sdk/openai-agents';",
      "import { airlockLangChainTools } from '@airlock/ai-sdk/langchain';",
      'console.log([typeof airlockTools, typeof airlockAgentTools, typeof airlockLangChainTools].join());',
    ].join('\n');
    const imported = await runOk(process.execPath, ['--input-type=module', '-e', script], project);
    expect(imported.stdout).toBe('function,function,function\n');
    writeFileSync(
      join(project, 'ai-sdk-types.ts'),
      [
        "import type { airlockTools } from '@airlock/ai-sdk';",
        "import type { airlockAgentTools } from '@airlock/ai-sdk/openai-agents';",
        "import type { airlockLangChainTools } from '@airlock/ai-sdk/langchain';",
        'export type Used = [typeof airlockTools, typeof airlockAgentTools, typeof airlockLangChainTools];',
      ].join('\n'),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const types = await runCommand(
      process.execPath,
      [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', 'ai-sdk-types.ts'],
      project,
    );
    expect(types.stdout).toBe('');
    expect(types.code).toBe(0);
  });

  it('adds @airlock/web-kit, and examples/web-app serves its page, the elements, the kit and the event stream', async () => {
    await runOk(
      'npm',
      [...INSTALL, tarballs.webKit, tarballs.elements, 'hono@^4.13.19', '@hono/node-server@^2.1.8'],
      project,
    );
    mkdirSync(join(project, 'web-app'));
    for (const file of ['server.mjs', 'index.html']) {
      copyFileSync(join(ROOT, 'examples/web-app', file), join(project, 'web-app', file));
    }
    const example = spawn(process.execPath, ['web-app/server.mjs'], {
      cwd: project,
      env: cleanEnv({ PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      example.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const origin = await new Promise<string>((found, failed) => {
        example.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const address = /listening on (http:\/\/\S+)\//.exec(output)?.[1];
          if (address !== undefined) found(address);
        });
        example.once('exit', (code) => failed(new Error(`the example exited (${code}):\n${output}`)));
      });
      for (const path of ['/', '/elements/airlock-elements.js', '/kit/index.js', '/kit/connect-airlock.js']) {
        expect((await fetch(`${origin}${path}`)).status, path).toBe(200);
      }
      const events = await fetch(`${origin}/airlock/events`);
      const reader = events.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value as Uint8Array);
      expect(first).toContain('event: state');
      await reader.cancel();
    } finally {
      const exited = new Promise((done) => example.once('exit', done));
      example.kill('SIGTERM');
      await exited;
    }
  });
});
