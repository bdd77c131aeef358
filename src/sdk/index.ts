// The SDK's public entry point (`torana/sdk`). See README "SDK".

export { type CryptoBackendInfo, cryptoBackendInfo } from '../crypto/backend-info.js';
export { verifySignature } from '../crypto/signer.js';
export type { Event } from '../model/events.js';
export type { Instruction } from '../model/instructions.js';
export { formatNumeric, type Numeric, numeric, parseNumeric } from '../model/numeric.js';
// The SDK functions of the ledger modules (src/modules/registry.ts; each module's descriptor lists them).
// Importing the registry also declares the modules' wire pieces before any codec use.
export * from '../modules/registry.js';
export type { BatchItemResult, SubmitManyOptions } from './batch.js';
export {
  type ClientOptions,
  type EventStreamOptions,
  type EventStreamStart,
  type ListOptions,
  ToranaClient,
} from './client.js';

export {
  isToranaApiError,
  ToranaApiError,
  ToranaLightClientError,
  ToranaTimeoutError,
  ToranaTransportError,
  ToranaUnknownOutcomeError,
  TransactionRejectedError,
} from './errors.js';
export { type AmountLike, instructions, type MetadataLike } from './instructions.js';
export { accountOf, Ed25519KeyPair, generateKeyPair, importKeyPair } from './keys.js';
export {
  LightClient,
  type LightClientOptions,
  type VerifiedHeader,
  type VerifiedRead,
  type VerifiedTransactionStatus,
} from './light-client.js';
export {
  type BatchProblem,
  type EntryProof,
  type HeaderProblem,
  validatorSetOf,
  verifyCertifiedHeader,
  verifyEntryProof,
  verifyStateAnswer,
  verifyStateBatch,
} from './proofs.js';
export { type BuiltTransaction, encodeTransaction, TransactionBuilder } from './transaction.js';
