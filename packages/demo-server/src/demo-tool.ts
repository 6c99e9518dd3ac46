import type {
  CallToolResult,
  InputRequiredResult,
  ProtocolEra,
  Server,
  ServerContext,
  Tool,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { DemoState } from './demo-state.js';

/** A demo tool either answers, or (elicitation tools) asks for input first and is re-entered with the answer. */
export type DemoToolResult = CallToolResult | InputRequiredResult;

/** What a demo tool's handler may use besides its arguments. */
export interface DemoToolContext {
  /** The SDK's per-request context: abort signal, `_meta.progressToken`, related notifications, input responses. */
  readonly request: ServerContext;
  /** The instance answering the call, for pushes only the 2025 era has (the elicitation-complete notification). */
  readonly server: Server;
  /** State shared by every instance of this process. */
  readonly state: DemoState;
  /** The protocol era this instance serves: 2025-11-25 (`legacy`) or 2026-07-28 (`modern`). */
  readonly era: ProtocolEra;
  /** Tells every connected client that the tool list changed. */
  readonly toolsChanged: () => void;
  /** Ends the process (the `crash` tool). */
  readonly exit: (code: number) => void;
}

/**
 * One tool of the demo server: its wire definition and its handler.
 *
 * The demo keeps its own tool table on the low-level `Server` rather than `McpServer.registerTool`, because it must do
 * what `McpServer` deliberately prevents: answer a `tools/call` with a JSON-RPC error (`McpServer` turns every thrown
 * error into an `isError` result), send structuredContent that breaks its own outputSchema (`McpServer` refuses it),
 * paginate `tools/list`, and log a call before its arguments are even validated.
 */
export interface DemoTool {
  readonly name: string;
  /** The `tools/list` entry, built on every listing so a tool can change its own definition. */
  definition(state: DemoState): Tool;
  /** The advertised outputSchema, which the SDK's result projection needs to shape structuredContent per era. */
  readonly outputSchemaJson: Record<string, unknown> | undefined;
  /** Validates the arguments (a mismatch is an `isError` result the model can correct) and runs the handler. */
  call(args: unknown, context: DemoToolContext): Promise<DemoToolResult>;
}

/** The parts a tool is written with; {@link defineTool} turns them into a {@link DemoTool}. */
export interface DemoToolSpec<Input extends z.ZodObject> {
  readonly name: string;
  readonly title: string;
  /** One line; a function when it depends on state (`shape_shifter`). */
  readonly description: string | ((state: DemoState) => string);
  readonly input: Input;
  readonly output?: z.ZodObject;
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
  readonly run: (args: z.output<Input>, context: DemoToolContext) => DemoToolResult | Promise<DemoToolResult>;
}

/** Builds a {@link DemoTool} from zod schemas, converting them to JSON Schema 2020-12 once, as the SDK would. */
export function defineTool<Input extends z.ZodObject>(spec: DemoToolSpec<Input>): DemoTool {
  const inputSchema = z.toJSONSchema(spec.input, { io: 'input', target: 'draft-2020-12' }) as Tool['inputSchema'];
  const outputSchemaJson =
    spec.output === undefined
      ? undefined
      : (z.toJSONSchema(spec.output, { io: 'output', target: 'draft-2020-12' }) as Record<string, unknown>);
  const describe = spec.description;
  return {
    name: spec.name,
    outputSchemaJson,
    definition: (state) => ({
      name: spec.name,
      title: spec.title,
      description: typeof describe === 'string' ? describe : describe(state),
      inputSchema,
      ...(outputSchemaJson !== undefined && { outputSchema: outputSchemaJson }),
      ...(spec.annotations !== undefined && { annotations: spec.annotations }),
      ...(spec._meta !== undefined && { _meta: spec._meta }),
    }),
    call: async (args, context) => {
      const parsed = spec.input.safeParse(args ?? {});
      if (!parsed.success) {
        return toolError(`Invalid arguments for ${spec.name}: ${z.prettifyError(parsed.error)}`);
      }
      return spec.run(parsed.data, context);
    },
  };
}

/** A result of one text block. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A tool-level failure: the call ran and failed; the model sees the text and may try again. */
export function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
