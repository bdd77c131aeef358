// A ledger rejection's message as a person reads it: amounts at their definition's scale. The message a
// block commits is consensus data (it is in the results root) and keeps base units with their scale
// (`account cap 200 (window tx, units at scale 2) …`); readers — the CLI's error line, the ISO 20022
// bridge's status reason — show this text instead (`account cap 2.00 (window tx) …`). Every message whose
// form is listed here is rendered; any other comes back unchanged. Light on purpose (no codec imports):
// the CLI loads it for every failure.

/** `mantissa` (decimal digits) at `scale`, as a decimal: 200 at scale 2 is "2.00". */
export function atScale(mantissa: string, scale: number): string {
  if (scale === 0) return mantissa;
  const digits = mantissa.padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

type Render = (m: RegExpExecArray) => string;

/** The committed message forms that carry base units, by rejection code (the modules' own texts). */
const FORMS: Readonly<Record<string, readonly (readonly [RegExp, Render])[]>> = {
  // src/modules/controls/check.ts exceeded()
  transfer_cap_exceeded: [
    [
      /^(\w+) cap (\d+) \(window (\w+), units at scale (\d+)\) of (.+) exceeded by (.+): (\d+) with this transfer$/,
      (m) => {
        const s = Number(m[4]);
        return `${m[1]} cap ${atScale(m[2]!, s)} (window ${m[3]}) of ${m[5]} exceeded by ${m[6]}: ${atScale(m[7]!, s)} with this transfer`;
      },
    ],
  ],
  // src/modules/rwas/handlers.ts: movable(), holdRwa, releaseRwa
  rwa_quantity_unavailable: [
    [
      /^lot (.+) holds (\d+) (free|unheld|held) units at scale (\d+)$/,
      (m) => `lot ${m[1]} holds ${atScale(m[2]!, Number(m[4]))} ${m[3]}`,
    ],
  ],
  // src/modules/conference/exec-billing.ts checkBilled()
  conference_billing_mismatch: [
    [
      /^billedGas must be (\d+) units at scale (\d+) (\(.*\))$/,
      (m) => `billedGas must be ${atScale(m[1]!, Number(m[2]))} ${m[3]}`,
    ],
  ],
};

/** The rejection's message with its amounts at scale; the message itself when it carries none. */
export function readableRejection(code: string, message: string): string {
  for (const [form, render] of FORMS[code] ?? []) {
    const m = form.exec(message);
    if (m !== null) return render(m);
  }
  return message;
}
