// A diagnostic side of gateway-hop.js: the least a relay on the v2 SDK can cost. An SDK Server whose tools/call is an
// SDK Client's callTool to server-everything, nothing else (no host: no rules, history, audit or bounds). Started by
// the bench as an MCP server over stdio; the gap between it and the gateway is what the host's path adds.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const here = dirname(fileURLToPath(import.meta.url));
const everything = [join(here, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'];
const client = new Client({ name: 'sdk-relay', version: '0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: everything, stderr: 'ignore' }));
const { tools } = await client.listTools();
const server = new Server({ name: 'sdk-relay', version: '0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools }));
server.setRequestHandler('tools/call', async ({ params }) => {
  const result = await client.callTool({ name: params.name, arguments: params.arguments });
  return { content: result.content, ...(result.isError ? { isError: true } : {}) };
});
server.onclose = () => void client.close();
await server.connect(new StdioServerTransport());
