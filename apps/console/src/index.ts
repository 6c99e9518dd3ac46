// @airlock/console: the runnable host. Every public export is named here.
export { startConsole, WEB_DIR } from './console-server.js';
export type { RunningConsole } from './console-server.js';
export { createConsoleLogger } from './console-logger.js';
export type { ConsoleLogger } from './console-logger.js';
export { DEFAULT_CONFIG_FILE, DEFAULT_PORT, demoServers, loadConsoleConfig } from './console-config.js';
export type { AuthMode, ConsoleConfig, ConsoleUser } from './console-config.js';
export type { ModelChoice, ModelConfig } from './model-config.js';
export { runConsole } from './run-console.js';
