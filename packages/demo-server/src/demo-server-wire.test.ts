import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, DEMO_BIN, exitCode, freshLogPath, RawStdioPeer, readCallLog } from './testing/demo-harness.js';

afterEach(closeAll);

describe('what the demo server writes on the wire (raw JSON-RPC over stdio, no client SDK)', () => {
  it('answers protocol_error with a JSON-RPC error object and no result', async () => {
    const peer = new RawStdioPeer();
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'protocol_error', arguments: {} });
    expect(response.result).toBeUndefined();
    expect(response.error).toMatchObject({ code: -32602, message: expect.stringContaining('protocol_error') });
  });

  it('answers fail_tool with a result marked isError, not an error object', async () => {
    const peer = new RawStdioPeer();
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'fail_tool', arguments: {} });
    expect(response.error).toBeUndefined();
    expect(response.result).toMatchObject({ isError: true, content: [{ type: 'text' }] });
  });

  it('writes every progress notification of slow_task before its result', async () => {
    const peer = new RawStdioPeer();
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'slow_task',
      arguments: { steps: 3, stepMs: 1 },
      _meta: { progressToken: 'p1' },
    });
    expect(response.result).toMatchObject({ content: [{ type: 'text', text: 'done after 3 steps' }] });
    expect(peer.notifications.filter((n) => n.method === 'notifications/progress').map((n) => n.params)).toEqual([
      { progressToken: 'p1', progress: 1, total: 3, message: 'step 1 of 3' },
      { progressToken: 'p1', progress: 2, total: 3, message: 'step 2 of 3' },
      { progressToken: 'p1', progress: 3, total: 3, message: 'step 3 of 3' },
    ]);
  });

  it('sends bad_structured with the structuredContent its outputSchema forbids', async () => {
    const peer = new RawStdioPeer();
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'bad_structured', arguments: {} });
    expect(response.result).toMatchObject({ structuredContent: { count: 'many' } });
    expect(response.result?.['isError']).toBeUndefined();
  });

  it('answers an unknown tool with -32602 and logs nothing', async () => {
    const log = freshLogPath();
    const peer = new RawStdioPeer({ log });
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'no_such_tool', arguments: {} });
    expect(response.error).toMatchObject({ code: -32602 });
    expect(readCallLog(log)).toEqual([]);
  });

  it('answers invalid arguments with an isError result the model can correct, after logging the call', async () => {
    const log = freshLogPath();
    const peer = new RawStdioPeer({ log });
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'echo', arguments: { text: 42 } });
    expect(response.result).toMatchObject({ isError: true });
    expect(readCallLog(log)).toEqual([{ event: 'call', tool: 'echo', args: { text: 42 } }]);
  });

  it('exits with code 1 on crash, leaving the call in the log and no answer', async () => {
    const log = freshLogPath();
    const peer = new RawStdioPeer({ log });
    await peer.initialize();
    const answered = peer.request('tools/call', { name: 'crash', arguments: {} }).then(() => 'answered');
    expect(await Promise.race([answered, exitCode(peer.child)])).toBe(1);
    expect(readCallLog(log)).toEqual([{ event: 'call', tool: 'crash', args: {} }]);
  });
});

describe('the airlock-demo-server command line', () => {
  function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, [DEMO_BIN, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  }

  it('refuses an unknown flag with a clear message and exit code 2', async () => {
    const { code, stderr } = await run(['--bogus']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^airlock-demo-server: Unknown option '--bogus'/);
    expect(stderr).toContain('usage: airlock-demo-server');
  });

  it('refuses a page size that is not a positive integer with exit code 2', async () => {
    const { code, stderr } = await run(['--page-size', '0']);
    expect(code).toBe(2);
    expect(stderr).toContain('--page-size must be an integer from 1 to 1000');
  });

  it('prints its usage with --help and exits 0', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('AIRLOCK_DEMO_CALL_LOG');
  });
});
