import type { Tool as McpToolDefinition } from '@modelcontextprotocol/client';

/**
 * The most characters a server's tool description may have by default. A definition goes to the model with every
 * turn and to every tab: a server could otherwise send 50 MB of it (memory, bandwidth, tokens, and room for prompt
 * injection). A trusted server with longer descriptions raises it with `maxDefinitionChars` on its entry.
 */
export const DEFAULT_MAX_DEFINITION_CHARS = 8_000;

/** A title names a tool; it is never long. */
const MAX_TITLE_CHARS = 256;

/** The texts inside a schema that only describe it, and may be cut without changing what it accepts. */
const SCHEMA_TEXT_KEYS: ReadonlySet<string> = new Set(['description', 'title', '$comment']);

/** What bounding cut from a tool definition, for the tool's card. */
export interface DefinitionCut {
  /** Each part cut, with its size before (`description: 52428800 characters`). */
  readonly parts: readonly string[];
  /** Worded for a person: what was cut, and the server setting that takes more. */
  readonly note: string;
}

/** A definition within its bounds, what was cut from it, or why it is left out. */
export type BoundedDefinition =
  { readonly definition: McpToolDefinition; readonly cut?: DefinitionCut } | { readonly refused: string };

/**
 * Bounds one tool definition as a server listed it: the description to `maxChars` (with a note the model reads saying
 * it was cut), titles to 256 characters, each description or title inside the schemas to an eighth of `maxChars`.
 * What the schemas accept is never changed: schemas (with `_meta`) still over eight times `maxChars` after that leave
 * the tool out, with the reason.
 */
export function boundDefinition(
  definition: McpToolDefinition,
  maxChars = DEFAULT_MAX_DEFINITION_CHARS,
): BoundedDefinition {
  const parts: string[] = [];
  const bounded: Record<string, unknown> = { ...definition };
  const cutText = (text: string, max: number, part: string): string => {
    if (text.length <= max) return text;
    parts.push(`${part}: ${text.length} characters`);
    return `${text.slice(0, Math.max(0, max - 1))}…`;
  };
  if (typeof definition.title === 'string') bounded['title'] = cutText(definition.title, MAX_TITLE_CHARS, 'title');
  if (typeof definition.annotations?.title === 'string') {
    bounded['annotations'] = {
      ...definition.annotations,
      title: cutText(definition.annotations.title, MAX_TITLE_CHARS, 'annotations.title'),
    };
  }
  const schemaText = Math.max(200, Math.floor(maxChars / 8));
  for (const field of ['inputSchema', 'outputSchema'] as const) {
    if (definition[field] === undefined) continue;
    const before = parts.length;
    bounded[field] = cutSchemaTexts(definition[field], schemaText, () => parts.push(''));
    const count = parts.splice(before).length;
    if (count > 0) parts.push(`${field}: ${count} description${count === 1 ? '' : 's'} over ${schemaText} characters`);
  }
  const schemaChars =
    JSON.stringify(bounded['inputSchema'] ?? null).length +
    JSON.stringify(bounded['outputSchema'] ?? null).length +
    JSON.stringify(definition._meta ?? null).length;
  if (schemaChars > maxChars * 8) {
    return {
      refused:
        `left out, its schemas and _meta are ${schemaChars} characters, over the ${maxChars * 8} this host takes ` +
        '(maxDefinitionChars on the server raises it)',
    };
  }
  let description = definition.description;
  const note = (what: string) => `\n\n[The host cut ${what} of this tool's definition.]`;
  if (description !== undefined && description.length > maxChars) {
    const tail = note(`this description from ${description.length} to ${maxChars} characters`);
    parts.unshift(`description: ${description.length} characters`);
    description = `${description.slice(0, Math.max(0, maxChars - tail.length))}${tail}`;
  } else if (parts.length > 0) {
    // The model reads the description only: it hears here that the rest of the definition was cut.
    description = `${description ?? ''}${note('long titles or schema descriptions')}`;
  }
  if (parts.length === 0) return { definition };
  if (description !== undefined) bounded['description'] = description;
  return {
    definition: bounded as McpToolDefinition,
    cut: {
      parts,
      note: `Cut to this host's limits (${parts.join('; ')}); maxDefinitionChars on the server takes more.`,
    },
  };
}

/** A copy of a schema with every describing text over `max` characters cut; `onCut` counts each. */
function cutSchemaTexts(schema: unknown, max: number, onCut: () => void, depth = 0): unknown {
  // Deeper than any schema a tool needs: kept as it is (its size is still counted).
  if (depth > 64 || typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) return schema.map((item) => cutSchemaTexts(item, max, onCut, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SCHEMA_TEXT_KEYS.has(key) && typeof value === 'string' && value.length > max) {
      onCut();
      out[key] = `${value.slice(0, max - 1)}…`;
    } else {
      out[key] = cutSchemaTexts(value, max, onCut, depth + 1);
    }
  }
  return out;
}
