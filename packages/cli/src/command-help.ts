/** What `airlock help CMD` and `airlock CMD --help` print for one command. */
interface CommandHelp {
  /** One line per form of the command, without the leading `airlock `. */
  readonly usage: readonly string[];
  readonly about: string;
  /** The options this command reads, beside the global ones (`airlock help`). */
  readonly options?: readonly string[];
}

const HELP: Readonly<Record<string, CommandHelp>> = {
  servers: {
    usage: ['servers [--json]', 'servers logs SERVER [--follow]', 'servers disable|enable SERVER'],
    about:
      "Each server's state (and why, and when it retries), trust, protocol and counts. logs prints a server's stderr\n" +
      'and log notifications; disable switches a server off (not started, its tools not listed), enable on again.',
    options: ['--follow      keep printing new lines until Ctrl-C (logs)'],
  },
  tools: {
    usage: [
      'tools [--audience model|app|user] [--server ID] [--json]',
      'tools SERVER/TOOL [--json]',
      'tools hide|show SERVER/TOOL [--everyone]',
    ],
    about:
      "The tools the model (or an app, or the user) sees. With SERVER/TOOL: that tool's input schema, annotations,\n" +
      'risk and the decision stored for it. hide takes a tool away from the model for you (or --everyone here).',
    options: [
      '--audience A  model (default), app (needs --server) or user',
      '--server ID   only this server',
      '--everyone    hide or show for every user of this workspace',
    ],
  },
  call: {
    usage: ['call SERVER/TOOL [--args JSON|@FILE|-] [--allow] [--timeout MS] [--full] [--json]'],
    about: 'Calls a tool through the host: asked for consent (in a terminal), bounded, kept in history.',
    options: [
      '--args JSON   the arguments: JSON text, @FILE to read them from a file, - to read them from stdin',
      '--allow       allow this one call without asking (otherwise asked in a terminal, denied elsewhere)',
      '--timeout MS  give up after MS milliseconds',
      '--full        print the whole result, not the bounded view',
    ],
  },
  resources: {
    usage: ['resources [--server ID] [--json]'],
    about: 'Resources and resource templates the servers offer.',
  },
  read: { usage: ['read SERVER URI [--full] [--json]'], about: 'Reads a resource (bounded; --full prints it whole).' },
  prompts: { usage: ['prompts [--server ID] [--json]'], about: 'Prompts the servers offer, with their arguments.' },
  prompt: {
    usage: ['prompt SERVER NAME [--args JSON|@FILE|-]'],
    about: 'A prompt filled with its arguments (a JSON object of text values).',
  },
  history: {
    usage: ['history [--user NAME] [--limit N] [--json]', 'history show ID [--full]'],
    about:
      "Your calls, newest first: the CLI's and the console's chats on the same store (--user NAME: a console user's);\n" +
      'show prints one call: its transitions and the result as the model got it. An ID may be its first characters.',
  },
  tasks: { usage: ['tasks [--json]'], about: 'Calls whose tasks are still open, per user and workspace.' },
  permissions: {
    usage: [
      'permissions list [--json]',
      'permissions revoke ID | --server ID',
      'permissions explain SERVER/TOOL [--args JSON]',
    ],
    about:
      'The stored decisions (allow always, deny always) in this workspace; revoke one (or all of a server); explain\n' +
      'which rule or decision decides a call, and why.',
  },
  audit: {
    usage: [
      'audit [--limit N] [--json]',
      'audit --export [--format ndjson|seed]',
      'audit --verify [--anchor FILE]',
      'audit anchor FILE',
    ],
    about:
      'The audit trail. --export writes every event (NDJSON, or the decisions in the seed exchange schema);\n' +
      '--verify checks the hash chain (and that it still reaches every head anchored in FILE); anchor appends the\n' +
      "chain's head to FILE, which should live outside the data directory.",
  },
  retention: {
    usage: ['retention [--dry-run] [--json]'],
    about: 'Removes what aged out (results 7 days, history 90 days, audit 400 days, unless the config says otherwise).',
  },
  auth: {
    usage: ['auth login|logout SERVER', 'auth status [--json]'],
    about: 'Sign in to a remote server (in the browser, back to a loopback address) or out of it; status lists yours.',
  },
  config: {
    usage: ['config check [FILE]', 'config import claude|vscode|cursor [FILE] [--out FILE] [--force]'],
    about:
      'check reads a config (variables, inputs, envFile) without starting its servers. import writes an Airlock\n' +
      "config from Claude Desktop's, VS Code's or Cursor's MCP config (FILE, else the host's usual place) and says\n" +
      'what it could not carry; variables, inputs and envFile are carried as written.',
    options: [
      '--out FILE    where import writes (default ./airlock.config.json)',
      '--force       let import replace an existing file',
    ],
  },
  inputs: {
    usage: ['inputs', 'inputs set|clear ID'],
    about: "The config's inputs (${input:ID}): set one (asked, masked), or clear it.",
  },
  completion: {
    usage: ['completion bash|zsh|fish'],
    about: 'A shell completion script, e.g. source <(airlock completion bash).',
  },
  help: { usage: ['help [COMMAND]'], about: 'The commands, or one command in detail.' },
};

/** The commands that have a help page of their own here (console and gateway print theirs). */
export const HELP_TOPICS: readonly string[] = Object.keys(HELP);

/** The help page of `command`: its forms, what it does and its options. */
export function commandHelp(command: string): string {
  const help = HELP[command];
  if (help === undefined) return '';
  const lines = [
    `usage: ${help.usage.map((form) => `airlock ${form}`).join('\n       ')}`,
    '',
    help.about,
    ...(help.options === undefined ? [] : ['', 'Options:', ...help.options.map((line) => `  ${line}`)]),
    '',
    'Global options (--config, --store, --workspace, --json, ...): airlock help',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * What a usage error prints: the error, the command's usage lines (when the command is known) and where to read
 * more. Short on purpose: the whole help would bury the one line that says what is wrong.
 */
export function usageError(error: string, command: string | undefined): string {
  const help = command === undefined || command === 'help' ? undefined : HELP[command];
  const usage = help === undefined ? '' : `usage: ${help.usage.map((form) => `airlock ${form}`).join('\n       ')}\n`;
  const more = help === undefined ? "Run 'airlock help' for the commands." : `Run 'airlock help ${command}' for more.`;
  return `airlock: ${error}\n${usage}${more}\n`;
}
