import jsonc from 'jsonc-parser';
import { parseJsoncTree } from './json-position.js';

/**
 * The value of a JSON-with-comments text (trailing commas allowed), checked as a config file is: a syntax error or
 * a key written twice is a `config_invalid` error naming `file`, line and column. For reading another host's MCP
 * config (`airlock config import`), whose keys are not Airlock's to check.
 */
export function parseJsoncValue(text: string, file: string): unknown {
  const tree = parseJsoncTree(text, file);
  return tree === undefined ? undefined : (jsonc.getNodeValue(tree) as unknown);
}
