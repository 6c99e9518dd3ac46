import { hashJson } from '../audit/canonical-json.js';

/** The parts of a tool definition that, when changed, should make the host ask the user again. */
export interface HashableDefinition {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

/** sha256 of the RFC 8785 canonical JSON of name, description, schemas and annotations. */
export function definitionHash(definition: HashableDefinition): string {
  return hashJson({
    name: definition.name,
    description: definition.description ?? null,
    inputSchema: definition.inputSchema,
    outputSchema: definition.outputSchema ?? null,
    annotations: definition.annotations ?? null,
  });
}
