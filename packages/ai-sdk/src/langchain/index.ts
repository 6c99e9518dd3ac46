export { airlockLangChainTools } from './airlock-langchain-tools.js';
