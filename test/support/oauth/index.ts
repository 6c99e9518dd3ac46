export { TOOL_SCOPES, startAuthorizationServer } from './authorization-server.js';
export type { AuthorizationServer, AuthorizationServerOptions } from './authorization-server.js';
export { headlessAuthorize } from './headless-authorize.js';
export type { HeadlessAuthorize, HeadlessUser } from './headless-authorize.js';
export { ADMIN_TOOL, startProtectedMcpServer } from './protected-mcp-server.js';
export type { ProtectedMcpServer, ProtectedMcpServerOptions } from './protected-mcp-server.js';
export { OAuthWorld, REDIRECT, resultText } from './oauth-world.js';
