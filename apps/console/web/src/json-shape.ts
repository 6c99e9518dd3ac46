type Schema = Readonly<Record<string, unknown>>;

/** What is wrong with a value against a schema: where, and what (a key of the launcher's messages and its params). */
export type ShapeProblem =
  | { readonly kind: 'type'; readonly path: string; readonly type: string }
  | { readonly kind: 'required'; readonly path: string; readonly key: string }
  | { readonly kind: 'enum'; readonly path: string; readonly options: string };

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

function fits(type: unknown, value: unknown): boolean {
  if (typeof type !== 'string') return true;
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/**
 * The first place `value` departs from `schema`'s shape (type, required keys, enum values, array items, object
 * properties), or undefined when it fits as far as these go: a quick check while a person types JSON by hand, so an
 * array of objects is told "[2] is missing name" before the call. The host validates fully when the call is made.
 */
export function shapeProblem(schema: unknown, value: unknown, path = '$', depth = 0): ShapeProblem | undefined {
  const s = (schema ?? {}) as Schema;
  if (depth > 8) return undefined;
  if (!fits(s['type'], value)) return { kind: 'type', path, type: String(s['type']) };
  if (Array.isArray(s['enum']) && !(s['enum'] as unknown[]).some((option) => Object.is(option, value))) {
    return { kind: 'enum', path, options: (s['enum'] as unknown[]).map((o) => JSON.stringify(o)).join(', ') };
  }
  if (Array.isArray(value) && s['items'] !== undefined) {
    for (const [index, item] of value.entries()) {
      const problem = shapeProblem(s['items'], item, `${path}[${index}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
  }
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    const required = Array.isArray(s['required']) ? (s['required'] as unknown[]) : [];
    for (const key of required) {
      if (typeof key === 'string' && !Object.hasOwn(record, key)) return { kind: 'required', path, key };
    }
    const properties = (s['properties'] ?? {}) as Record<string, unknown>;
    for (const [key, property] of Object.entries(properties)) {
      if (!Object.hasOwn(record, key)) continue;
      const problem = shapeProblem(property, record[key], `${path}.${key}`, depth + 1);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
