import { describe, expect, it } from 'vitest';
import { shapeProblem } from './json-shape.js';

const ITEMS = {
  type: 'array',
  items: {
    type: 'object',
    properties: { name: { type: 'string' }, qty: { type: 'integer' }, unit: { enum: ['kg', 'g'] } },
    required: ['name'],
  },
};

describe('shapeProblem', () => {
  it('accepts an array of objects of the schema shape', () => {
    expect(shapeProblem(ITEMS, [{ name: 'rice', qty: 2, unit: 'kg' }, { name: 'salt' }])).toBeUndefined();
  });

  it('names the item and the key that is missing or of the wrong type', () => {
    expect(shapeProblem(ITEMS, [{ name: 'rice' }, { qty: 1 }])).toEqual({
      kind: 'required',
      path: '$[1]',
      key: 'name',
    });
    expect(shapeProblem(ITEMS, [{ name: 'rice', qty: 1.5 }])).toEqual({
      kind: 'type',
      path: '$[0].qty',
      type: 'integer',
    });
    expect(shapeProblem(ITEMS, { name: 'rice' })).toEqual({ kind: 'type', path: '$', type: 'array' });
    expect(shapeProblem(ITEMS, [{ name: 'rice', unit: 'lb' }])).toEqual({
      kind: 'enum',
      path: '$[0].unit',
      options: '"kg", "g"',
    });
  });
});
