import type { Attributes } from '@opentelemetry/api';
import type { Clock } from '../clock.js';
import type { HostEventMap, HostEventName, HostListener } from '../events/host-events.js';
import { hostMeter } from '../otel/host-meter.js';
import { callErrorType } from './call-error-type.js';

/** The part of the host's emitter the metrics listen to. */
interface EventSource {
  on<E extends HostEventName>(name: E, listener: HostListener<E>): () => void;
}

/** Bucket bounds for a person's answer (seconds): from a click to a prompt left open until it times out. */
const WAIT_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600];

/**
 * The host's own metrics, from its events, through the global meter of `@opentelemetry/api`:
 * - `airlock.calls` (counter): calls ended, by `airlock.outcome` (and `error.type` when one failed), caller and server;
 * - `airlock.permission.wait.duration` (histogram, seconds): how long a person took to answer a permission prompt, by
 *   decision and origin (a prompt that timed out counts too);
 * - `airlock.questions.waiting` (up-down counter): permission prompts and server questions open now, by kind.
 * Nothing is listened to when no meter provider was registered before `createHost`. Returns the detach.
 */
export function attachHostMetrics(events: EventSource, clock: Clock): () => void {
  const meter = hostMeter();
  if (meter === undefined) return () => undefined;
  const calls = meter.createCounter('airlock.calls', { description: 'Tool calls ended, by outcome.' });
  const wait = meter.createHistogram('airlock.permission.wait.duration', {
    unit: 's',
    description: 'How long a person took to answer a permission prompt.',
    advice: { explicitBucketBoundaries: WAIT_BUCKETS },
  });
  const waiting = meter.createUpDownCounter('airlock.questions.waiting', {
    description: 'Permission prompts and server questions waiting for a person.',
  });
  /** When each open prompt was asked (monotonic ms), by its call. */
  const asked = new Map<string, number>();
  const questions = new Set<string>();

  const onTransition = ({ invocation }: HostEventMap['invocation.transition']): void => {
    if (invocation.outcome === null) return;
    const attributes: Attributes = { 'airlock.outcome': invocation.outcome, 'airlock.caller': invocation.caller.kind };
    if (invocation.serverId !== null) attributes['airlock.server.id'] = invocation.serverId;
    const errorType = callErrorType(invocation);
    if (errorType !== undefined) attributes['error.type'] = errorType;
    calls.add(1, attributes);
  };
  const onAsked = ({ request }: HostEventMap['permission.requested']): void => {
    if (asked.has(request.invocationId)) return;
    asked.set(request.invocationId, clock.monotonic());
    waiting.add(1, { 'airlock.question.kind': 'permission' });
  };
  const onDecided = ({ request, decision, origin }: HostEventMap['permission.decided']): void => {
    const since = asked.get(request.invocationId);
    if (since === undefined) return;
    asked.delete(request.invocationId);
    waiting.add(-1, { 'airlock.question.kind': 'permission' });
    const seconds = (clock.monotonic() - since) / 1000;
    wait.record(seconds, { 'airlock.permission.decision': decision, 'airlock.permission.origin': origin });
  };
  const onQuestion = ({ request }: HostEventMap['elicitation.requested']): void => {
    if (questions.has(request.id)) return;
    questions.add(request.id);
    waiting.add(1, { 'airlock.question.kind': 'elicitation' });
  };
  const onClosed = ({ request }: HostEventMap['elicitation.closed']): void => {
    if (!questions.delete(request.id)) return;
    waiting.add(-1, { 'airlock.question.kind': 'elicitation' });
  };

  const detach = [
    events.on('invocation.transition', onTransition),
    events.on('permission.requested', onAsked),
    events.on('permission.decided', onDecided),
    events.on('elicitation.requested', onQuestion),
    events.on('elicitation.closed', onClosed),
  ];
  return () => {
    for (const off of detach) off();
  };
}
