// The 100 open tabs of console-targets.js, in a process of their own so that reading them does not take the console's
// thread: node bench/console-tabs.js <console url> <session cookie> <tabs>. Each tab is one GET /api/events of the
// same session (as a browser tab opens it), on a connection of its own, parsed as server-sent events. Tells its parent
// (IPC) `{ ready }` once every tab has its `state`, then for each `invocation` event, once every tab has it:
// `{ id, state, first, last }`, the times (performance.timeOrigin + performance.now(), milliseconds since the epoch,
// comparable across processes on one machine) the first and the last tab received it.
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';

const [url, cookie, count] = process.argv.slice(2);
const TABS = Number(count);
const now = () => performance.timeOrigin + performance.now();

/** Per invocation event (id and state), when each tab received it. */
const seen = new Map();
let ready = 0;
const sockets = [];

function received(name, data) {
  if (name === 'state') {
    ready += 1;
    if (ready === TABS) process.send({ ready: TABS });
    return;
  }
  if (name !== 'invocation') return;
  const at = now();
  const { invocation } = JSON.parse(data);
  const key = `${invocation.id} ${invocation.state}`;
  const times = seen.get(key) ?? [];
  times.push(at);
  seen.set(key, times);
  if (times.length === TABS) {
    seen.delete(key);
    process.send({ id: invocation.id, state: invocation.state, first: Math.min(...times), last: Math.max(...times) });
  }
}

function openTab() {
  const target = new URL('/api/events?conversation=main', url);
  const req = request(
    {
      hostname: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      agent: false,
      headers: { cookie, accept: 'text/event-stream' },
    },
    (res) => {
      if (res.statusCode !== 200) throw new Error(`a tab's event stream answered ${res.statusCode}`);
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data += line.slice(5).replace(/^ /, '');
          }
          if (data !== '') received(name, data);
        }
      });
    },
  );
  req.on('socket', (socket) => sockets.push(socket));
  req.end();
}

for (let i = 0; i < TABS; i++) openTab();
process.on('message', (message) => {
  if (message === 'close') {
    for (const socket of sockets) socket.destroy();
    process.disconnect();
  }
});
