import { SpanKind, SpanStatusCode, context, createContextKey, propagation, trace } from '@opentelemetry/api';
import type { Attributes, Context, Histogram, Span, Tracer } from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import { INSTRUMENTATION_NAME, perMeterProvider } from './host-meter.js';

/** Where a traced call's context keeps the host's tracer, so the requests it sends are traced by the same one. */
const HOST_TRACER = createContextKey('@airlock/core tracer');

/**
 * The context a tool call runs in while it is traced: its `execute_tool` span active, and the host's tracer, which
 * the MCP requests sent for it find there (see {@link traceMcpRequest}).
 */
export function callTraceContext(parent: Context, span: Span, tracer: Tracer): Context {
  return trace.setSpan(parent, span).setValue(HOST_TRACER, tracer);
}

/** The server a request goes to, as a connection knows it (`ServerConnection` is one). */
export interface McpPeer {
  readonly config: { readonly transport: 'stdio' | 'http'; readonly url?: string };
  readonly protocolVersion: string | undefined;
  readonly sessionId: string | undefined;
}

/** The bucket bounds the MCP semantic conventions advise for `mcp.client.operation.duration` (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];

const operationDuration = perMeterProvider((meter) =>
  meter.createHistogram('mcp.client.operation.duration', {
    unit: 's',
    description: 'How long an MCP request the host sent took, from sending it to its answer.',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  }),
);

/**
 * One MCP request the host sends, traced and timed after the OpenTelemetry MCP semantic conventions: a CLIENT span
 * `{mcp.method.name} {target}`, child of the active span (a call's `execute_tool`), and its duration in
 * `mcp.client.operation.duration`. `meta` is what goes into the request's `params._meta` (`traceparent`,
 * `tracestate`), so a server that traces joins the trace.
 */
export interface McpRequestTrace {
  /** The trace context for `params._meta`; undefined when only the duration is recorded. */
  readonly meta: Readonly<Record<string, string>> | undefined;
  /** The JSON-RPC id the request went out with, when the sender knows it. */
  requestId(id: string | number): void;
  /** Ends the span and records the duration when `request` settles; resolves or rejects as it does. */
  settle<T>(request: Promise<T>): Promise<T>;
}

/**
 * Starts tracing one request, or returns undefined (at the cost of one context lookup and one identity check) when
 * there is nothing to record: no host tracer in the active context (the request is not sent for a traced call) and
 * no meter provider registered.
 */
export function traceMcpRequest(
  method: string,
  target: string | undefined,
  clock: Clock,
  peer: McpPeer,
): McpRequestTrace | undefined {
  const active = context.active();
  // A tool call's own tracer; else, under an application's recording span (a resource read it traces), the global one.
  const tracer =
    (active.getValue(HOST_TRACER) as Tracer | undefined) ??
    (trace.getSpan(active)?.isRecording() === true ? trace.getTracer(INSTRUMENTATION_NAME) : undefined);
  const duration = operationDuration();
  if (tracer === undefined && duration === undefined) return undefined;
  return new RequestTrace(method, target, clock, peer, active, tracer, duration);
}

/**
 * Sends one request traced and timed like {@link traceMcpRequest}: `send` gets the `_meta` to put on the request
 * (undefined when nothing is traced).
 */
export function sendTraced<T>(
  request: { readonly method: string; readonly target?: string; readonly clock: Clock; readonly peer: McpPeer },
  send: (meta: Readonly<Record<string, string>> | undefined) => Promise<T>,
): Promise<T> {
  const traced = traceMcpRequest(request.method, request.target, request.clock, request.peer);
  return traced === undefined ? send(undefined) : traced.settle(send(traced.meta));
}

class RequestTrace implements McpRequestTrace {
  readonly meta: Readonly<Record<string, string>> | undefined;
  readonly #span: Span | undefined;
  readonly #attributes: Attributes;
  readonly #clock: Clock;
  readonly #startedAt: number;
  readonly #duration: Histogram | undefined;

