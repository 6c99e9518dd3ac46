import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { lostSessionStatus } from './session-lost.js';

function answered(status: number, message: string): SdkHttpError {
  const text = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  return new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, {
    status,
    statusText: 'Bad Request',
    text,
  });
}

describe('lostSessionStatus', () => {
  it('reads a 404 as a lost session, whatever its body', () => {
    expect(lostSessionStatus(answered(404, 'Not Found'))).toBe(404);
  });

  it('reads a 400 that says the server is not initialized or names the session as a lost session', () => {
    expect(lostSessionStatus(answered(400, 'Bad Request: Server not initialized'))).toBe(400);
    expect(lostSessionStatus(answered(400, 'Bad Request: No valid session ID provided'))).toBe(400);
  });

  it('leaves any other 400 as it is', () => {
    expect(lostSessionStatus(answered(400, 'Parse error: Invalid JSON'))).toBeUndefined();
    expect(lostSessionStatus(new Error('Server not initialized'))).toBeUndefined();
  });
});
