import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { HostError } from '../errors/host-error.js';

// ajv-formats ships CommonJS; its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Schemas larger or deeper than this are refused: a server cannot make the host spend unbounded work on one. */
export const MAX_SCHEMA_CHARS = 256 * 1024;
export const MAX_SCHEMA_DEPTH = 32;

const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateSchema: true }));

/** A compiled JSON Schema check. `errors` says, per failing path, what is wrong. */
export interface SchemaCheck {
  (value: unknown): { ok: true } | { ok: false; errors: string[] };
}

/**
 * Compiles a tool's JSON Schema (2020-12, the MCP default; draft-07 keywords it shares are read alike). `$schema`
 * is ignored, remote `$ref` is never fetched (an unresolved reference is a compile error), and oversize or
 * too-deep schemas are refused. Throws a plain Error; the caller adds the tool's and server's names.
 */
export function compileSchema(schema: unknown): SchemaCheck {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new Error('schema must be a JSON object');
  }
  const text = JSON.stringify(schema);
  if (text.length > MAX_SCHEMA_CHARS) throw new Error(`schema is larger than ${MAX_SCHEMA_CHARS} characters`);
  if (depthOf(schema) > MAX_SCHEMA_DEPTH) throw new Error(`schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  const rest = { ...(schema as Record<string, unknown>) };
  delete rest['$schema'];
  delete rest['$id'];
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(rest);
  } catch (error) {
    throw new Error(`schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (value) => (validate(value) ? { ok: true } : { ok: false, errors: describeErrors(validate.errors) });
}

/** Checks tool arguments, throwing `invalid_arguments` naming the tool and every failing path. */
export function assertArguments(check: SchemaCheck, toolName: string, args: unknown): void {
  const verdict = check(args);
  if (!verdict.ok) {
    throw new HostError(
      'invalid_arguments',
      `arguments for ${toolName} do not match its inputSchema: ${verdict.errors.join('; ')}`,
      { data: { tool: toolName, errors: verdict.errors } },
    );
  }
}

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath === '' ? '(root)' : e.instancePath} ${e.message ?? 'is invalid'}`);
}

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_SCHEMA_DEPTH) return depth;
  if (typeof value !== 'object' || value === null) return depth;
  let max = depth;
  for (const child of Object.values(value)) max = Math.max(max, depthOf(child, depth + 1));
  return max;
}
