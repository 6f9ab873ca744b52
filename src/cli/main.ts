#!/usr/bin/env node
// The `toolloop` command (package.json "bin"): see run-cli.ts for the commands and exit codes.
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr });
process.exitCode = code;
// Servers and timers of a finished command must not keep the process alive.
setTimeout(() => process.exit(code), 200).unref();
