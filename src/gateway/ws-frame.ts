// One unfragmented, unmasked WebSocket data frame (RFC 6455 §5.2), as a server sends it: FIN set, no
// extension bits (the server negotiates no permessage-deflate), opcode 1 (text) or 2 (binary), and the
// payload length in 7, 7+16 or 7+64 bits. A server frame carries no per-connection state (no masking
// key, §5.3 masks only client frames), so one encoding can be written to every subscriber's socket.

export const WS_OPCODE = { text: 1, binary: 2 } as const;

export function encodeWsFrame(opcode: 1 | 2, payload: Uint8Array): Buffer {
  const n = payload.length;
  const headerBytes = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const out = Buffer.allocUnsafe(headerBytes + n);
  out[0] = 0x80 | opcode;
  if (n < 126) out[1] = n;
  else if (n < 65_536) {
    out[1] = 126;
    out.writeUInt16BE(n, 2);
  } else {
    out[1] = 127;
    out.writeBigUInt64BE(BigInt(n), 2);
  }
  out.set(payload, headerBytes);
  return out;
}
