// Runs the CLI from source (tests spawn it as a user would run `torana`).
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv);
