import type { Node as JsonNode } from 'jsonc-parser';
import { HostError } from '../errors/host-error.js';
import { nearestKey } from './nearest-key.js';
import { lineColumn } from './json-position.js';

/**
 * Checks an object node's keys against the known ones. A key within a typo of a known key (`comand`) is a
 * `config_invalid` error naming the file, line, column, path and the key meant: a misspelt key silently ignored
 * is a setting the user believes is on. Any other unknown key is returned as a warning and ignored, because the
 * `mcpServers` files users copy from VS Code or Claude Desktop carry keys of those hosts (`envFile`, `description`).
 */
export function checkKeys(
  node: JsonNode | undefined,
  known: Readonly<Record<string, unknown>>,
  path: string,
  text: string,
  file: string,
  warnings: string[],
): void {
  if (node?.type !== 'object') return;
  const names = Object.keys(known);
  for (const property of node.children ?? []) {
    const keyNode = property.children?.[0];
    if (keyNode === undefined) continue;
    const key = keyNode.value as string;
    if (Object.hasOwn(known, key)) continue;
    const { line, column } = lineColumn(text, keyNode.offset);
    const where = `${file}:${line}:${column}`;
    const full = path === '' ? key : `${path}.${key}`;
    const meant = nearestKey(key, names);
    if (meant !== undefined) {
      throw new HostError('config_invalid', `${where}: unknown key ${full} (did you mean "${meant}"?)`, {
        data: { field: full, line, column, suggestion: meant },
      });
    }
    warnings.push(`${where}: ${full} is not a key Airlock knows; ignored`);
  }
}
