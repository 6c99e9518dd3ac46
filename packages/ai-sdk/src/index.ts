export { airlockTools } from './airlock-tools.js';
export type { AirlockToolOutput } from './airlock-tools.js';
export type { FrameworkCall, GovernedToolsOptions } from './governed-call.js';
