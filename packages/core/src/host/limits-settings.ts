import { HostError } from '../errors/host-error.js';
import type { HostLimits } from './host-config.js';
import type { KeySchema } from '../config/key-schema.js';
import { LIMITS_KEYS, TOOL_LIMIT_KEYS } from '../config/settings-definition.js';

/**
 * Reads a config's `limits` (and `limits.tools.<tool>`) for any surface: every value checked against its key's
 * definition (a number and its range, or a boolean), so a negative or zero timeout is refused naming the file and the
 * field rather than taken as "time out at once". Absent: no limits of the file's own (the host's defaults).
 */
export function readLimits(json: Readonly<Record<string, unknown>>, file: string): HostLimits {
  const limits = json['limits'];
  if (limits === undefined) return {};
  const fail = (field: string, problem: string): never => {
    throw new HostError('config_invalid', `${file}: ${field} ${problem}`, { data: { field } });
  };
  const section = (value: unknown, field: string, keys: Readonly<Record<string, KeySchema>>) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(field, 'must be an object');
    for (const [key, item] of Object.entries(value)) {
      const schema = keys[key];
      if (schema === undefined) fail(`${field}.${key}`, `is not a limit; known: ${Object.keys(keys).join(', ')}`);
      else if (key === 'tools') {
        if (typeof item !== 'object' || item === null || Array.isArray(item))
          fail(`${field}.tools`, 'must be an object');
        for (const [tool, own] of Object.entries(item as object))
          section(own, `${field}.tools.${tool}`, TOOL_LIMIT_KEYS);
      } else checkValue(item, schema, `${field}.${key}`, fail);
    }
  };
  section(limits, 'limits', LIMITS_KEYS);
  return limits as HostLimits;
}

function checkValue(value: unknown, schema: KeySchema, field: string, fail: (f: string, p: string) => never): void {
  if (schema['type'] === 'boolean') {
    if (typeof value !== 'boolean') fail(field, 'must be true or false');
    return;
  }
  const integer = schema['type'] === 'integer';
  const above = schema['exclusiveMinimum'];
  const least = schema['minimum'];
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    (typeof above !== 'number' || value > above) &&
    (typeof least !== 'number' || value >= least);
  if (!ok) {
    const range = typeof above === 'number' ? `> ${above}` : typeof least === 'number' ? `>= ${least}` : '';
    fail(
      field,
      `must be ${integer ? 'a whole number' : 'a number'}${range === '' ? '' : ` ${range}`}, not ${JSON.stringify(value)}`,
    );
  }
}
