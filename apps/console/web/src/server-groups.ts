/** Items of one server, in the order they were listed. */
export interface ServerGroup<T> {
  readonly serverId: string;
  readonly items: readonly T[];
}

/**
 * Items grouped by the server that offers them, servers in name order (a list that reads the same on every load,
 * whichever server answered first), each server's items in the order it gave them.
 */
export function groupByServer<T extends { readonly serverId: string }>(items: readonly T[]): ServerGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.serverId);
    if (group === undefined) groups.set(item.serverId, [item]);
    else group.push(item);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([serverId, grouped]) => ({ serverId, items: grouped }));
}
