/**
 * Variables in config strings, as the hosts people copy configs from write them: VS Code's `${env:NAME}`,
 * `${userHome}`, `${workspaceFolder}`, `${pathSeparator}` (and its short form `${/}`), Claude Code's `${NAME}` and
 * `${NAME:-default}`, and VS Code's `${input:ID}`, which is kept as it is here and filled in when the server starts.
 */

/** What the variables of a config expand to. */
export interface ConfigVariables {
  /** The environment `${env:NAME}` and `${NAME}` read (usually `process.env`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly userHome: string;
  /** The config file's folder, or the folder the host names. */
  readonly workspaceFolder: string;
  readonly pathSeparator: string;
}

/** Why a variable could not be expanded: the problem in words, the variable as written and where it starts. */
export interface VariableProblem {
  readonly problem: string;
  readonly variable: string;
  readonly index: number;
}

/** A string with its variables expanded, and the ids of the `${input:ID}` it still holds. */
export interface ExpandedString {
  readonly value: string;
  readonly inputs: readonly string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INPUT_ID = /^[A-Za-z0-9_.-]+$/;

/**
 * Expands every variable of `text`. An unknown variable, an unset one without a default, a `${` never closed and an
 * input not in `declaredInputs` are refused through `fail`: a value is never sent with a placeholder left in it.
 */
export function expandVariables(
  text: string,
  variables: ConfigVariables,
  declaredInputs: ReadonlySet<string>,
  fail: (problem: VariableProblem) => never,
): ExpandedString {
  let out = '';
  let at = 0;
  const inputs: string[] = [];
  for (;;) {
    const start = text.indexOf('${', at);
    if (start < 0) break;
    out += text.slice(at, start);
    const end = text.indexOf('}', start + 2);
    if (end < 0) {
      return fail({ problem: 'is never closed with "}"', variable: text.slice(start), index: start });
    }
    const variable = text.slice(start, end + 1);
    const body = text.slice(start + 2, end);
    const refuse = (problem: string): never => fail({ problem, variable, index: start });
    if (body.includes('${')) refuse('holds another variable, which is not expanded');
    if (body.startsWith('input:')) {
      const id = body.slice('input:'.length);
      if (!INPUT_ID.test(id)) refuse('names no input id');
      if (!declaredInputs.has(id)) refuse(`names input "${id}", which "inputs" does not declare`);
      inputs.push(id);
      out += variable;
    } else {
      out += expandOne(body, variables, refuse);
    }
    at = end + 1;
  }
  return { value: out + text.slice(at), inputs };
}

function expandOne(body: string, variables: ConfigVariables, refuse: (problem: string) => never): string {
  if (body === 'userHome') return variables.userHome;
  if (body === 'workspaceFolder') return variables.workspaceFolder;
  if (body === 'pathSeparator' || body === '/') return variables.pathSeparator;
  const fromEnv = body.startsWith('env:');
  const rest = fromEnv ? body.slice('env:'.length) : body;
  const split = rest.indexOf(':-');
  const name = split < 0 ? rest : rest.slice(0, split);
  if (!NAME.test(name)) {
    return refuse(
      fromEnv
        ? 'is not an environment variable name'
        : 'is not a variable Airlock knows (env:NAME, NAME, NAME:-default, input:ID, userHome, workspaceFolder, ' +
            'pathSeparator)',
    );
  }
  const value = variables.env[name];
  if (split >= 0) return value === undefined || value === '' ? rest.slice(split + 2) : value;
  if (value === undefined)
    return refuse(`names ${name}, which is not set in the environment (give a default: \${${name}:-value})`);
  return value;
}

/** The `${input:ID}` markers of a string, replaced by the values given; ids without a value are left as they are. */
export function fillInputs(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(/\$\{input:([A-Za-z0-9_.-]+)\}/g, (marker, id: string) => values.get(id) ?? marker);
}
