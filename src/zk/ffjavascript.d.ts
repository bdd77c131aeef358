// Minimal type declarations for the part of `ffjavascript` (snarkjs' field and curve library) the
// pool's WebAssembly Groth16 verifier uses (groth16-wasm.ts). The package ships no types. Points are
// byte buffers in the engine's Montgomery form: affine G1 64 B, jacobian G1 96 B, G2 twice that.
declare module 'ffjavascript' {
  interface WasmGroup {
    fromObject(p: readonly unknown[]): Uint8Array;
    toAffine(p: Uint8Array): Uint8Array;
    toJacobian(p: Uint8Array): Uint8Array;
    add(a: Uint8Array, b: Uint8Array): Uint8Array;
    neg(a: Uint8Array): Uint8Array;
    timesScalar(a: Uint8Array, s: bigint): Uint8Array;
    isZero(a: Uint8Array): boolean;
    eq(a: Uint8Array, b: Uint8Array): boolean;
    /** The generator (jacobian). */
    readonly g: Uint8Array;
    /** The point at infinity (jacobian). */
    readonly zero: Uint8Array;
  }
  interface WasmGt {
    mul(a: Uint8Array, b: Uint8Array): Uint8Array;
    eq(a: Uint8Array, b: Uint8Array): boolean;
    readonly one: Uint8Array;
  }
  /** The engine's memory and exported functions (pointers into `u8`; a sync op frees what it allocated). */
  interface ThreadManager {
    readonly instance: { readonly exports: Record<string, (...args: number[]) => number> };
    readonly u8: Uint8Array;
    /** The same memory; `u32[0]` is the free pointer (a sync op restores it when it ends). */
    readonly u32: Uint32Array;
    startSyncOp(): void;
    endSyncOp(): void;
    alloc(length: number): number;
    allocBuff(buff: Uint8Array): number;
    getBuff(pointer: number, length: number): Uint8Array;
  }
  export interface WasmBn128 {
    readonly tm: ThreadManager;
    readonly G1: WasmGroup;
    readonly G2: WasmGroup;
    readonly Gt: WasmGt;
    prepareG1(p: Uint8Array): Uint8Array;
    prepareG2(q: Uint8Array): Uint8Array;
    millerLoop(preP: Uint8Array, preQ: Uint8Array): Uint8Array;
    finalExponentiation(a: Uint8Array): Uint8Array;
    terminate(): Promise<void>;
  }
  export function buildBn128(singleThread?: boolean): Promise<WasmBn128>;
}
