// Strict hexadecimal helpers shared by every layer. Decoding never throws: bad input gives undefined.

const LOWER: string[] = [];
const UPPER: string[] = [];
for (let i = 0; i < 256; i++) {
  LOWER.push(i.toString(16).padStart(2, '0'));
  UPPER.push(LOWER[i]!.toUpperCase());
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

export function toHex(bytes: Uint8Array, upper = false): string {
  const table = upper ? UPPER : LOWER;
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += table[bytes[i]!];
  return out;
}

/** Decodes hex (either case). Returns undefined for odd length or a non-hex character. */
export function fromHex(text: string, expectedBytes?: number): Uint8Array | undefined {
  if (text.length % 2 !== 0) return undefined;
  const n = text.length / 2;
  if (expectedBytes !== undefined && n !== expectedBytes) return undefined;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const hi = nibble(text.charCodeAt(2 * i));
    const lo = nibble(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0) return undefined;
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Bytewise lexicographic comparison (the order of canonical maps and state keys). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
