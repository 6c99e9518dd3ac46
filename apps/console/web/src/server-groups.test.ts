import { describe, expect, it } from 'vitest';
import { groupByServer } from './server-groups.js';

describe('grouping by server', () => {
  it('puts each server’s items under it, servers by name, items in the order the server gave them', () => {
    const groups = groupByServer([
      { serverId: 'notes', uri: 'n://2' },
      { serverId: 'demo', uri: 'd://1' },
      { serverId: 'notes', uri: 'n://1' },
      { serverId: 'demo', uri: 'd://2' },
    ]);
    expect(groups.map((g) => [g.serverId, g.items.map((i) => i.uri)])).toEqual([
      ['demo', ['d://1', 'd://2']],
      ['notes', ['n://2', 'n://1']],
    ]);
  });

  it('gives no group for no items', () => {
    expect(groupByServer([])).toEqual([]);
  });
});
