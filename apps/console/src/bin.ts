#!/usr/bin/env node
import { runConsole } from './run-console.js';

process.exitCode = await runConsole(process.argv.slice(2));
