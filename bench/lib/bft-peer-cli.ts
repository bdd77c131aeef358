// One peer of the bench's BFT network: the CLI run from source (`torana start --dir <peer dir>`), as a
// user runs it, exiting as bin/torana.js does. Spawned by bft-network.ts.
import { runAsProcess } from '../../src/cli/main.js';

await runAsProcess(process.argv);
