// Airlock's quick start: a host with the demo MCP server over stdio, history in a SQLite file, and one tool call.
// Run it with `node examples/quick-start.mjs` (Node 22.13 or newer; on Node 20.19 add better-sqlite3) after
// `npm install @airlock/core @airlock/demo-server`, or give the path of another server's bin:
// `node examples/quick-start.mjs path/to/server.js`.
import { fileURLToPath } from 'node:url';
import { createHost } from '@airlock/core';
import { SqliteStore } from '@airlock/core/sqlite';

// The demo server's bin sits beside its package entry (node_modules/@airlock/demo-server/dist/bin.js).
const server = process.argv[2] ?? fileURLToPath(new URL('bin.js', import.meta.resolve('@airlock/demo-server')));

const host = createHost({
  servers: { mcpServers: { demo: { command: process.execPath, args: [server] } } },
  store: new SqliteStore({ path: 'airlock.db' }), // node:sqlite, or better-sqlite3 on Node 20
  surface: { askPermission: async (request) => 'allow_once' }, // your UI asks the user here
});
await host.servers.settled();

const tools = host.tools.list({ audience: 'model' }); // never an app-only tool
console.log(`the model sees ${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);

const result = await host.invoke({
  scope: { userId: 'ana', workspaceId: 'w1', conversationId: 'c1' },
  caller: { kind: 'model' },
  tool: 'demo__echo',
  args: { text: 'hi' },
});
// result.outcome: success | tool_error | protocol_error | transport_error | timeout | cancelled
//                 | permission_denied | invalid_output | tool_not_found | invalid_arguments
// result.text: exactly what the model is given (framed as untrusted data, at most 25,000 characters)
console.log(`outcome: ${result.outcome}`);
console.log(result.text);

await host.close(); // stops the servers and closes the store; without it, Node keeps running
