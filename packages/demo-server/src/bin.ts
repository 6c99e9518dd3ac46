#!/usr/bin/env node
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { fileCallLog } from './call-log.js';
import { DEMO_USAGE, parseDemoArgs } from './demo-args.js';
import { createDemoServer } from './demo-server.js';
import { DemoState } from './demo-state.js';
import { startHttpDemoServer } from './http-demo-server.js';

const parsed = parseDemoArgs(process.argv.slice(2));
if (!parsed.ok) {
  process.stderr.write(`airlock-demo-server: ${parsed.error}\n\n${DEMO_USAGE}\n`);
  process.exit(2);
}
const { args } = parsed;
if (args.help) {
  process.stdout.write(`${DEMO_USAGE}\n`);
  process.exit(0);
}

const logPath = process.env['AIRLOCK_DEMO_CALL_LOG'];
/** What --garbage-on-call writes: a colored panic and an HTML page, as a server that logs to stdout might. */
const GARBAGE = `\u001b[31mpanic:\u001b[0m unexpected token < in JSON at position 0 ${'<html><body>oops</body></html>'.repeat(20)}\n`;
const demo = {
  ...(args.pageSize !== undefined && { pageSize: args.pageSize }),
  ...(args.slowListMs !== undefined && { slowListMs: args.slowListMs }),
  ...(logPath !== undefined && logPath !== '' && { callLog: fileCallLog(logPath) }),
  ...(args.garbageOnCall === true && { swallowCall: () => void process.stdout.write(GARBAGE) }),
  ...(args.hugeListMb !== undefined && { hugeListMb: args.hugeListMb }),
  ...(args.legacyForms === true && { legacyForms: true }),
};
const onerror = (error: Error) => process.stderr.write(`airlock-demo-server: ${error.message}\n`);

if (args.transport === 'http') {
  const server = await startHttpDemoServer({
    port: args.port,
    demo,
    onerror,
    ...(args.modernOnly === true && { modernOnly: true }),
    ...(args.bearerToken !== undefined && { bearerToken: args.bearerToken }),
  });
  process.stderr.write(`listening ${server.url}\n`);
  const stop = () => void server.close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} else {
  // One process serves one connection: the state lives as long as it does.
  const state = new DemoState();
  serveStdio(({ era }) => createDemoServer({ ...demo, state, era }), {
    onerror,
    ...(args.modernOnly === true && { legacy: 'reject' as const }),
  });
}
