/** One known key: its JSON Schema fragment, description included. */
export type KeySchema = Readonly<Record<string, unknown>> & { readonly description: string };
