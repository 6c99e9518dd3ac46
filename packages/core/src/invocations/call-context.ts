import type { Scope } from '../scope.js';
import type { ToolProgress, ToolRunContext } from '../tools/tool.js';
import type { TaskUpdate } from '../tools/tool-task.js';
import type { CallInFlight } from './call-in-flight.js';
import type { InvocationRecord } from '../store/invocation-record.js';

// What a call hands out with a field read late (its signal, its record) is an instance of a class, its getter on the
// prototype, never an object literal with `get x() {}`. V8 gives each evaluation of a literal with an accessor a map
// of its own, and maps live in the old generation: the dead map of every earlier call keeps that call's closures (and
// through them its arguments, records and result) alive through each young-generation collection, which then copies
// and promotes them. Measured on a native echo through host.invoke: about 3 MB promoted per scavenge and half the
// call thread's time in the collector with the literals, a few kilobytes with these classes.

/** Where a `RunContext` keeps what builds its signal: a symbol, not a private field, so a Proxy of it still reads it. */
const BUILD_SIGNAL = Symbol('buildSignal');

/**
 * The context a tool runs with (`ToolRunContext`): its signal is built when first read, by a getter on the prototype
 * (so a spread of the context does not copy `signal`: read it).
 */
export class RunContext implements ToolRunContext {
  readonly [BUILD_SIGNAL]: () => AbortSignal;
  readonly scope: Scope;
  readonly onProgress: (progress: ToolProgress) => void;
  declare readonly asTask?: boolean;
  declare readonly onTask?: (update: TaskUpdate) => void;

  constructor(
    signal: () => AbortSignal,
    scope: Scope,
    onProgress: (progress: ToolProgress) => void,
    asTask = false,
    onTask?: (update: TaskUpdate) => void,
  ) {
    this[BUILD_SIGNAL] = signal;
    this.scope = scope;
    this.onProgress = onProgress;
    // Present only when set, as the literal had them: a tool tells a task call by `asTask === true` or `onTask`.
    if (asTask) (this as { asTask?: boolean }).asTask = true;
    if (onTask !== undefined) (this as { onTask?: (update: TaskUpdate) => void }).onTask = onTask;
  }

  get signal(): AbortSignal {
    return this[BUILD_SIGNAL]();
  }
}

/** A call in flight as the pipeline hands it to what runs around it: its record and signal read when asked for. */
export class LiveCall implements CallInFlight {
  readonly serverId: string | null;
  readonly scope: Scope;
  readonly hold: () => () => void;
  readonly #invocation: () => InvocationRecord;
  readonly #signal: () => AbortSignal;

  constructor(call: {
    readonly serverId: string | null;
    readonly scope: Scope;
    readonly hold: () => () => void;
    readonly invocation: () => InvocationRecord;
    readonly signal: () => AbortSignal;
  }) {
    this.serverId = call.serverId;
    this.scope = call.scope;
    this.hold = call.hold;
    this.#invocation = call.invocation;
    this.#signal = call.signal;
  }

  get invocation(): InvocationRecord {
    return this.#invocation();
  }

  get signal(): AbortSignal {
    return this.#signal();
  }
}
