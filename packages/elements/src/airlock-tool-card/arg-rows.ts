/** One row of the form view. Every string here came from the server and is rendered as text. */
export interface ArgRow {
  readonly name: string;
  readonly label: string;
  readonly description: string | undefined;
  readonly required: boolean;
  readonly value: unknown;
  readonly present: boolean;
  /** The property's own schema ({} when the schema does not name it): what the form view's control is chosen by. */
  readonly schema: Readonly<Record<string, unknown>>;
}

/**
 * The form rows: the schema's properties in its order, then any argument the schema does not name. Own properties
 * only, so an argument called `constructor` or `__proto__` is an ordinary row.
 */
export function argRows(
  args: Readonly<Record<string, unknown>>,
  schema: Readonly<Record<string, unknown>> | undefined,
): ArgRow[] {
  const properties = asRecord(schema?.['properties']) ?? {};
  const requiredList = schema?.['required'];
  const required = new Set(Array.isArray(requiredList) ? requiredList.filter((n) => typeof n === 'string') : []);
  const names = [...Object.keys(properties), ...Object.keys(args).filter((name) => !Object.hasOwn(properties, name))];
  return names.map((name) => {
    const property = Object.hasOwn(properties, name) ? (asRecord(properties[name]) ?? {}) : {};
    const title = property['title'];
    const description = property['description'];
    return {
      name,
      label: typeof title === 'string' && title !== '' ? title : name,
      description: typeof description === 'string' && description !== '' ? description : undefined,
      required: required.has(name),
      value: Object.hasOwn(args, name) ? args[name] : undefined,
      present: Object.hasOwn(args, name),
      schema: property,
    };
  });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
