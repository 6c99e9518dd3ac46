export { airlockTools } from './airlock-tools.js';
export type { AirlockToolOutput, AirlockToolsOptions } from './airlock-tools.js';
export { recordDenials } from './app-approval.js';
export type { FrameworkCall, GovernedToolsOptions } from './governed-call.js';
