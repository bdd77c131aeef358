// CRC32C (Castagnoli polynomial 0x1EDC6F41, reflected 0x82F63B78), as used by iSCSI (RFC 3720
// §12.1) and by codec frames and block log records. Table-driven "slicing by 8": eight 256-entry tables let the
// loop consume 8 bytes per step. The tables are computed once and never written afterwards, so they
// are constants, not shared mutable state.

const POLY_REFLECTED = 0x82f63b78;

function buildTables(): Uint32Array[] {
  const tables: Uint32Array[] = [];
  const first = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY_REFLECTED : c >>> 1;
    first[n] = c >>> 0;
  }
  tables.push(first);
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1]!;
    const next = new Uint32Array(256);
    for (let n = 0; n < 256; n++) next[n] = ((prev[n]! >>> 8) ^ first[prev[n]! & 0xff]!) >>> 0;
    tables.push(next);
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = buildTables() as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];

/**
 * CRC32C of `data`. Pass the result of a previous call as `previous` to continue over a longer
 * message: `crc32c(b, crc32c(a)) === crc32c(a ‖ b)`.
 */
export function crc32c(data: Uint8Array, previous = 0): number {
  let crc = ~previous >>> 0;
  let i = 0;
  const end8 = data.length - (data.length % 8);
  while (i < end8) {
    const lo = (crc ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24))) >>> 0;
    crc =
      T7[lo & 0xff]! ^
      T6[(lo >>> 8) & 0xff]! ^
      T5[(lo >>> 16) & 0xff]! ^
      T4[lo >>> 24]! ^
      T3[data[i + 4]!]! ^
      T2[data[i + 5]!]! ^
      T1[data[i + 6]!]! ^
      T0[data[i + 7]!]!;
    i += 8;
  }
  while (i < data.length) {
    crc = T0[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
    i += 1;
  }
  return ~crc >>> 0;
}
