#!/usr/bin/env node
import { main } from './main.js';

// A reader that stops early (`airlock history | head -1`) closes the pipe: the output is no longer wanted, which is
// no failure. Any other error writing it is told on stderr.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`airlock: cannot write the output: ${error.message}\n`);
  process.exit(1);
});

process.exitCode = await main(process.argv.slice(2));
