// @airlock/gateway: Airlock as an MCP server in front of any MCP client. Every public export is named here.
export { createGatewayServer, GATEWAY_NAME, GATEWAY_VERSION } from './gateway-server.js';
export type { GatewayServerOptions } from './gateway-server.js';
export { RoundTrips } from './round-trips.js';
export { GatewaySurface } from './gateway-surface.js';
export type { ClientAsker } from './gateway-surface.js';
export { serveGatewayStdio } from './gateway-stdio.js';
export type { GatewayStdio, GatewayStdioOptions } from './gateway-stdio.js';
export { startGatewayHttp } from './gateway-http.js';
export type { GatewayHttp, GatewayHttpConfig } from './gateway-http.js';
export { createGatewayHandler } from './gateway-handler.js';
export type { GatewayHandler, GatewayHandlerConfig, GatewayUser } from './gateway-handler.js';
export { readGatewaySettings } from './gateway-settings.js';
export type { GatewaySettings } from './gateway-settings.js';
export { createResourceServer } from './oauth-resource-server.js';
export type { GatewayOAuthSettings, ResourceServer, TokenCheck } from './oauth-resource-server.js';
export { permissionMessage, permissionQuestion } from './permission-question.js';
export { formSchema } from './form-schema.js';
