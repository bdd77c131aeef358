// The QR code of an account: the canonical account id encoded as
// a QR symbol (ISO/IEC 18004) by `@paulmillr/qr` (no dependencies), at error-correction level `medium`
// (~15 % of the symbol may be lost). The SVG draws dark modules as unit squares in a viewBox measured
// in modules, with a quiet zone of two modules; scale it freely.

import { encodeQR } from '@paulmillr/qr';
import type { ExplorerQr } from './views-more.js';

export const QR_ERROR_CORRECTION = 'medium';
const QUIET_ZONE_MODULES = 2;

export function accountQr(accountId: string): ExplorerQr {
  const modules = encodeQR(accountId, 'raw', { ecc: QR_ERROR_CORRECTION, border: 0 });
  const svg = encodeQR(accountId, 'svg', { ecc: QR_ERROR_CORRECTION, border: QUIET_ZONE_MODULES });
  return {
    svg,
    literal: accountId,
    qrVersion: (modules.length - 17) / 4,
    errorCorrection: QR_ERROR_CORRECTION,
  };
}
