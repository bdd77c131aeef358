// The simulated disk of one node: the block and state media (memory-faults.ts: a crash keeps only what
// was durable), and a SafetyStore whose saves become durable after a simulated fsync on the clock. A
// save still waiting when the node crashes is lost; a failed save rejects (the engine then stops, and
// the world restarts the node like a crash).

import type { SafetyStore } from '../consensus/bft/ports.js';
import type { SafetyState } from '../consensus/bft/types.js';
import { MemoryBlockMedium } from '../storage/memory-block-store.js';
import type { MemoryFaults } from '../storage/memory-faults.js';
import { MemoryStateMedium } from '../storage/memory-state-backend.js';
import type { SimClock } from './clock.js';
import type { Prng } from './prng.js';

export interface DiskFaults {
  /** Chance that one write (block append, state commit or safety save) fails. */
  writeFailP: number;
  /** Most simulated milliseconds one fsync takes. */
  syncMsMax: number;
}

export class SimDisk {
  readonly blocks = new MemoryBlockMedium();
  readonly state = new MemoryStateMedium();
  private safety: SafetyState | undefined;
  private epoch = 0;
  /** Set while the node boots (genesis): writes neither fail nor wait. */
  quiet = false;
  readonly stats = { writeFailures: 0 };

  constructor(
    private readonly clock: SimClock,
    private readonly prng: Prng,
    public faults: DiskFaults,
  ) {}

  crash(): void {
    this.epoch++;
    this.blocks.crash();
    this.state.crash();
  }

  private fsync(): Promise<void> {
    const ms = this.prng.int(0, this.faults.syncMsMax);
    return new Promise((r) => this.clock.setTimeout(r, ms));
  }

  private fails(): boolean {
    if (this.quiet || !this.prng.chance(this.faults.writeFailP)) return false;
    this.stats.writeFailures++;
    return true;
  }

  memoryFaults(): MemoryFaults {
    return {
      failWrite: (kind, height) => (this.fails() ? `simulated ${kind} failure at ${height}` : undefined),
      sync: () => (this.quiet ? Promise.resolve() : this.fsync()),
    };
  }

  safetyStore(): SafetyStore {
    return {
      load: async () => this.safety,
      save: async (s) => {
        const epoch = this.epoch;
        if (this.fails()) throw new Error('simulated safety-state write failure');
        await this.fsync();
        if (epoch !== this.epoch) throw new Error('crashed before the safety state was durable');
        this.safety = s;
      },
    };
  }
}
