// @airlock/cli: the `airlock` command, usable as a library for embedding its commands.
export { main } from './main.js';
export { EXIT_CODES } from './exit-codes.js';
export { TerminalSurface, FixedSurface } from './terminal-surface.js';
export { cardArguments, cardHeader, cardResult, progressLine } from './terminal-card.js';
export { cliScope, demoServerConfig, loadConfig, storePath, DEFAULT_CONFIG_FILE } from './cli-config.js';
export type { LoadedConfig } from './cli-config.js';
export { permissionPromptText, terminalLocale } from './terminal-surface.js';
