import type { Node as JsonNode } from 'jsonc-parser';
import { HostError } from '../errors/host-error.js';

/**
 * Refuses a key written twice in one object: JSON parsers keep the last silently, so a rule or a server written again
 * further down would quietly replace the first. The error names the second key's file:line:col and where the first is.
 */
export function checkDuplicateKeys(
  root: JsonNode | undefined,
  /** The 1-based line and column of an offset in the text parsed. */
  position: (offset: number) => { line: number; column: number },
  file: string,
): void {
  const pending: JsonNode[] = root === undefined ? [] : [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const seen = new Map<string, JsonNode>();
    for (const child of node.children ?? []) {
      if (node.type === 'object') {
        const key = child.children?.[0];
        if (key !== undefined && typeof key.value === 'string') {
          const first = seen.get(key.value);
          if (first !== undefined) {
            const at = position(key.offset);
            const was = position(first.offset);
            throw new HostError(
              'config_invalid',
              `${file}:${at.line}:${at.column}: duplicate key ${JSON.stringify(key.value)} ` +
                `(first at line ${was.line}, column ${was.column}); keep one`,
              { data: { line: at.line, column: at.column, key: key.value } },
            );
          }
          seen.set(key.value, key);
        }
        const value = child.children?.[1];
        if (value !== undefined) pending.push(value);
      } else {
        pending.push(child);
      }
    }
  }
}