  constructor(
    method: string,
    target: string | undefined,
    clock: Clock,
    peer: McpPeer,
    active: Context,
    tracer: Tracer | undefined,
    duration: Histogram | undefined,
  ) {
    this.#clock = clock;
    this.#duration = duration;
    this.#startedAt = clock.monotonic();
    this.#attributes = peerAttributes(method, target, peer);
    if (tracer === undefined) return;
    const span = tracer.startSpan(
      target === undefined ? method : `${method} ${target}`,
      { kind: SpanKind.CLIENT, startTime: clock.now(), attributes: this.#attributes },
      active,
    );
    this.#span = span;
    this.meta = traceMeta(trace.setSpan(active, span), span);
  }

  requestId(id: string | number): void {
    this.#span?.setAttribute('jsonrpc.request.id', String(id));
  }

  settle<T>(request: Promise<T>): Promise<T> {
    return request.then(
      (value) => {
        const failed = (value as { isError?: unknown } | undefined)?.isError === true;
        this.#end(failed ? 'tool_error' : undefined, failed ? 'the tool answered isError' : undefined);
        return value;
      },
      (error: unknown) => {
        this.#end(errorType(error), error instanceof Error ? error.message : String(error));
        throw error;
      },
    );
  }

  #end(errorTypeValue: string | undefined, message: string | undefined): void {
    const seconds = (this.#clock.monotonic() - this.#startedAt) / 1000;
    const attributes =
      errorTypeValue === undefined ? this.#attributes : { ...this.#attributes, 'error.type': errorTypeValue };
    this.#duration?.record(seconds, metricAttributes(attributes));
    if (this.#span === undefined) return;
    if (errorTypeValue !== undefined) {
      this.#span.setAttribute('error.type', errorTypeValue);
      this.#span.setStatus({ code: SpanStatusCode.ERROR, ...(message === undefined ? {} : { message }) });
    }
    this.#span.end(this.#clock.now());
  }
}

/** The span's attributes: the method, its target, the protocol, and where the server is. */
function peerAttributes(method: string, target: string | undefined, peer: McpPeer): Attributes {
  const attributes: Attributes = { 'mcp.method.name': method };
  if (method === 'tools/call' && target !== undefined) {
    attributes['gen_ai.operation.name'] = 'execute_tool';
    attributes['gen_ai.tool.name'] = target;
  } else if (method === 'prompts/get' && target !== undefined) attributes['gen_ai.prompt.name'] = target;
  else if (method === 'resources/read' && target !== undefined) attributes['mcp.resource.uri'] = target;
  if (peer.protocolVersion !== undefined) attributes['mcp.protocol.version'] = peer.protocolVersion;
  if (peer.config.transport === 'stdio') {
    attributes['network.transport'] = 'pipe';
    return attributes;
  }
  attributes['network.transport'] = 'tcp';
  attributes['network.protocol.name'] = 'http';
  if (peer.sessionId !== undefined) attributes['mcp.session.id'] = peer.sessionId;
  const url = URL.canParse(peer.config.url ?? '') ? new URL(peer.config.url ?? '') : undefined;
  if (url !== undefined) {
    attributes['server.address'] = url.hostname.replace(/^\[|\]$/g, '');
    attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  }
  return attributes;
}

/** The duration's attributes: the span's, less what has no bound (the session, the resource). */
function metricAttributes(attributes: Attributes): Attributes {
  const { 'mcp.session.id': _session, 'mcp.resource.uri': _uri, ...kept } = attributes;
  return kept;
}

/**
 * The trace context for `params._meta`: what the application's propagator writes (W3C trace context with the Node
 * SDK's defaults), else `traceparent` and `tracestate` written here, since a server reads those keys by convention.
 */
function traceMeta(withSpan: Context, span: Span): Record<string, string> {
  const meta: Record<string, string> = {};
  propagation.inject(withSpan, meta);
  if (meta['traceparent'] !== undefined) return meta;
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  meta['traceparent'] = `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, '0')}`;
  const state = traceState?.serialize();
  if (state !== undefined && state !== '') meta['tracestate'] = state;
  return meta;
}

/**
 * `error.type` of a failed request: the JSON-RPC error code a server answered (`-32602`), the SDK's or the host's
 * own code (`REQUEST_TIMEOUT`, `server_unavailable`), else the error's class name.
 */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' || typeof code === 'string') return String(code);
  return error instanceof Error ? error.constructor.name : '_OTHER';
}
