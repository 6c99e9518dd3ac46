import { Buffer } from 'node:buffer';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { demoBlob } from './demo-media.js';
import type { DemoState } from './demo-state.js';

/** The dashboard view the MCP Apps tools point at. */
export const DASHBOARD_URI = 'ui://demo/dashboard';

/** The MIME type MCP Apps views are served with. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

const BLOB_URI = 'demo://files/blob.bin';
const NOTE_PREFIX = 'demo://notes/';

// A view talks to its host over postMessage JSON-RPC: ui/initialize, then ui/notifications/initialized, after which
// the host may send the tool result; the Refresh button calls the app-only app_refresh tool through the host. The
// heading shows the call's title as the host sends it: early (tool-input-partial, while the model still writes it),
// then whole (tool-input); `inputs` keeps each of those notifications in order, for a test to read.
const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Airlock demo dashboard</title>
<style>body{font:14px system-ui,sans-serif;margin:1rem}output{display:block;white-space:pre-wrap;margin-top:.5rem}</style>
</head>
<body>
<h1 id="title">Demo dashboard</h1>
<button id="refresh" type="button">Refresh</button>
<output id="out">Waiting for the host…</output>
<script>
const out = document.getElementById('out');
const heading = document.getElementById('title');
window.inputs = [];
const pending = new Map();
let nextId = 1;
function request(method, params) {
  const id = nextId++;
  window.parent.postMessage({ jsonrpc: '2.0', id, method, params }, '*');
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function show(result) {
  out.textContent = (result.content || []).filter((b) => b.type === 'text').map((b) => b.text).join('\\n');
}
window.addEventListener('message', (event) => {
  const message = event.data;
  if (!message || message.jsonrpc !== '2.0') return;
  if (message.id !== undefined && pending.has(message.id)) {
    const { resolve, reject } = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) reject(new Error(message.error.message)); else resolve(message.result);
  } else if (message.method === 'ui/notifications/tool-input-partial' || message.method === 'ui/notifications/tool-input') {
    const args = (message.params && message.params.arguments) || {};
    window.inputs.push({ method: message.method, arguments: args });
    if (typeof args.title === 'string') heading.textContent = args.title;
  } else if (message.method === 'ui/notifications/tool-result') {
    show(message.params);
  }
});
document.getElementById('refresh').addEventListener('click', () => {
  request('tools/call', { name: 'app_refresh', arguments: {} }).then(show, (error) => { out.textContent = String(error); });
});
request('ui/initialize', {
  protocolVersion: '2026-01-26',
  appInfo: { name: 'airlock-demo-dashboard', version: '0.1.0' },
  appCapabilities: {},
}).then(() => {
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  out.textContent = 'Connected.';
});
</script>
</body>
</html>
`;

/** The resources the demo lists: the dashboard view and one per note. */
export function listDemoResources(state: DemoState): Resource[] {
  return [
    { uri: DASHBOARD_URI, name: 'dashboard', title: 'Demo dashboard', mimeType: MCP_APP_MIME_TYPE },
    ...[...state.notes.values()].map((note) => ({
      uri: `${NOTE_PREFIX}${note.id}`,
      name: `note-${note.id}`,
      title: note.title,
      mimeType: note.mimeType,
      size: Buffer.byteLength(note.text),
    })),
  ];
}

/** Reads a demo resource; an unknown URI is the SDK's resource-not-found error (-32602 with `data.uri`). */
export function readDemoResource(uri: string, state: DemoState): ReadResourceResult {
  if (uri === DASHBOARD_URI) return { contents: [{ uri, mimeType: MCP_APP_MIME_TYPE, text: DASHBOARD_HTML }] };
  if (uri === BLOB_URI) {
    return {
      contents: [{ uri, mimeType: 'application/octet-stream', blob: Buffer.from(demoBlob()).toString('base64') }],
    };
  }
  const note = uri.startsWith(NOTE_PREFIX) ? state.notes.get(uri.slice(NOTE_PREFIX.length)) : undefined;
  if (note === undefined) throw new ResourceNotFoundError(uri);
  return { contents: [{ uri, mimeType: note.mimeType, text: note.text }] };
}
