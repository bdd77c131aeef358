// Minimal type declarations for the parts of `@hyperswarm/secret-stream` the peer transport uses
// (Noise XX handshake with Ed25519 static keys, then libsodium secretstream). The package ships no
// types. The stream is a streamx Duplex: `write` returns false when its buffer is full and 'drain'
// follows; `pause`/`resume` stop and restart reading (the raw socket is paused when the readable
// buffer fills).
declare module '@hyperswarm/secret-stream' {
  import type { Duplex } from 'node:stream';

  interface KeyPair {
    publicKey: Uint8Array;
    secretKey: Uint8Array;
  }

  interface SecretStreamOptions {
    keyPair?: KeyPair;
    pattern?: 'XX';
  }

  class NoiseSecretStream {
    constructor(isInitiator: boolean, rawStream: Duplex, opts?: SecretStreamOptions);
    readonly isInitiator: boolean;
    readonly publicKey: Uint8Array | null;
    /** The remote static key, set when the handshake completes ('connect'). */
    readonly remotePublicKey: Uint8Array | null;
    /** The Noise handshake hash, equal on both ends of one connection. */
    readonly handshakeHash: Uint8Array | null;
    readonly rawBytesRead: number;
    readonly rawBytesWritten: number;
    readonly destroyed: boolean;
    write(data: Uint8Array): boolean;
    end(): void;
    destroy(err?: Error): void;
    pause(): this;
    resume(): this;
    on(event: 'connect' | 'close' | 'drain' | 'end', fn: () => void): this;
    on(event: 'data', fn: (data: Uint8Array) => void): this;
    on(event: 'error', fn: (err: Error) => void): this;
    once(event: 'connect' | 'close' | 'drain', fn: () => void): this;
  }
  export default NoiseSecretStream;
}
