import jsonc from 'jsonc-parser';
import type { Node as JsonNode } from 'jsonc-parser';
import { lineColumn } from './json-position.js';

/** A place inside a string value: the `index`-th character of its decoded text, which reads `text` there. */
export interface ValuePlace {
  readonly text: string;
  readonly index: number;
}

/**
 * Where a field of a config is, as `file:line:col`: the key of an object member, the element of an array, or (with
 * `place`) the spot inside a string value. A path that is not in the file names its nearest ancestor that is; a
 * config given as an object, with no file, is named by its source alone.
 */
export type ConfigLocate = (path: readonly (string | number)[], place?: ValuePlace) => string;

/** The locate of a config given as an object (a library's `createHost({ servers })`): the source, no position. */
export function sourceOnly(source: string): ConfigLocate {
  return () => source;
}

/** The locate of a parsed file, from its tree and text. */
export function locateInTree(tree: JsonNode, text: string, file: string): ConfigLocate {
  const at = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${file}:${line}:${column}`;
  };
  return (path, place) => {
    for (let n = path.length; n > 0; n--) {
      const node = jsonc.findNodeAtLocation(tree, [...path.slice(0, n)]);
      if (node === undefined) continue;
      if (place !== undefined && n === path.length && node.type === 'string') {
        const offset = placeOffset(text, node, place);
        if (offset !== undefined) return at(offset);
      }
      const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      return at((key ?? node).offset);
    }
    return file;
  };
}

/**
 * The offset of `place` in the file: the same occurrence of its text in the raw string as in the decoded one. Escapes
 * elsewhere in the string do not shift it; only an escape inside the text itself (rare in a variable) loses it.
 */
function placeOffset(text: string, node: JsonNode, place: ValuePlace): number | undefined {
  const decoded = node.value as string;
  let occurrence = 0;
  for (let i = decoded.indexOf(place.text); i >= 0 && i < place.index; i = decoded.indexOf(place.text, i + 1)) {
    occurrence++;
  }
  const raw = text.slice(node.offset, node.offset + node.length);
  let found = raw.indexOf(place.text);
  for (let k = 0; k < occurrence && found >= 0; k++) found = raw.indexOf(place.text, found + 1);
  return found < 0 ? undefined : node.offset + found;
}
