import { HostError } from '@airlock/core';

// The console config's reading helpers, shared by the files that read its sections.

/** Refuses the config: the file, then the field at fault, then what is wrong with it. */
export function fail(source: string, field: string, message: string): never {
  throw new HostError('config_invalid', `${source}: ${field} ${message}`);
}

/** The object at `key` (an absent key reads as an empty one); anything else is refused. */
export function objectAt(
  json: Readonly<Record<string, unknown>>,
  key: string,
  source: string,
): Record<string, unknown> {
  const value = json[key];
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(source, key, 'must be an object');
  return value as Record<string, unknown>;
}
