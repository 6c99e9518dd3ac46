export type { CallLog, CallLogEvent } from './call-log.js';
export { fileCallLog } from './call-log.js';
export type { DemoArgs, DemoArgsResult } from './demo-args.js';
export { DEMO_USAGE, parseDemoArgs } from './demo-args.js';
export { demoBlob, demoPng, demoWav } from './demo-media.js';
export { DASHBOARD_URI, MCP_APP_MIME_TYPE } from './demo-resources.js';
export type { DemoServerOptions } from './demo-server.js';
export {
  createDemoServer,
  DEMO_SERVER_NAME,
  DEMO_SERVER_VERSION,
  DEMO_TOOLS,
  LEGACY_FORM_TOOLS,
} from './demo-server.js';
export type { DemoNote } from './demo-state.js';
export { DemoState, SEED_NOTES } from './demo-state.js';
export type { DemoTool, DemoToolContext, DemoToolResult } from './demo-tool.js';
export type { HttpDemoServer, HttpDemoServerConfig } from './http-demo-server.js';
export { startHttpDemoServer } from './http-demo-server.js';
export { HUGE_TEXT_LINE_LENGTH, hugeText } from './huge-text.js';
