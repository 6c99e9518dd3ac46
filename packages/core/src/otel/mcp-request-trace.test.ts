import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { ServerConfig } from '../servers/server-config.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { demoServer, SCOPE, startHttpDemo } from '../testing/demo-fixture.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

// The OpenTelemetry Node SDK registers this context manager; the call's span reaches its request through it.
const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => void context.setGlobalContextManager(contextManager.enable()));
afterAll(() => {
  contextManager.disable();
  context.disable();
});

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A host with one demo server, echo allowed, its spans kept in memory. */
async function tracedHost(server: ServerConfig): Promise<{ host: Host; spans: () => ReadableSpan[] }> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const host = createHost({
    store: new MemoryStore(),
    surface: new ScriptedSurface('deny_once'),
    servers: [server],
    permissions: { rules: [{ effect: 'allow', layer: 'host', server: server.id, tool: 'echo', source: 'test' }] },
    telemetry: { tracer: provider.getTracer('test') },
  });
  cleanup.push(() => host.close());
  await host.servers.settled();
  return { host, spans: () => exporter.getFinishedSpans() };
}

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const span = spans.find((s) => s.name === name);
  if (span === undefined) throw new Error(`no span "${name}" in ${spans.map((s) => s.name).join(', ')}`);
  return span;
}

/** Calls the demo's echo and reads back the traceparent the server received (it returns it in the result's _meta). */
async function echo(host: Host): Promise<string | undefined> {
  const result = await host.invoke({
    scope: SCOPE,
    caller: { kind: 'model' },
    tool: 'demo__echo',
    args: { text: 'hi' },
  });
  expect(result.outcome).toBe('success');
  const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
  const stored = JSON.parse(entry?.result?.rawJson ?? '{}') as { _meta?: Record<string, unknown> };
  const received = stored._meta?.['airlock-demo/traceparent'];
  return typeof received === 'string' ? received : undefined;
}

describe('MCP client spans of tool calls', () => {
  it('sends a stdio tools/call as a CLIENT span under execute_tool, and the server receives its traceparent', async () => {
    const demo = demoServer();
    cleanup.push(() => rmSync(dirname(demo.log), { recursive: true, force: true }));
    const { host, spans } = await tracedHost(demo.config);

    const received = await echo(host);

    const call = named(spans(), 'tools/call echo');
    const tool = named(spans(), 'execute_tool demo__echo');
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(call.spanContext().traceId).toBe(tool.spanContext().traceId);
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
    // The 2025-era stdio call goes the direct way, which knows the id it was sent with.
    expect(call.attributes['jsonrpc.request.id']).toMatch(/^-?\d+$/);
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(received).toBe(`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
  });

  it('injects the traceparent through the SDK callTool of a 2026-era stdio server too', async () => {
    const demo = demoServer('demo', { negotiation: 'auto' });
    cleanup.push(() => rmSync(dirname(demo.log), { recursive: true, force: true }));
    const { host, spans } = await tracedHost(demo.config);

    const received = await echo(host);

    const call = named(spans(), 'tools/call echo');
    expect(call.attributes['mcp.protocol.version']).toBe('2026-07-28');
    expect(call.parentSpanContext?.spanId).toBe(named(spans(), 'execute_tool demo__echo').spanContext().spanId);
    expect(received).toBe(`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
  });

  it('does the same over Streamable HTTP, naming the server address, port and session', async () => {
    const demo = demoServer();
    cleanup.push(() => rmSync(dirname(demo.log), { recursive: true, force: true }));
    const http = await startHttpDemo(demo.log);
    cleanup.push(() => http.stop());
    const server: ServerConfig = {
      id: 'demo',
      transport: 'http',
      url: http.url,
      headers: {},
      trusted: false,
      disabled: false,
    };
    const { host, spans } = await tracedHost(server);

    const received = await echo(host);

    const call = named(spans(), 'tools/call echo');
    const url = new URL(http.url);
    expect(call.parentSpanContext?.spanId).toBe(named(spans(), 'execute_tool demo__echo').spanContext().spanId);
    expect(call.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'server.address': url.hostname,
      'server.port': Number(url.port),
    });
    // The demo's 2025-era HTTP sessions have UUID ids.
    expect(call.attributes['mcp.session.id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(received).toBe(`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
  });

  it('sends no trace context when the call is not traced', async () => {
    const demo = demoServer();
    cleanup.push(() => rmSync(dirname(demo.log), { recursive: true, force: true }));
    const host = createHost({
      store: new MemoryStore(),
      surface: new ScriptedSurface('allow_once'),
      servers: [demo.config],
    });
    cleanup.push(() => host.close());
    await host.servers.settled();
    expect(await echo(host)).toBeUndefined();
  });

  it("traces a resources/read under the application's own span, with the global tracer", async () => {
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    cleanup.push(() => trace.disable());
    const demo = demoServer();
    cleanup.push(() => rmSync(dirname(demo.log), { recursive: true, force: true }));
    const host = createHost({
      store: new MemoryStore(),
      surface: new ScriptedSurface('allow_once'),
      servers: [demo.config],
    });
    cleanup.push(() => host.close());
    await host.servers.settled();

    const uri = 'ui://demo/dashboard';
    await trace.getTracer('app').startActiveSpan('render page', async (page) => {
      await host.resources.read({ scope: SCOPE, serverId: 'demo', uri });
      page.end();
    });

    const spans = exporter.getFinishedSpans();
    const read = named(spans, `resources/read ${uri}`);
    expect(read.kind).toBe(SpanKind.CLIENT);
    expect(read.parentSpanContext?.spanId).toBe(named(spans, 'render page').spanContext().spanId);
    expect(read.attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': uri });
  });
});
