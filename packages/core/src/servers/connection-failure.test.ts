import { SdkErrorCode, SdkHttpError, UnsupportedProtocolVersionError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { describeConnectFailure, versionHint } from './connection-failure.js';
import type { ConnectFailureFacts } from './connection-failure.js';
import type { ServerConfig } from './server-config.js';
import { StreamFault } from './stream-fault.js';

const remote: ServerConfig = {
  id: 'remote',
  transport: 'http',
  url: 'https://mcp.example.com/mcp',
  headers: {},
  trusted: false,
  disabled: false,
};

function facts(over: Partial<ConnectFailureFacts>): ConnectFailureFacts {
  return {
    config: remote,
    error: new Error('boom'),
    timedOutAfterMs: undefined,
    lastError: undefined,
    stderrTail: '',
    fault: undefined,
    challenge: undefined,
    ...over,
  };
}

describe('describeConnectFailure', () => {
  it('says HTTP 401, that sign-in is needed and what WWW-Authenticate asked for, not the raw body', () => {
    const error = new SdkHttpError(
      SdkErrorCode.ClientHttpNotImplemented,
      'Error POSTing to endpoint: {"error":"invalid_token"}',
      { status: 401, statusText: 'Unauthorized', text: '{"error":"invalid_token"}' },
    );
    const challenge = {
      wwwAuthenticate: 'Bearer error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/x"',
    };
    expect(describeConnectFailure(facts({ error, challenge }))).toEqual({
      state: 'needs_auth',
      message:
        'server "remote" answered HTTP 401 Unauthorized: it needs sign-in (WWW-Authenticate: Bearer ' +
        'error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/x")',
    });
  });

  it('names a 2026-only server under legacy negotiation and the setting that reaches it', () => {
    const error = new UnsupportedProtocolVersionError({ supported: ['2026-07-28'], requested: '2025-11-25' });
    expect(describeConnectFailure(facts({ error })).message).toBe(
      'server "remote" speaks only 2026-07-28 and refused 2025-11-25, the version "negotiation": "legacy" (the ' +
        'default) speaks; set "negotiation": "auto" on this server to reach it (-32022)',
    );
  });

  it('reads -32022 from the body of an HTTP 400 too', () => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } },
    });
    const error = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
      status: 400,
      statusText: 'Bad Request',
      text,
    });
    expect(versionHint('remote', 'legacy', error)).toMatch(/speaks only 2026-07-28 .* "negotiation": "auto"/);
  });

  it('does not tell a server that speaks no version this host knows to switch negotiation', () => {
    const error = new UnsupportedProtocolVersionError({ supported: ['2099-01-01'], requested: '2026-07-28' });
    expect(versionHint('remote', 'auto', error)).toBe(
      'server "remote" supports only 2099-01-01, none of which this host speaks (-32022)',
    );
  });

  it('quotes a stream fault and an unreachable server in the server’s name', () => {
    const fault = new StreamFault('not_json_rpc', 'wrote a line that is not JSON to stdout: "oops"', true);
    expect(describeConnectFailure(facts({ fault })).message).toBe(
      'server "remote" wrote a line that is not JSON to stdout: "oops"',
    );
    const refused = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    expect(describeConnectFailure(facts({ error: refused })).message).toBe(
      'server "remote" could not be reached: connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('keeps the timeout wording with the last error', () => {
    expect(describeConnectFailure(facts({ timedOutAfterMs: 3_000, lastError: 'x' })).message).toBe(
      'server "remote" did not answer within 3000 ms; last error: x',
    );
  });
});
