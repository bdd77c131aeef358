// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), table-driven, slicing by one byte.
// Used by codec frames (docs/codec.md §1) and block log records; check value of "123456789" is 0xE3069283.

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** CRC-32C of `data`, optionally continuing from a previous CRC (`crc32c(b, crc32c(a))` = crc of a‖b). */
export function crc32c(data: Uint8Array, previous = 0): number {
  let c = ~previous >>> 0;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
