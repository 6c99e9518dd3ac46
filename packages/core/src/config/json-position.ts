import jsonc from 'jsonc-parser';
import type { Node as JsonNode, ParseError } from 'jsonc-parser';
import { HostError } from '../errors/host-error.js';
import { checkDuplicateKeys } from './duplicate-keys.js';

/** The 1-based line and column of an offset in a text, as editors show them. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const EXPECTED: Partial<Record<string, string>> = {
  InvalidSymbol: 'an invalid character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'expected a key in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":" after the key',
  CommaExpected: 'expected "," between entries',
  CloseBraceExpected: 'expected "}" to close the object',
  CloseBracketExpected: 'expected "]" to close the array',
  EndOfFileExpected: 'expected the end of the file after the top-level value',
  UnexpectedEndOfComment: 'a comment that is never closed',
  UnexpectedEndOfString: 'a string that is never closed',
  InvalidEscapeCharacter: 'an invalid escape in a string',
  InvalidCharacter: 'an invalid character in a string',
};

/**
 * Parses JSON with comments and trailing commas (as VS Code's `mcp.json` is written) into a tree that keeps
 * offsets, so every later error can name a line and column. A syntax error is a `config_invalid` error naming the
 * file, the line and column of the first problem, and what was expected there.
 */
export function parseJsoncTree(text: string, file: string): JsonNode | undefined {
  const errors: ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = lineColumn(text, first.offset);
    const code = jsonc.printParseErrorCode(first.error);
    throw new HostError('config_invalid', `${file}:${line}:${column}: not valid JSON: ${EXPECTED[code] ?? code}`, {
      data: { line, column, error: code },
    });
  }
  checkDuplicateKeys(root, (offset) => lineColumn(text, offset), file);
  return root;
}
