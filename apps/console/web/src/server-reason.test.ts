import { describe, expect, it } from 'vitest';
import { serverReason } from './server-reason.js';
import type { ServerView } from '../../src/wire.js';

const server = (fields: Partial<ServerView>): ServerView => ({
  id: 'demo',
  state: 'ready',
  transport: 'stdio',
  trusted: false,
  isolation: 'shared',
  signsIn: false,
  toolCount: 3,
  disabled: false,
  ...fields,
});
const time = (at: number) => `t${at}`;

describe('why a server is in its state', () => {
  it('says nothing of a ready server', () => {
    expect(serverReason(server({}), time)).toEqual([]);
  });

  it('gives a degraded server its last error and when it retries', () => {
    expect(serverReason(server({ state: 'degraded', error: 'spawn ENOENT', retryAt: 5 }), time)).toEqual([
      { key: 'console.server_panel.reason.degraded', params: { error: 'spawn ENOENT' } },
      { key: 'console.server_panel.reason.retrying', params: { time: 't5' } },
    ]);
  });

  it('gives a failed server its error and says it does not retry on its own', () => {
    expect(serverReason(server({ state: 'failed', error: 'exited with code 1' }), time)).toEqual([
      { key: 'console.server_panel.reason.failed', params: { error: 'exited with code 1' } },
      { key: 'console.server_panel.reason.not_retrying' },
    ]);
  });

  it('asks for sign-in, says a server is starting, and names a server switched off above all else', () => {
    expect(serverReason(server({ state: 'needs_auth' }), time)).toEqual([
      { key: 'console.server_panel.reason.needs_auth' },
    ]);
    expect(serverReason(server({ state: 'connecting' }), time)).toEqual([
      { key: 'console.server_panel.reason.connecting' },
    ]);
    expect(serverReason(server({ state: 'closed', disabled: true, error: 'x' }), time)).toEqual([
      { key: 'console.server_panel.reason.disabled' },
    ]);
  });
});
