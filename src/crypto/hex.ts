// Strict hexadecimal helpers for the crypto layer. They are the project-wide ones from `util/`
// (one implementation, so a hash or key prints the same everywhere): `fromHex` answers undefined
// for odd length or any non-hex character and never throws; `toHex` is lowercase unless asked.
export { bytesEqual, fromHex, toHex } from '../util/hex.js';
