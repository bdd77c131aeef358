// Which crypto backend this build runs on (backend.ts), so that an application or a test can tell
// the node's libsodium backend from the browser bundle's pure-JS one without guessing.
import { backend } from '#crypto-backend';
import type { CryptoBackendInfo } from './backend.js';

export type { CryptoBackendInfo };

export function cryptoBackendInfo(): CryptoBackendInfo {
  return backend.info;
}
