// Minimal type declarations for the parts of `snarkjs` the SDK prover and the tests use. The
// package ships no types. Artifacts are file paths or URLs (strings) or their bytes.
declare module 'snarkjs' {
  type Artifact = string | Uint8Array | { type: 'mem'; data?: Uint8Array };
  type Signal = string | bigint | number | readonly (string | bigint | number)[];
  interface SnarkjsProof {
    pi_a: [string, string, string];
    pi_b: [[string, string], [string, string], [string, string]];
    pi_c: [string, string, string];
    protocol: string;
    curve: string;
  }
  export const groth16: {
    fullProve(
      input: Record<string, Signal>,
      wasm: Artifact,
      zkey: Artifact,
      logger?: unknown,
      wtnsCalcOptions?: unknown,
      proverOptions?: { singleThread?: boolean },
    ): Promise<{ proof: SnarkjsProof; publicSignals: string[] }>;
    prove(
      zkey: Artifact,
      witness: Artifact,
      logger?: unknown,
      proverOptions?: { singleThread?: boolean },
    ): Promise<{ proof: SnarkjsProof; publicSignals: string[] }>;
    verify(vkey: unknown, publicSignals: readonly string[], proof: SnarkjsProof): Promise<boolean>;
  };
  export const wtns: {
    /** Computes the witness into `out` (`{ type: 'mem' }` keeps it in memory, as fullProve does). */
    calculate(input: Record<string, Signal>, wasm: Artifact, out: { type: 'mem' }): Promise<void>;
  };
}
