import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ListenedResources } from './listened-resources.js';

const acknowledged = (id: number, uris: string[]): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications: { resourceSubscriptions: uris }, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
});
const cancelled = (id: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId: id },
});

/** A ListenedResources and the changes its follower was told, in order. */
function following() {
  const listened = new ListenedResources();
  const told: string[] = [];
  listened.follow((uri, on) => told.push(`${on ? '+' : '-'}${uri}`));
  return { listened, told };
}

describe('ListenedResources: the URIs a 2026 stdio client listens to', () => {
  it('holds a URI from the acknowledgement until the last subscription naming it is cancelled', () => {
    const { listened, told } = following();
    listened.outbound(acknowledged(1, ['demo://a', 'demo://b']));
    listened.outbound(acknowledged(2, ['demo://a']));
    listened.inbound(cancelled(1));
    expect(told).toEqual(['+demo://a', '+demo://b', '-demo://b']);
    expect(listened.has('demo://a')).toBe(true);
    listened.inbound(cancelled(2));
    expect(told).toEqual(['+demo://a', '+demo://b', '-demo://b', '-demo://a']);
  });

  it("ends a subscription with the listen request's result (the server's graceful close)", () => {
    const { listened, told } = following();
    listened.outbound(acknowledged(7, ['demo://a']));
    listened.outbound({ jsonrpc: '2.0', id: 7, result: {} });
    expect(told).toEqual(['+demo://a', '-demo://a']);
    expect(listened.has('demo://a')).toBe(false);
  });

  it('tells a follower that comes late the URIs listened already, and ignores cancellations of other requests', () => {
    const listened = new ListenedResources();
    listened.outbound(acknowledged(1, ['demo://a']));
    listened.inbound(cancelled(2));
    const told: string[] = [];
    listened.follow((uri, on) => told.push(`${on ? '+' : '-'}${uri}`));
    expect(told).toEqual(['+demo://a']);
  });
});
