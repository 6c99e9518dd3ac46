import { ProxyTracerProvider, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import type { HostEventMap, HostEventName, HostListener } from '../events/host-events.js';
import type { CallInFlight } from '../invocations/call-in-flight.js';
import { INSTRUMENTATION_NAME } from '../otel/host-meter.js';
import { callTraceContext } from '../otel/mcp-request-trace.js';
import { callErrorType } from './call-error-type.js';

/** What `createHost({ telemetry })` takes. */
export interface TelemetryConfig {
  /**
   * Where spans go. Default: `trace.getTracer('@airlock/core')` of the global tracer provider, when one is registered
   * before `createHost`; with none registered (and no tracer given) nothing is listened to and calls cost nothing more.
   */
  readonly tracer?: Tracer;
  /**
   * Put the call's arguments (JSON) on its span as `gen_ai.tool.call.arguments`. Default false: arguments can hold
   * secrets and personal data, and a tracing backend is rarely the place for them.
   */
  readonly recordArguments?: boolean;
}

/** The part of the host's emitter the spans listen to. */
interface EventSource {
  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void;
}

/** The spans of a host's calls, once attached. */
export interface ToolSpans {
  /**
   * Runs an MCP call with its `execute_tool` span active (and the host's tracer in its context), so the `tools/call`
   * span is its child and the server gets its trace context. Undefined when nothing is traced: the call path is left
   * as it is. The span reaches the request through async context: the application registers a context manager (the
   * OpenTelemetry Node SDK does).
   */
  readonly around: (<T>(call: CallInFlight, run: () => Promise<T>) => Promise<T>) | undefined;
  readonly detach: () => void;
}

/** The name the spans' tracer has (the instrumentation scope a backend shows). */
export const TRACER_NAME = INSTRUMENTATION_NAME;

/** One open `execute_tool` span and when its call was created (the start of its permission span). */
interface OpenCall {
  readonly span: Span;
  readonly createdAt: number;
}

/**
 * True when spans would be recorded somewhere: a tracer was given, or an application registered a global tracer
 * provider (an OpenTelemetry SDK) before the host was created. Without either, the host does not listen at all, so
 * the call path builds no event for the spans.
 */
function tracingWanted(config: TelemetryConfig | undefined): boolean {
  if (config?.tracer !== undefined) return true;
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegateTracer(TRACER_NAME) !== undefined;
}

/**
 * Turns the host's own events into OpenTelemetry spans, following the GenAI semantic conventions for tool execution:
 * one `execute_tool {tool}` span (kind INTERNAL) per call, from its creation to its end, with `airlock.permission` and
 * `airlock.elicitation` children. It listens rather than sits in the call path, so the path stays as tuned, and it
 * goes through `@opentelemetry/api` only: the application picks the SDK and the exporter.
 */
export function attachToolSpans(events: EventSource, clock: Clock, config: TelemetryConfig | undefined): ToolSpans {
  if (!tracingWanted(config)) return { around: undefined, detach: () => undefined };
  const tracer = config?.tracer ?? trace.getTracer(TRACER_NAME);
  const recordArguments = config?.recordArguments === true;
  const open = new Map<string, OpenCall>();
  const elicitations = new Map<string, Span>();

  const onTransition = ({ invocation, from }: HostEventMap['invocation.transition']): void => {
    if (from === null) {
      const attributes: Attributes = {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': invocation.tool,
        // The model's id for the call when the caller gave it (so a trace joins the model's span to this one).
        'gen_ai.tool.call.id': invocation.modelCallId ?? invocation.id,
        'gen_ai.tool.type': invocation.serverId === null ? 'function' : 'extension',
        'airlock.caller': invocation.caller.kind,
      };
      if (invocation.serverId !== null) attributes['airlock.server.id'] = invocation.serverId;
      if (invocation.modelCallId !== undefined) attributes['airlock.invocation.id'] = invocation.id;
      if (recordArguments) attributes['gen_ai.tool.call.arguments'] = JSON.stringify(invocation.args);
      const span = tracer.startSpan(`execute_tool ${invocation.tool}`, {
        kind: SpanKind.INTERNAL,
        startTime: invocation.createdAt,
        attributes,
      });
      // A sampled-out or no-op span is not worth keeping: the call's later events then find nothing and do nothing.
      if (span.isRecording()) open.set(invocation.id, { span, createdAt: invocation.createdAt });
      else span.end();
      return;
    }
    if (invocation.outcome === null) return;
    const call = open.get(invocation.id);
    if (call === undefined) return;
    open.delete(invocation.id);
    call.span.setAttribute('airlock.outcome', invocation.outcome);
    const errorType = callErrorType(invocation);
    if (errorType !== undefined) {
      call.span.setAttribute('error.type', errorType);
      call.span.setStatus({ code: SpanStatusCode.ERROR, message: invocation.error?.message ?? errorType });
    }
    call.span.end(invocation.updatedAt);
  };

  const onDecided = ({ request, decision, origin }: HostEventMap['permission.decided']): void => {
    const call = open.get(request.invocationId);
    if (call === undefined) return;
    tracer
      .startSpan(
        'airlock.permission',
        {
          kind: SpanKind.INTERNAL,
          startTime: call.createdAt,
          attributes: { 'airlock.permission.decision': decision, 'airlock.permission.origin': origin },
        },
        trace.setSpan(context.active(), call.span),
      )
      .end(clock.now());
  };

  const onAsked = ({ request }: HostEventMap['elicitation.requested']): void => {
    const call = open.get(request.invocationId);
    if (call === undefined || elicitations.has(request.id)) return;
    const span = tracer.startSpan(
      'airlock.elicitation',
      {
        kind: SpanKind.INTERNAL,
        startTime: request.createdAt,
        attributes: { 'airlock.elicitation.mode': request.mode, 'airlock.server.id': request.serverId },
      },
      trace.setSpan(context.active(), call.span),
    );
    elicitations.set(request.id, span);
  };

  const onClosed = ({ request, action, end }: HostEventMap['elicitation.closed']): void => {
    const span = elicitations.get(request.id);
    if (span === undefined) return;
    elicitations.delete(request.id);
    span.setAttributes({ 'airlock.elicitation.action': action, 'airlock.elicitation.end': end });
    span.end(clock.now());
  };

  const detach = [
    events.on('invocation.transition', onTransition),
    events.on('permission.decided', onDecided),
    events.on('elicitation.requested', onAsked),
    events.on('elicitation.closed', onClosed),
  ];
  return {
    around: (call, run) => {
      // Reading the record finishes recording a call whose recording was put off: its span is open from then on.
      const open_ = call.serverId === null ? undefined : open.get(call.invocation.id);
      if (open_ === undefined) return run();
      return context.with(callTraceContext(context.active(), open_.span, tracer), run);
    },
    detach: () => {
      for (const off of detach) off();
    },
  };
}
