#!/usr/bin/env node
// The `torana` command: the compiled CLI entry point (built by `npm run build`, which `npm ci` runs).
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`torana: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
