import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { HostEvents } from '../events/host-events.js';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import type { HostConfig } from '../host/host-config.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import type { NativeToolDefinition } from '../tools/tool-registry.js';
import { attachToolSpans } from './tool-spans.js';

const SECRET = 'sk-live-do-not-trace';

/** A native tool that sleeps `ms` on the fake clock, then fails when asked to. */
function tools(clock: FakeClock): NativeToolDefinition[] {
  return [
    {
      name: 'lookup',
      inputSchema: { type: 'object', properties: { token: { type: 'string' } } },
      run: () => {
        clock.advance(40);
        return Promise.resolve({ content: [{ type: 'text', text: 'found' }] });
      },
    },
    {
      name: 'explode',
      inputSchema: { type: 'object' },
      run: () => Promise.reject(new Error('the disk is full')),
    },
  ];
}

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

function start(config: Partial<HostConfig> & { surface?: ScriptedSurface } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const clock = new FakeClock();
  host = createHost({
    store: new MemoryStore(),
    clock,
    surface: new ScriptedSurface('allow_once'),
    tools: tools(clock),
    ...config,
    telemetry: { tracer: provider.getTracer('test'), ...config.telemetry },
  });
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string): ReadableSpan => {
    const span = spans().find((s) => s.name === name);
    if (span === undefined)
      throw new Error(
        `no span "${name}" in ${spans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    return span;
  };
  return { host, clock, spans, named };
}

const millis = (time: readonly [number, number]) => time[0] * 1000 + time[1] / 1e6;

describe('OpenTelemetry spans of tool calls', () => {
  it('gives a successful native call an execute_tool span after the GenAI conventions, with its permission child', async () => {
    const { host, named, clock } = start();
    const started = clock.now();
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'lookup',
      args: { token: SECRET },
    });
    expect(result.outcome).toBe('success');

    const span = named('execute_tool lookup');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': result.invocationId,
      'gen_ai.tool.type': 'function',
      'airlock.caller': 'model',
      'airlock.outcome': 'success',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // From the call's creation to its end, on the host's clock: the tool took 40 ms.
    expect(millis(span.startTime)).toBe(started);
    expect(millis(span.duration)).toBe(40);

    const permission = named('airlock.permission');
    expect(permission.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(permission.spanContext().traceId).toBe(span.spanContext().traceId);
    expect(permission.attributes).toEqual({
      'airlock.permission.decision': 'allow_once',
      'airlock.permission.origin': 'user_prompt',
    });
  });

  it("names the call by the model's id when the caller gives one, and keeps the host's id beside it", async () => {
    const { host, named } = start();
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'lookup',
      args: {},
      modelCallId: 'call_Xq81',
    });

    const span = named('execute_tool lookup');
    expect(span.attributes['gen_ai.tool.call.id']).toBe('call_Xq81');
    expect(span.attributes['airlock.invocation.id']).toBe(result.invocationId);
  });

  it('says who denied a call: the permission span carries the decision and its origin, the call span the error', async () => {
    const { host, named } = start({
      permissions: { rules: [{ effect: 'deny', tool: 'lookup' }] },
    });
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'user' }, tool: 'lookup', args: {} });
    expect(result.outcome).toBe('permission_denied');

    const span = named('execute_tool lookup');
    expect(span.attributes['airlock.outcome']).toBe('permission_denied');
    expect(span.attributes['airlock.caller']).toBe('user');
    // Denied is not a success: a dashboard that counts ERROR spans counts it.
    expect(span.attributes['error.type']).toBe('permission_denied');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const permission = named('airlock.permission');
    expect(permission.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(permission.attributes['airlock.permission.origin']).toBe('rule');
    expect(String(permission.attributes['airlock.permission.decision'])).toMatch(/deny/);
  });

  it('marks a timed-out call and a cancelled one with error.type and an ERROR status', async () => {
    let started: () => void = () => undefined;
    const waiting: NativeToolDefinition = {
      name: 'wait',
      inputSchema: { type: 'object' },
      run: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.signal.addEventListener('abort', () => reject(new Error('stopped')));
          started();
        }),
    };
    const { host, spans, clock } = start({ tools: [waiting] });
    const run = async (options: { timeoutMs?: number; signal?: AbortSignal }, then: () => void) => {
      const running = new Promise<void>((resolve) => (started = resolve));
      const pending = host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'wait', args: {}, ...options });
      await running;
      then();
      return (await pending).outcome;
    };

    expect(await run({ timeoutMs: 100 }, () => clock.advance(100))).toBe('timeout');
    const controller = new AbortController();
    expect(await run({ signal: controller.signal }, () => controller.abort())).toBe('cancelled');

    const [timedOut, cancelled] = spans().filter((s) => s.name === 'execute_tool wait');
    expect(timedOut?.attributes['error.type']).toBe('timeout');
    expect(timedOut?.status.code).toBe(SpanStatusCode.ERROR);
    expect(cancelled?.attributes['error.type']).toBe('cancelled');
    expect(cancelled?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('marks a failing call with error.type and an ERROR status', async () => {
    const { host, named } = start();
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'explode', args: {} });
    expect(result.outcome).toBe('tool_error');

    const span = named('execute_tool explode');
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.attributes['airlock.outcome']).toBe('tool_error');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/disk is full/);
  });

  it('keeps argument values off every span unless recordArguments is set', async () => {
    const plain = start();
    await plain.host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'lookup', args: { token: SECRET } });
    expect(plain.spans().length).toBeGreaterThan(0);
    expect(JSON.stringify(plain.spans().map((s) => s.attributes))).not.toContain(SECRET);
    expect(plain.named('execute_tool lookup').attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    await plain.host.close();

    const recording = start({ telemetry: { recordArguments: true } });
    await recording.host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'lookup', args: { token: SECRET } });
    const span = recording.named('execute_tool lookup');
    expect(JSON.parse(String(span.attributes['gen_ai.tool.call.arguments']))).toEqual({ token: SECRET });
  });

  it('gives an MCP call the extension type and its server, and a question from the server an elicitation child', async () => {
    const demo = demoServer();
    const { host, named } = start({
      servers: [demo.config],
      surface: new ScriptedSurface({ permissions: ['allow_once'], elicitations: [{ action: 'decline' }] }),
    });
    await host.servers.settled();
    const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'demo__ask_user', args: {} });
    expect(result.outcome).toBe('success');

    const span = named('execute_tool demo__ask_user');
    expect(span.attributes['gen_ai.tool.type']).toBe('extension');
    expect(span.attributes['airlock.server.id']).toBe('demo');
    const question = named('airlock.elicitation');
    expect(question.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(question.attributes).toEqual({
      'airlock.elicitation.mode': 'form',
      'airlock.server.id': 'demo',
      'airlock.elicitation.action': 'decline',
      'airlock.elicitation.end': 'answered',
    });
  });

  it('listens to nothing, so the call path builds no event for it, until a tracer provider is registered', () => {
    const clock = new FakeClock();
    const bare = new HostEvents();
    attachToolSpans(bare, clock, undefined);
    expect(bare.listening('invocation.transition')).toBe(false);
    expect(bare.listening('permission.decided')).toBe(false);

    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    try {
      const wired = new HostEvents();
      attachToolSpans(wired, clock, {});
      expect(wired.listening('invocation.transition')).toBe(true);
      expect(wired.listening('permission.decided')).toBe(true);
    } finally {
      trace.disable();
    }
  });
});
