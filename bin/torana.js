#!/usr/bin/env node
// The `torana` command: the compiled CLI entry point (built by `npm run build`, which `npm ci` runs).
import { runAsProcess } from '../dist/cli/main.js';

await runAsProcess(process.argv);
