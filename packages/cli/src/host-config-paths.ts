import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The hosts whose MCP config `airlock config import` reads. */
export const IMPORT_HOSTS = ['claude', 'vscode', 'cursor'] as const;
export type ImportHost = (typeof IMPORT_HOSTS)[number];

/** Where the paths are looked for: this machine's, or a test's. */
export interface PathPlace {
  readonly platform: NodeJS.Platform;
  readonly env: NodeJS.ProcessEnv;
  /** The folder a workspace file (`.vscode/mcp.json`, `.cursor/mcp.json`) is looked for in. */
  readonly cwd: string;
  readonly home?: string;
}

/**
 * The files a host keeps its MCP servers in, in the order `config import` tries them when no file is named:
 * Claude Desktop's `claude_desktop_config.json`; VS Code's workspace `.vscode/mcp.json`, then the one in its user
 * folder; Cursor's `~/.cursor/mcp.json`, then the workspace's `.cursor/mcp.json`. The application folders follow
 * Electron's: `~/Library/Application Support` on macOS, `$XDG_CONFIG_HOME` (else `~/.config`) on Linux, `%APPDATA%`
 * on Windows.
 */
export function hostConfigPaths(host: ImportHost, place: PathPlace): string[] {
  const home = place.home ?? homedir();
  const appData =
    place.platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : place.platform === 'win32'
        ? (place.env['APPDATA'] ?? join(home, 'AppData', 'Roaming'))
        : place.env['XDG_CONFIG_HOME'] || join(home, '.config');
  switch (host) {
    case 'claude':
      return [join(appData, 'Claude', 'claude_desktop_config.json')];
    case 'vscode':
      return [resolve(place.cwd, '.vscode', 'mcp.json'), join(appData, 'Code', 'User', 'mcp.json')];
    case 'cursor':
      return [join(home, '.cursor', 'mcp.json'), resolve(place.cwd, '.cursor', 'mcp.json')];
  }
}
