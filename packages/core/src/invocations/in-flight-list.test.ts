import { describe, expect, it } from 'vitest';
import { InFlightList } from './in-flight-list.js';

describe('InFlightList', () => {
  it('keeps values in the order added and removes any of them by its node', () => {
    const list = new InFlightList<string>();
    const a = list.add('a');
    const b = list.add('b');
    const c = list.add('c');
    expect([...list]).toEqual(['a', 'b', 'c']);
    expect(list.remove(b)).toBe(true);
    expect([...list]).toEqual(['a', 'c']);
    expect(list.remove(a)).toBe(true);
    expect(list.remove(c)).toBe(true);
    expect([...list]).toEqual([]);
    expect(list.size).toBe(0);
    const d = list.add('d');
    expect([...list]).toEqual(['d']);
    expect([...list.nodes()]).toEqual([d]);
  });

  it('refuses a node removed already or belonging to another list, and a removed node holds no value', () => {
    const list = new InFlightList<{ id: number }>();
    const other = new InFlightList<{ id: number }>();
    const node = list.add({ id: 1 });
    const foreign = other.add({ id: 2 });
    expect(list.remove(foreign)).toBe(false);
    expect(other.size).toBe(1);
    expect(list.remove(node)).toBe(true);
    expect(node.value).toBeUndefined();
    expect(list.remove(node)).toBe(false);
    expect(list.size).toBe(0);
  });

  it('counts what it holds through many adds and removes, first, last and middle', () => {
    const list = new InFlightList<number>();
    const nodes = Array.from({ length: 100 }, (_, i) => list.add(i));
    for (let i = 0; i < 100; i += 3) list.remove(nodes[i]!);
    list.remove(nodes[99]!);
    const left = Array.from({ length: 100 }, (_, i) => i).filter((i) => i % 3 !== 0 && i !== 99);
    expect([...list]).toEqual(left);
    expect(list.size).toBe(left.length);
  });
});
