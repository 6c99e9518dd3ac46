// A minimal web app on Airlock's browser kit: a Node server with one host on the demo MCP server, and a page where each
// tool call shows as a live card and asks permission in the sheet before it runs. Run it with
// `node examples/web-app/server.mjs` (Node 20.19 or newer) after
// `npm install @airlock/core @airlock/elements @airlock/web-kit @airlock/demo-server hono @hono/node-server`,
// then open the address it prints. PORT and HOST choose where it listens (default: a free port on 127.0.0.1).
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createHost } from '@airlock/core';
import { createWebKit } from '@airlock/web-kit';
import { Hono } from 'hono';

const HERE = dirname(fileURLToPath(import.meta.url));
const server = fileURLToPath(new URL('bin.js', import.meta.resolve('@airlock/demo-server')));
const elements = dirname(fileURLToPath(import.meta.resolve('@airlock/elements/bundle')));
const kitBrowser = dirname(fileURLToPath(import.meta.resolve('@airlock/web-kit/browser')));

// One user here. A real app takes the scope from its own session (a cookie, a token) and returns undefined for a
// request with none, which the kit refuses with 401.
const scope = { userId: 'you', workspaceId: 'home', conversationId: 'first' };
const kit = createWebKit({ scopeOf: () => scope });
const host = createHost({
  servers: { mcpServers: { demo: { command: process.execPath, args: [server] } } },
  surface: kit.surface,
});
await host.servers.settled();
const { app: airlock, invoke } = kit.serve(host);

/** Serves a file of `root` (the elements bundle, the kit's browser part) as JavaScript; nothing outside it. */
const script = (root) => async (c) => {
  const file = normalize(join(root, c.req.param('file')));
  if (!file.startsWith(root + '/') || !file.endsWith('.js')) return c.notFound();
  const body = await readFile(file).catch(() => undefined);
  return body === undefined ? c.notFound() : c.body(body, 200, { 'content-type': 'text/javascript' });
};

const app = new Hono();
app.route('/airlock', airlock);
app.get('/', async (c) => c.html(await readFile(join(HERE, 'index.html'), 'utf8')));
app.get('/elements/:file{.+}', script(elements));
app.get('/kit/:file{.+}', script(kitBrowser));
// Where your model loop would call tools; here a button asks for one call. The card and the sheet follow from it.
app.post('/run', async (c) => {
  const { text } = await c.req.json();
  void invoke({ scope, caller: { kind: 'model' }, tool: 'demo__echo', args: { text: String(text) } }).catch((error) =>
    console.error(error),
  );
  return c.json({ ok: true });
});

const listener = serve({
  fetch: app.fetch,
  port: Number(process.env.PORT ?? 0),
  hostname: process.env.HOST ?? '127.0.0.1',
});
listener.once('listening', () => {
  const { address, port } = listener.address();
  console.log(`listening on http://${address}:${port}/`);
});
const stop = async () => {
  listener.close();
  await host.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
