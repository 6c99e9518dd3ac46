import { systemClock } from '@airlock/core';
import type { Clock, Tool } from '@airlock/core';
import { parsePartialJson } from './partial-json.js';

/** A tool call's arguments as the model has streamed them so far, for the tool's view to show early. */
export interface PartialToolInput {
  /** The model's own id for the call: the call, once made, carries it as `modelCallId`. */
  readonly modelCallId: string;
  readonly tool: string;
  readonly serverId: string | null;
  /** Best effort: what the streamed JSON reads as so far (a half-written member left out). */
  readonly args: Readonly<Record<string, unknown>>;
}

/** The parts of the model's stream this reads (the AI SDK's `tool-input-*` and `tool-call` parts). */
export type ToolInputPart =
  | { readonly type: 'tool-input-start'; readonly id: string; readonly toolName: string }
  | { readonly type: 'tool-input-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'tool-input-end'; readonly id: string }
  | { readonly type: 'tool-call'; readonly toolCallId: string }
  | { readonly type: string };

/** How often a call's view is told of its growing input at most, by default. */
export const PARTIAL_INPUT_EVERY_MS = 100;

/** What is read of a tool here: its name, its server and whether it has a view. */
type ToolSeen = Pick<Tool, 'name' | 'origin' | 'resourceUri'>;

interface Streaming {
  readonly tool: ToolSeen;
  text: string;
  /** The JSON of the args last sent or waiting to be sent: an unchanged reading is not sent again. */
  json: string;
  waiting?: Readonly<Record<string, unknown>>;
  sentAt: number;
  cancelTimer?: () => void;
}

/**
 * Follows the tool calls a model streams and tells the page, for a tool with an MCP Apps view, the arguments read so
 * far: the first reading at once, then at most one every `everyMs` (the latest one, when the interval is over), and
 * nothing more once the input is whole or the call is made (the call's card then gives the view its whole input).
 *
 * Display only: what is sent here never reaches the permission gate, the history or the server. A call is made
 * only from the model's whole arguments, through `host.invoke`.
 */
export class PartialToolInputs {
  readonly #calls = new Map<string, Streaming>();
  readonly #withViews: ReadonlyMap<string, ToolSeen>;
  readonly #send: (input: PartialToolInput) => void;
  readonly #clock: Clock;
  readonly #everyMs: number;

  constructor(options: {
    /** The tools the model may call: only those with a view (`resourceUri`) are followed. */
    readonly tools: readonly ToolSeen[];
    readonly send: (input: PartialToolInput) => void;
    readonly clock?: Clock;
    readonly everyMs?: number;
  }) {
    this.#withViews = new Map(options.tools.filter((t) => t.resourceUri !== undefined).map((t) => [t.name, t]));
    this.#send = options.send;
    this.#clock = options.clock ?? systemClock;
    this.#everyMs = options.everyMs ?? PARTIAL_INPUT_EVERY_MS;
  }

  /** Reads one part of the model's stream; parts that are not about a tool's input are ignored. */
  take(part: ToolInputPart): void {
    if (part.type === 'tool-input-start' && 'toolName' in part) {
      const tool = this.#withViews.get(part.toolName);
      if (tool !== undefined) this.#calls.set(part.id, { tool, text: '', json: '', sentAt: -Infinity });
    } else if (part.type === 'tool-input-delta' && 'delta' in part) {
      this.#grow(part.id, part.delta);
    } else if (part.type === 'tool-input-end' && 'id' in part) {
      this.end(part.id);
    } else if (part.type === 'tool-call' && 'toolCallId' in part) {
      this.end(part.toolCallId);
    }
  }

  /** The call's input is whole (or the call is being made): nothing more is sent for it. */
  end(modelCallId: string): void {
    this.#calls.get(modelCallId)?.cancelTimer?.();
    this.#calls.delete(modelCallId);
  }

  /**
   * The model's stream as it comes, each part read here first; when the stream ends (or fails, or its reader stops)
   * every call followed ends with it, so no timer outlives the turn.
   */
  async *follow<Part extends ToolInputPart>(stream: AsyncIterable<Part>): AsyncGenerator<Part, void, undefined> {
    try {
      for await (const part of stream) {
        this.take(part);
        yield part;
      }
    } finally {
      this.close();
    }
  }

  /** Ends every call followed (the turn ended): no timer is left behind. */
  close(): void {
    for (const id of [...this.#calls.keys()]) this.end(id);
  }

  #grow(id: string, delta: string): void {
    const call = this.#calls.get(id);
    if (call === undefined) return;
    call.text += delta;
    const args = parsePartialJson(call.text);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return;
    const json = JSON.stringify(args);
    if (json === call.json) return;
    call.json = json;
    call.waiting = args as Record<string, unknown>;
    const wait = call.sentAt + this.#everyMs - this.#clock.monotonic();
    if (wait <= 0) this.#flush(id, call);
    else call.cancelTimer ??= this.#clock.setTimer(() => this.#flush(id, call), wait);
  }

  #flush(id: string, call: Streaming): void {
    call.cancelTimer?.();
    delete call.cancelTimer;
    const args = call.waiting;
    if (args === undefined || this.#calls.get(id) !== call) return;
    delete call.waiting;
    call.sentAt = this.#clock.monotonic();
    const { tool } = call;
    this.#send({
      modelCallId: id,
      tool: tool.name,
      serverId: tool.origin.kind === 'mcp' ? tool.origin.serverId : null,
      args,
    });
  }
}
