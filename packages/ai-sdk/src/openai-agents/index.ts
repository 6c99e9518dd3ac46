export { airlockAgentTools } from './airlock-agent-tools.js';
