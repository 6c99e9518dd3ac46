import { describe, expect, it } from 'vitest';
import { parseDemoArgs } from './demo-args.js';

describe('parseDemoArgs', () => {
  it('serves stdio by default', () => {
    expect(parseDemoArgs([])).toEqual({ ok: true, args: { transport: 'stdio', port: 0, help: false } });
  });

  it('serves HTTP on the given port and pages tools with --page-size', () => {
    expect(parseDemoArgs(['--http', '--port', '8123', '--page-size', '3'])).toEqual({
      ok: true,
      args: { transport: 'http', port: 8123, pageSize: 3, help: false },
    });
  });

  it('rejects unknown flags, stray arguments and bad numbers', () => {
    expect(parseDemoArgs(['--verbose'])).toMatchObject({ ok: false, error: expect.stringContaining('--verbose') });
    expect(parseDemoArgs(['stdio'])).toMatchObject({ ok: false });
    expect(parseDemoArgs(['--http', '--port', '70000'])).toMatchObject({ ok: false });
    expect(parseDemoArgs(['--http', '--port', '-1'])).toMatchObject({ ok: false });
    expect(parseDemoArgs(['--page-size', '2.5'])).toMatchObject({ ok: false });
  });

  it('serves the deprecated _meta forms only with --legacy-forms', () => {
    expect(parseDemoArgs(['--legacy-forms'])).toEqual({
      ok: true,
      args: { transport: 'stdio', port: 0, legacyForms: true, help: false },
    });
  });

  it('takes the misbehaving modes a host is tested against', () => {
    expect(
      parseDemoArgs(['--http', '--modern-only', '--bearer-token', 't0k', '--garbage-on-call', '--huge-list-mb', '50']),
    ).toEqual({
      ok: true,
      args: {
        transport: 'http',
        port: 0,
        modernOnly: true,
        bearerToken: 't0k',
        garbageOnCall: true,
        hugeListMb: 50,
        help: false,
      },
    });
    expect(parseDemoArgs(['--bearer-token', 't0k'])).toEqual({
      ok: false,
      error: '--bearer-token only applies with --http',
    });
    expect(parseDemoArgs(['--huge-list-mb', '0'])).toMatchObject({ ok: false });
  });

  it('rejects --port without --http rather than ignoring it', () => {
    expect(parseDemoArgs(['--port', '8123'])).toEqual({ ok: false, error: '--port only applies with --http' });
  });
});
