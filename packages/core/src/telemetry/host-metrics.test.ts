import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { metrics } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { HostEvents } from '../events/host-events.js';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { MemoryStore } from '../storage/memory/memory-store.js';
import { demoServer, SCOPE } from '../testing/demo-fixture.js';
import { FakeClock } from '../testing/fake-clock.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';
import { attachHostMetrics } from './host-metrics.js';

/** A reader the test collects from when it wants (the SDK's own in-memory collection, no exporter). */
class CollectingReader extends MetricReader {
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Registers a meter provider (as an application does before creating its host); returns what it collected. */
function meterProvider(): () => Promise<Map<string, DataPoint<unknown>[]>> {
  const reader = new CollectingReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  cleanup.push(async () => {
    metrics.disable();
    await provider.shutdown();
  });
  return async () => {
    const { resourceMetrics } = await reader.collect();
    const points = new Map<string, DataPoint<unknown>[]>();
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) points.set(metric.descriptor.name, metric.dataPoints);
    }
    return points;
  };
}

async function demoHost(): Promise<Host> {
  const demo = demoServer();
  const host = createHost({
    store: new MemoryStore(),
    // A person denies what no rule allows: run_command is asked about, and denied.
    surface: new ScriptedSurface('deny_once'),
    servers: [demo.config],
    permissions: {
      rules: [
        { effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'test' },
        { effect: 'allow', layer: 'host', server: 'demo', tool: 'protocol_error', source: 'test' },
      ],
    },
  });
  cleanup.push(() => rmSync(dirname(demo.log), { recursive: true, force: true }));
  cleanup.push(() => host.close());
  await host.servers.settled();
  return host;
}

const call = (host: Host, tool: string, args: Record<string, unknown> = {}) =>
  host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool, args });

/** The point whose attributes include `attributes`. */
function pointWith<T>(points: DataPoint<unknown>[] | undefined, attributes: Attributes): DataPoint<T> {
  const found = points?.find((p) => Object.entries(attributes).every(([k, v]) => p.attributes[k] === v));
  if (found === undefined) throw new Error(`no point with ${JSON.stringify(attributes)} in ${JSON.stringify(points)}`);
  return found as DataPoint<T>;
}

describe('metrics of tool calls', () => {
  it('times each tools/call sent in mcp.client.operation.duration, with error.type when the server refused it', async () => {
    const collect = meterProvider();
    const host = await demoHost();
    expect((await call(host, 'demo__echo', { text: 'hi' })).outcome).toBe('success');
    expect((await call(host, 'demo__protocol_error')).outcome).not.toBe('success');

    const duration = (await collect()).get('mcp.client.operation.duration');
    const ok = pointWith<Histogram>(duration, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo' });
    expect(ok.value.count).toBe(1);
    expect(ok.attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.protocol.version': '2025-11-25' });
    expect(ok.attributes['error.type']).toBeUndefined();
    const refused = pointWith<Histogram>(duration, { 'gen_ai.tool.name': 'protocol_error' });
    expect(refused.attributes['error.type']).toBe('-32602');
    expect(refused.value.count).toBe(1);
  });

  it('counts calls by outcome in airlock.calls, and times the person who answered in airlock.permission.wait.duration', async () => {
    const collect = meterProvider();
    const host = await demoHost();
    await call(host, 'demo__echo', { text: 'one' });
    await call(host, 'demo__echo', { text: 'two' });
    expect((await call(host, 'demo__run_command', { command: 'ls' })).outcome).toBe('permission_denied');

    const collected = await collect();
    const calls = collected.get('airlock.calls');
    expect(pointWith<number>(calls, { 'airlock.outcome': 'success', 'airlock.server.id': 'demo' }).value).toBe(2);
    const denied = pointWith<number>(calls, { 'airlock.outcome': 'permission_denied' });
    expect(denied.value).toBe(1);
    expect(denied.attributes['error.type']).toBe('permission_denied');
    // Only the prompt a person answered is timed: the calls a rule allowed waited for no one.
    const wait = pointWith<Histogram>(collected.get('airlock.permission.wait.duration'), {
      'airlock.permission.decision': 'deny_once',
      'airlock.permission.origin': 'user_prompt',
    });
    expect(wait.value.count).toBe(1);
    expect(
      pointWith<number>(collected.get('airlock.questions.waiting'), { 'airlock.question.kind': 'permission' }).value,
    ).toBe(0);
    // No tools/call went out for the denied call.
    expect(
      pointWith<Histogram>(collected.get('mcp.client.operation.duration'), { 'gen_ai.tool.name': 'echo' }).value.count,
    ).toBe(2);
    expect(
      collected.get('mcp.client.operation.duration')?.some((p) => p.attributes['gen_ai.tool.name'] === 'run_command'),
    ).toBe(false);
  });

  it('listens to nothing while no meter provider is registered', () => {
    const events = new HostEvents();
    attachHostMetrics(events, new FakeClock());
    expect(events.listening('invocation.transition')).toBe(false);
    expect(events.listening('permission.decided')).toBe(false);
  });
});
