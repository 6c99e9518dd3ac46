import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './partial-json.js';

describe('reading JSON a model has only partly written', () => {
  it('reads whole JSON as it is', () => {
    expect(parsePartialJson('{"title": "Q3", "n": [1, 2]}')).toEqual({ title: 'Q3', n: [1, 2] });
  });

  it('closes an open string, array and object where they stop', () => {
    expect(parsePartialJson('{"title": "Quar')).toEqual({ title: 'Quar' });
    expect(parsePartialJson('{"rows": [1, 2')).toEqual({ rows: [1, 2] });
    expect(parsePartialJson('{"a": {"b": "c"')).toEqual({ a: { b: 'c' } });
  });

  it('leaves out a member that cannot be read yet: a key alone, a key and its colon, half a literal', () => {
    expect(parsePartialJson('{"ti')).toEqual({});
    expect(parsePartialJson('{"title": "Q3", "ro')).toEqual({ title: 'Q3' });
    expect(parsePartialJson('{"title": "Q3", "rows":')).toEqual({ title: 'Q3' });
    expect(parsePartialJson('{"title": "Q3", "done": tr')).toEqual({ title: 'Q3' });
  });

  it('drops a half-written escape at the end of a string instead of failing', () => {
    expect(parsePartialJson('{"t": "a\\')).toEqual({ t: 'a' });
    expect(parsePartialJson('{"t": "a\\u00')).toEqual({ t: 'a' });
    expect(parsePartialJson('{"t": "say \\"hi')).toEqual({ t: 'say "hi' });
  });

  it('reads nothing from text that is not the start of JSON', () => {
    expect(parsePartialJson('')).toBeUndefined();
    expect(parsePartialJson('hello')).toBeUndefined();
  });
});
