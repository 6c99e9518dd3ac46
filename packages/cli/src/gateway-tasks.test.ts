import { createHash } from 'node:crypto';
import { Client, specTypeSchemas, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../../test/support/cli/run-cli.js';
import { CliGateways, EVERYTHING_BIN } from '../../../test/support/gateway/cli-gateways.js';

// Tasks (2025-11-25) through `airlock gateway`, with server-everything behind it: its simulate-research-query tool
// runs only as a task (four stages of a second each).
const RESEARCH = 'everything__simulate-research-query';
/** How long server-everything keeps a research task (its own choice, whatever ttl the host asks for). */
const EVERYTHING_TTL_MS = 300_000;
const GRACE = 'grace-tasks-token-0123456789abcdef';
const HOPPER = 'hopper-tasks-token-0123456789abcdef';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const bench = new CliGateways();
afterEach(() => bench.end());

/** A config with server-everything and the given rules and gateway section; the gateway's arguments. */
function workspace(rules: object[] = [], gateway?: object): string[] {
  const everything = { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] };
  const w = bench.workspace('airlock-gateway-tasks-', { mcpServers: { everything }, permissions: { rules }, gateway });
  return ['gateway', '--config', w.config, '--store', w.store, '--user', 'ada'];
}

/** A client that makes task-augmented calls (and answers questions with allow once), or a plain one. */
function client(options: { tasks: boolean }) {
  const asked: ElicitRequestFormParams[] = [];
  const made = new Client(
    { name: 'tasks', version: '1' },
    {
      capabilities: {
        elicitation: { form: {} },
        ...(options.tasks ? { tasks: { requests: { tools: { call: {} } } } } : {}),
      },
    },
  );
  made.setRequestHandler('elicitation/create', (request) => {
    const params = request.params as ElicitRequestFormParams;
    asked.push(params);
    // The gateway's consent form has a decision; the research tool's own question, an interpretation to pick.
    const choice = params.requestedSchema.properties['interpretation'] as { oneOf?: { const: string }[] } | undefined;
    const content: Record<string, string> =
      choice === undefined ? { decision: 'allow_once' } : { interpretation: choice.oneOf![0]!.const };
    return Promise.resolve({ action: 'accept' as const, content });
  });
  bench.client(made);
  return { client: made, asked };
}

const callAsTask = (c: Client, name: string, args: object) =>
  c.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } },
    specTypeSchemas.CreateTaskResult,
  );
const getTask = (c: Client, taskId: string) =>
  c.request({ method: 'tasks/get', params: { taskId } }, specTypeSchemas.GetTaskResult);
const taskResult = (c: Client, taskId: string) =>
  c.request({ method: 'tasks/result', params: { taskId } }, specTypeSchemas.CallToolResult);
const listTasks = (c: Client) => c.request({ method: 'tasks/list', params: {} }, specTypeSchemas.ListTasksResult);

function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

