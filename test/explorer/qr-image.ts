// Test helper: turns the explorer's QR SVG (unit squares in a viewBox of modules) into an RGB image that
// a QR decoder can read, so a test checks what a phone camera would read, not the encoder's own output.

import type { Image } from '@paulmillr/qr';

const PIXELS_PER_MODULE = 4;

export function svgToImage(svg: string): Image {
  const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  if (box === null) throw new Error('no viewBox');
  const modules = Number(box[1]);
  const side = modules * PIXELS_PER_MODULE;
  const data = new Uint8Array(side * side * 3).fill(255);
  for (const m of svg.matchAll(/<rect x="(\d+)" y="(\d+)" width="1" height="1"/g)) {
    const mx = Number(m[1]);
    const my = Number(m[2]);
    for (let dy = 0; dy < PIXELS_PER_MODULE; dy++)
      for (let dx = 0; dx < PIXELS_PER_MODULE; dx++) {
        const p = ((my * PIXELS_PER_MODULE + dy) * side + mx * PIXELS_PER_MODULE + dx) * 3;
        data.fill(0, p, p + 3);
      }
  }
  return { width: side, height: side, data };
}
