import { COMMANDS, OPTION_NAMES, SUBCOMMANDS, VALUE_OPTION_NAMES } from './cli-args.js';
import { IMPORT_HOSTS } from './host-config-paths.js';

/** The shells `airlock completion SHELL` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Options whose value is a file: the shell completes paths after them. */
const FILE_OPTIONS = ['--config', '--store', '--rules', '--anchor', '--out'];

/** Where a command takes a tool id (`SERVER/TOOL`) or a server id: `command` or `command action`, as typed. */
const TOOL_PLACES = ['call', 'tools', 'tools hide', 'tools show', 'permissions explain'];
const SERVER_PLACES = ['servers logs', 'servers disable', 'servers enable', 'auth login', 'auth logout'];

/**
 * The completion script for `shell`: commands, each command's actions, every option, file names after the options
 * that take a file, and ids: the config's server ids and the tools used before, from `airlock __complete` (which
 * starts no server, so completing stays instant and safe in any directory; bash and zsh pass on the line's
 * `--config`, `--store` and `--workspace`).
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
  const places = (list: readonly string[]) => list.map((place) => `"${place}"`).join('|');
  return `# airlock completion for bash: source <(airlock completion bash)
_airlock_ids() {
  local i passed=()
  for ((i=1; i<COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --config|--store|--workspace) passed+=("\${COMP_WORDS[i]}" "\${COMP_WORDS[i+1]}") ;;
    esac
  done
  "\${COMP_WORDS[0]}" __complete "$1" "\${passed[@]}" 2>/dev/null
}
# Offers each id given that starts with what is typed, as it is: ids come from servers and history, so they never go
# through compgen -W, which would run a $(...) written in one.
_airlock_offer() {
  local id
  for id in "$@"; do [[ "$id" == "$cur"* ]] && COMPREPLY+=("$id"); done
}
_airlock() {
  local cur prev i word skip=0 actions words=() found=()
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    ${FILE_OPTIONS.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --audience) COMPREPLY=($(compgen -W "model app user" -- "$cur")); return ;;
    --negotiation) COMPREPLY=($(compgen -W "legacy auto" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "ndjson seed" -- "$cur")); return ;;
    --server) COMPREPLY=(); mapfile -t found < <(_airlock_ids servers); _airlock_offer "\${found[@]}"; return ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${words(OPTION_NAMES)}" -- "$cur")); return
  fi
  # The words before this one that are not options or an option's value: the command, then its arguments.
  for ((i=1; i<COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      ${VALUE_OPTION_NAMES.join('|')}) skip=1 ;;
      -*) ;;
      *) words+=("$word") ;;
    esac
  done
  if [[ \${#words[@]} -eq 0 ]]; then
    COMPREPLY=($(compgen -W "${words(COMMANDS)}" -- "$cur")); return
  fi
  actions=""
  case "\${words[0]}" in
${actions}
  esac
  case "\${words[*]}" in
    ${places(TOOL_PLACES)}) mapfile -t found < <(_airlock_ids tools) ;;
    ${places(SERVER_PLACES)}) mapfile -t found < <(_airlock_ids servers) ;;
    "config import") found=(${words(IMPORT_HOSTS)}) ;;
  esac
  COMPREPLY=()
  if [[ \${#words[@]} -eq 1 ]]; then COMPREPLY=($(compgen -W "$actions" -- "$cur")); fi
  _airlock_offer "\${found[@]}"
}
complete -F _airlock airlock
`;
}

function zshScript(): string {
  const actions = Object.entries(SUBCOMMANDS)
    .map(([command, list]) => `            ${command}) _values 'action' ${list.map((a) => `'${a}'`).join(' ')} ;;`)
    .join('\n');
  const options = OPTION_NAMES.map((name) =>
    FILE_OPTIONS.includes(name) ? `'${name}=[${name.slice(2)}]:file:_files'` : `'${name}'`,
  ).join(' \\\n    ');
  const places = (list: readonly string[]) => list.map((place) => `'${place}'`).join('|');
  return `#compdef airlock
# airlock completion for zsh: airlock completion zsh > "\${fpath[1]}/_airlock"
_airlock_ids() {
  local -a passed
  local i
  for ((i = 1; i < $#words; i++)); do
    case $words[i] in --config|--store|--workspace) passed+=($words[i] $words[i+1]) ;; esac
  done
  compadd -- \${(f)"$(airlock __complete $1 $passed 2>/dev/null)"}
}
_airlock() {
  local state
  _arguments -C \\
    ${options} \\
    '1:command:(${words(COMMANDS)})' \\
    '*::arg:->args'
  case $state in
    args)
      if (( CURRENT == 2 )); then
        case $words[1] in
${actions}
        esac
        case $words[1] in ${TOOL_PLACES.filter((p) => !p.includes(' ')).join('|')}) _airlock_ids tools ;; esac
      elif (( CURRENT == 3 )); then
        case "$words[1] $words[2]" in
          ${places(TOOL_PLACES.filter((p) => p.includes(' ')))}) _airlock_ids tools ;;
          ${places(SERVER_PLACES)}) _airlock_ids servers ;;
          'config import') _values 'host' ${IMPORT_HOSTS.map((h) => `'${h}'`).join(' ')} ;;
        esac
      fi
      ;;
  esac
}
if [ "$funcstack[1]" = "_airlock" ]; then _airlock "$@"; else compdef _airlock airlock; fi
`;
}

function fishScript(): string {
  const seen = (list: readonly string[]) =>
    `__fish_seen_subcommand_from ${[...new Set(list.map((place) => place.split(' ').at(-1)))].join(' ')}`;
  const lines = [
    '# airlock completion for fish: airlock completion fish > ~/.config/fish/completions/airlock.fish',
    'complete -c airlock -f',
    `complete -c airlock -n __fish_use_subcommand -a '${words(COMMANDS)}'`,
    ...Object.entries(SUBCOMMANDS).map(
      ([command, list]) => `complete -c airlock -n '__fish_seen_subcommand_from ${command}' -a '${words(list)}'`,
    ),
    `complete -c airlock -n '${seen(TOOL_PLACES)}' -a '(airlock __complete tools 2>/dev/null)'`,
    `complete -c airlock -n '${seen(SERVER_PLACES)}' -a '(airlock __complete servers 2>/dev/null)'`,
    `complete -c airlock -n '__fish_seen_subcommand_from import' -a '${words(IMPORT_HOSTS)}'`,
    ...OPTION_NAMES.map((name) => {
      const long = name.slice(2);
      if (name === '--server') return `complete -c airlock -l ${long} -x -a '(airlock __complete servers 2>/dev/null)'`;
      return FILE_OPTIONS.includes(name) ? `complete -c airlock -l ${long} -r -F` : `complete -c airlock -l ${long}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
