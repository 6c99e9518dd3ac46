import { describe, expect, it } from 'vitest';
import type { ConfigVariables, VariableProblem } from './config-variables.js';
import { expandVariables, fillInputs } from './config-variables.js';

const variables: ConfigVariables = {
  env: { TOKEN: 't0k', EMPTY: '' },
  userHome: '/home/ana',
  workspaceFolder: '/work/project',
  pathSeparator: '/',
};

function expand(text: string, inputs: readonly string[] = []) {
  return expandVariables(text, variables, new Set(inputs), (problem: VariableProblem) => {
    throw new Error(`${problem.index}: ${problem.variable} ${problem.problem}`);
  });
}

describe('expandVariables', () => {
  it("expands VS Code's variables and Claude Code's ${NAME} and ${NAME:-default}", () => {
    expect(expand('${workspaceFolder}${pathSeparator}a${/}b').value).toBe('/work/project/a/b');
    expect(expand('${userHome}/.cfg').value).toBe('/home/ana/.cfg');
    expect(expand('Bearer ${env:TOKEN}').value).toBe('Bearer t0k');
    expect(expand('${TOKEN}-${MISSING:-fallback}-${EMPTY:-e}').value).toBe('t0k-fallback-e');
    expect(expand('${env:MISSING:-d}').value).toBe('d');
    expect(expand('no variables, a $ and a } alone').value).toBe('no variables, a $ and a } alone');
  });

  it('keeps a declared ${input:ID} for the start and says which inputs the string uses', () => {
    expect(expand('Bearer ${input:api-key}', ['api-key'])).toEqual({
      value: 'Bearer ${input:api-key}',
      inputs: ['api-key'],
    });
  });

  it('refuses what it cannot expand, naming the variable and where it starts', () => {
    expect(() => expand('x ${MISSING}')).toThrow(
      '2: ${MISSING} names MISSING, which is not set in the environment (give a default: ${MISSING:-value})',
    );
    expect(() => expand('${env:MISSING}')).toThrow('0: ${env:MISSING} names MISSING, which is not set');
    expect(() => expand('${command:pick}')).toThrow('0: ${command:pick} is not a variable Airlock knows');
    expect(() => expand('${workspaceFolderBasename}')).toThrow('is not set in the environment');
    expect(() => expand('${input:api-key}')).toThrow('names input "api-key", which "inputs" does not declare');
    expect(() => expand('a ${TOKEN')).toThrow('2: ${TOKEN is never closed with "}"');
  });

  it('fills the inputs given and leaves the others for the guard to catch', () => {
    const values = new Map([['a', 'A']]);
    expect(fillInputs('${input:a}/${input:b}', values)).toBe('A/${input:b}');
  });
});