describe('airlock gateway: tasks passed through as tasks', () => {
  it('answers a task-augmented call with the task once asked, then serves its status and result', async () => {
    const { client: c, asked } = client({ tasks: true });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...workspace()] }));
    expect(c.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await c.listTools();
    expect(tools.find((tool) => tool.name === RESEARCH)?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'everything__echo')?.execution).toBeUndefined();

    const { task } = await callAsTask(c, RESEARCH, { topic: 'gateways' });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toContain(RESEARCH);
    expect(task.status).toBe('working');
    expect((await getTask(c, task.taskId)).status).toMatch(/^(working|completed)$/);
    expect((await listTasks(c)).tasks.map((listed) => listed.taskId)).toContain(task.taskId);

    const result = await taskResult(c, task.taskId);
    expect(textOf(result)).toContain('Research Report: gateways');
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
    expect(await getTask(c, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'completed' });
    expect(asked).toHaveLength(1);

    await expect(callAsTask(c, 'everything__echo', { message: 'x' })).rejects.toMatchObject({ code: -32601 });
  });

  it('reports the ttl the server gave its task, not the one the client asked for, in tasks/get and tasks/list', async () => {
    const { client: c } = client({ tasks: true });
    const args = workspace([{ effect: 'allow', server: 'everything', tool: 'simulate-research-query' }]);
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...args] }));

    const { task } = await callAsTask(c, RESEARCH, { topic: 'lifetimes' });
    expect(task.ttl).toBe(EVERYTHING_TTL_MS);
    expect((await getTask(c, task.taskId)).ttl).toBe(EVERYTHING_TTL_MS);
    const listed = (await listTasks(c)).tasks.find((open) => open.taskId === task.taskId);
    expect(listed?.ttl).toBe(EVERYTHING_TTL_MS);
    await taskResult(c, task.taskId);
    expect(await getTask(c, task.taskId)).toMatchObject({ status: 'completed', ttl: EVERYTHING_TTL_MS });
  });

  it("passes the task's own question to the client after the call was answered with the task", async () => {
    const { client: c, asked } = client({ tasks: true });
    const args = workspace([{ effect: 'allow', server: 'everything', tool: 'simulate-research-query' }]);
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...args] }));

    const { task } = await callAsTask(c, RESEARCH, { topic: 'python', ambiguous: true });
    expect(asked).toHaveLength(0);
    const result = await taskResult(c, task.taskId);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.message).toMatch(/^Server "everything" asks \(during everything__simulate-research-query\)/);
    const picked = (asked[0]!.requestedSchema.properties['interpretation'] as { oneOf: { const: string }[] }).oneOf[0]!;
    expect(textOf(result)).toContain(`**Clarification**: ${picked.const}`);
  });

  it("keeps a task's id across a restart of the gateway: a new session of its user still reads its end", async () => {
    const args = workspace([{ effect: 'allow', server: 'everything', tool: 'simulate-research-query' }]);
    const before = client({ tasks: true }).client;
    await before.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...args] }));
    const { task } = await callAsTask(before, RESEARCH, { topic: 'restarts' });
    await before.close();

    const after = client({ tasks: true }).client;
    await after.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...args] }));
    // The restarted host follows the task again; server-everything restarted with it and forgot it, so it is lost.
    const result = await taskResult(after, task.taskId);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/server "everything" no longer knows the task/);
    expect(await getTask(after, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'failed' });
  });

  it('waits for the task and answers the call for a client that does not speak tasks', async () => {
    const { client: c } = client({ tasks: false });
    const args = workspace([{ effect: 'allow', server: 'everything', tool: 'simulate-research-query' }]);
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, ...args] }));
    const { tools } = await c.listTools();
    expect(tools.find((tool) => tool.name === RESEARCH)?.execution).toBeUndefined();

    const result = await c.callTool({ name: RESEARCH, arguments: { topic: 'waiting' } });
    expect(textOf(result as { content: { type: string; text?: string }[] })).toContain('Research Report: waiting');
  });

  it("serves a task to its tenant's other sessions only, and cancels it there", async () => {
    const users = { grace: { tokenSha256: sha256(GRACE) }, hopper: { tokenSha256: sha256(HOPPER) } };
    const args = workspace([{ effect: 'allow', server: 'everything', tool: 'simulate-research-query' }], { users });
    const url = await bench.listening(args);
    const session = async (token: string) => {
      const { client: c } = client({ tasks: true });
      await c.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      return c;
    };

    const first = await session(GRACE);
    const { task } = await callAsTask(first, RESEARCH, { topic: 'tenants' });

    const hopper = await session(HOPPER);
    await expect(getTask(hopper, task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect((await listTasks(hopper)).tasks).toEqual([]);

    const second = await session(GRACE);
    expect(await getTask(second, task.taskId)).toMatchObject({ taskId: task.taskId, status: 'working' });
    await expect(
      hopper.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, specTypeSchemas.CancelTaskResult),
    ).rejects.toMatchObject({ code: -32602 });
    const cancelled = await second.request(
      { method: 'tasks/cancel', params: { taskId: task.taskId } },
      specTypeSchemas.CancelTaskResult,
    );
    expect(cancelled.status).toBe('cancelled');
    const result = await taskResult(first, task.taskId);
    expect(result.isError).toBe(true);
    expect(await getTask(first, task.taskId)).toMatchObject({ status: 'cancelled' });
  });
});
