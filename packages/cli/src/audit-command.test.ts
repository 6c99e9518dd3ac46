import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { scratchDir } from '@airlock/core/testing';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const BIN = resolve(here, '../dist/bin.js');
const DEMO = resolve(here, '../../demo-server/dist/bin.js');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function workspace() {
  const dir = scratchDir('airlock-cli-audit-');
  const config = join(dir, 'airlock.config.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [DEMO] } } }));
  // The anchors live outside the data directory, as they should.
  const anchors = join(scratchDir('airlock-anchors-'), 'anchors.ndjson');
  return { config, store: join(dir, 'airlock.db'), anchors };
}

describe('airlock audit: the seed format and anchors', () => {
  it('exports decisions in the seed schema, anchors the head, and reports events removed after an anchor', async () => {
    const w = workspace();
    const common = ['--config', w.config, '--store', w.store];
    expect((await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--allow', ...common])).code).toBe(0);

    const seed = await run(['audit', '--export', '--format', 'seed', ...common]);
    expect(seed.code).toBe(0);
    const [line, ...others] = seed.stdout.trim().split('\n');
    expect(others).toEqual([]);
    expect(JSON.parse(line!)).toMatchObject({
      event_type: 'mcp.permission.decision',
      decision: 'ALLOW_ONCE',
      tool_name: 'demo__echo',
      origin: 'user_prompt',
    });
    const bad = await run(['audit', '--export', '--format', 'csv', ...common]);
    expect(bad.stderr).toMatch(/--format must be ndjson or seed, not csv/);

    const anchored = await run(['audit', 'anchor', w.anchors, ...common]);
    expect(anchored.stdout).toMatch(/^anchored event (\d+) /);
    const head = Number(/anchored event (\d+)/.exec(anchored.stdout)![1]);
    const intact = await run(['audit', '--verify', '--anchor', w.anchors, ...common]);
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(/audit chain intact: \d+ events, from the first event, 1 anchor reached/);

    const db = new Database(w.store);
    db.prepare('DELETE FROM audit_events WHERE seq = ?').run(head);
    db.close();
    expect((await run(['audit', '--verify', ...common])).code).toBe(0);
    const truncated = await run(['audit', '--verify', '--anchor', w.anchors, ...common]);
    expect(truncated.code).toBe(8);
    expect(truncated.stdout).toMatch(new RegExp(`BROKEN at event ${head} .*the newest events were removed`));
  });

  it('retention --dry-run says what would go and changes nothing; retention removes it', async () => {
    const w = workspace();
    const common = ['--config', w.config, '--store', w.store];
    expect((await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--allow', ...common])).code).toBe(0);
    const db = new Database(w.store);
    db.prepare('UPDATE invocations SET updated_at = updated_at - ?').run(10 * 24 * 60 * 60 * 1000);
    db.close();
    const dry = await run(['retention', '--dry-run', ...common]);
    expect(dry.stdout).toBe(
      'would remove: 1 whole result, 0 history rows, 0 audit events, 0 conversations, 0 expired decisions\n',
    );
    expect((await run(['retention', '--dry-run', ...common])).stdout).toBe(dry.stdout);
    const real = await run(['retention', ...common]);
    expect(real.stdout).toBe(
      'removed: 1 whole result, 0 history rows, 0 audit events, 0 conversations, 0 expired decisions\n',
    );
    expect((await run(['retention', '--dry-run', ...common])).stdout).toMatch(/would remove: 0 whole results/);
    // The card of the call says its whole result expired, and shows what the model was given instead.
    const reader = new Database(w.store);
    const { id } = reader.prepare('SELECT id FROM invocations').get() as { id: string };
    reader.close();
    const shown = await run(['history', 'show', id, '--full', ...common]);
    expect(shown.stdout).toMatch(
      /the whole result expired on \d{4}-\d{2}-\d{2}T.*\(retention\)\n {2}model was given:\n[^]*\bhi\b/,
    );
  });

  it('reads retention windows and the anchor file from the config: its windows, its anchors', async () => {
    const w = workspace();
    writeFileSync(
      w.config,
      JSON.stringify({
        mcpServers: { demo: { command: process.execPath, args: [DEMO] } },
        retention: { results: 30, history: 5 },
        audit: { anchorFile: w.anchors },
      }),
    );
    const common = ['--config', w.config, '--store', w.store];
    expect((await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--allow', ...common])).code).toBe(0);
    const db = new Database(w.store);
    db.prepare('UPDATE invocations SET updated_at = updated_at - ?').run(10 * 24 * 60 * 60 * 1000);
    db.close();
    // Results kept 30 days: not yet; history kept 5 days: the row goes.
    const dry = await run(['retention', '--dry-run', ...common]);
    expect(dry.stdout).toBe(
      'would remove: 0 whole results, 1 history row, 0 audit events, 0 conversations, 0 expired decisions\n',
    );
    expect((await run(['audit', 'anchor', ...common])).stdout).toMatch(
      new RegExp(`anchored event \\d+ .* in ${w.anchors}`),
    );
    expect((await run(['audit', '--verify', ...common])).stdout).toMatch(/1 anchor reached/);

    writeFileSync(w.config, JSON.stringify({ retention: { results: -1 } }));
    expect((await run(['retention', '--dry-run', ...common])).stderr).toMatch(
      /retention\.results must be a number of days/,
    );
  });

  it('with no retention in the config applies the defaults; "retention": null or a kind set to null keeps forever', async () => {
    const w = workspace();
    const common = ['--config', w.config, '--store', w.store];
    expect((await run(['call', 'demo/echo', '--args', '{"text":"hi"}', '--allow', ...common])).code).toBe(0);
    // Older than every default window: results 7 days, history 90, audit events 400.
    const age = 500 * 24 * 60 * 60 * 1000;
    const db = new Database(w.store);
    db.prepare('UPDATE invocations SET updated_at = updated_at - ?').run(age);
    db.close();
    const servers = { mcpServers: { demo: { command: process.execPath, args: [DEMO] } } };
    writeFileSync(w.config, JSON.stringify({ ...servers, retention: null }));
    const forever = await run(['retention', '--dry-run', ...common]);
    expect(forever.stderr).toBe('');
    expect(forever.stdout).toBe(
      'would remove: 0 whole results, 0 history rows, 0 audit events, 0 conversations, 0 expired decisions\n',
    );
    writeFileSync(w.config, JSON.stringify({ ...servers, retention: { history: null } }));
    expect((await run(['retention', '--dry-run', ...common])).stdout).toBe(
      'would remove: 1 whole result, 0 history rows, 0 audit events, 0 conversations, 0 expired decisions\n',
    );
    writeFileSync(w.config, JSON.stringify(servers));
    expect((await run(['retention', '--dry-run', ...common])).stdout).toBe(
      'would remove: 1 whole result, 1 history row, 0 audit events, 0 conversations, 0 expired decisions\n',
    );
  });
});
