// Runs the CLI from source (tests spawn it as a user would run `torana`), exiting as bin/torana.js does.
import { runAsProcess } from '../../src/cli/main.js';

await runAsProcess(process.argv);
