// The SDK's public entry point (`torana/sdk`). See README "SDK".

export { type ClientOptions, type EventStreamOptions, type ListOptions, ToranaClient } from './client.js';
export { TransactionRejectedError, ToranaApiError, ToranaTimeoutError, ToranaTransportError, isToranaApiError } from './errors.js';
export { type AmountLike, instructions, type MetadataLike } from './instructions.js';
export { accountOf, Ed25519KeyPair, generateKeyPair, importKeyPair } from './keys.js';
export { type BuiltTransaction, encodeTransaction, TransactionBuilder } from './transaction.js';
export { formatNumeric, type Numeric, numeric, parseNumeric } from '../model/numeric.js';
export { verifySignature } from '../crypto/signer.js';
export type { Instruction } from '../model/instructions.js';
export type { Event } from '../model/events.js';
