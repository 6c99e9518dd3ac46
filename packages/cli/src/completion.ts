import { COMMANDS, OPTION_NAMES, SUBCOMMANDS } from './cli-args.js';

/** The shells `airlock completion SHELL` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Options whose value is a file: the shell completes paths after them. */
const FILE_OPTIONS = ['--config', '--store', '--rules', '--anchor'];

/**
 * The completion script for `shell`: commands, each command's actions, every option, and file names after the options
 * that take a file. Static (no server is started to complete), so it is instant and safe in any directory.
 *
 *   bash: `source <(airlock completion bash)`, or save it under ~/.local/share/bash-completion/completions/airlock
 *   zsh:  `airlock completion zsh > "${fpath[1]}/_airlock"` (or `source <(airlock completion zsh)` after compinit)
 *   fish: `airlock completion fish > ~/.config/fish/completions/airlock.fish`
 */
export function completionScript(shell: Shell): string {
  switch (shell) {
    case 'bash':
      return bashScript();
    case 'zsh':
      return zshScript();
    case 'fish':
      return fishScript();
  }
}

const words = (list: readonly string[]) => list.join(' ');

function bashScript(): string {
  const actions = Object.entries(SUBCOMMANDS)
    .map(([command, list]) => `    ${command}) actions="${words(list)}" ;;`)
    .join('\n');
  return `# airlock completion for bash: source <(airlock completion bash)
_airlock() {
  local cur prev command actions
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    ${FILE_OPTIONS.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --audience) COMPREPLY=($(compgen -W "model app user" -- "$cur")); return ;;
    --negotiation) COMPREPLY=($(compgen -W "legacy auto" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "ndjson seed" -- "$cur")); return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${words(OPTION_NAMES)}" -- "$cur")); return
  fi
  command="\${COMP_WORDS[1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "${words(COMMANDS)}" -- "$cur")); return
  fi
  actions=""
  case "$command" in
${actions}
  esac
  if [[ $COMP_CWORD -eq 2 && -n "$actions" ]]; then
    COMPREPLY=($(compgen -W "$actions" -- "$cur"))
  fi
}
complete -F _airlock airlock
`;
}

function zshScript(): string {
  const actions = Object.entries(SUBCOMMANDS)
    .map(([command, list]) => `        ${command}) _values 'action' ${list.map((a) => `'${a}'`).join(' ')} ;;`)
    .join('\n');
  const options = OPTION_NAMES.map((name) =>
    FILE_OPTIONS.includes(name) ? `'${name}=[${name.slice(2)}]:file:_files'` : `'${name}'`,
  ).join(' \\\n    ');
  return `#compdef airlock
# airlock completion for zsh: airlock completion zsh > "\${fpath[1]}/_airlock"
_airlock() {
  local state
  _arguments -C \\
    ${options} \\
    '1:command:(${words(COMMANDS)})' \\
    '*::arg:->args'
  case $state in
    args)
      case $words[1] in
${actions}
      esac
      ;;
  esac
}
if [ "$funcstack[1]" = "_airlock" ]; then _airlock "$@"; else compdef _airlock airlock; fi
`;
}

function fishScript(): string {
  const lines = [
    '# airlock completion for fish: airlock completion fish > ~/.config/fish/completions/airlock.fish',
    'complete -c airlock -f',
    `complete -c airlock -n __fish_use_subcommand -a '${words(COMMANDS)}'`,
    ...Object.entries(SUBCOMMANDS).map(
      ([command, list]) => `complete -c airlock -n '__fish_seen_subcommand_from ${command}' -a '${words(list)}'`,
    ),
    ...OPTION_NAMES.map((name) => {
      const long = name.slice(2);
      return FILE_OPTIONS.includes(name) ? `complete -c airlock -l ${long} -r -F` : `complete -c airlock -l ${long}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
