// A ledger rejection's message as a person reads it: amounts at their definition's scale. The message a
// block commits is consensus data (it is in the results root) and keeps base units with their scale
// (`account cap 200 (window tx, units at scale 2) …`); readers — the CLI's error line, a module's status
// reason — show this text instead (`account cap 2.00 (window tx) …`). Every message whose
// form a module declares is rendered; any other comes back unchanged. Light on purpose (no codec imports):
// the CLI loads it for every failure.

/** `mantissa` (decimal digits) at `scale`, as a decimal: 200 at scale 2 is "2.00". */
export function atScale(mantissa: string, scale: number): string {
  if (scale === 0) return mantissa;
  const digits = mantissa.padStart(scale + 1, '0');
  return `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** What a committed message form becomes for a reader (its regular expression's match). */
export type RejectionRender = (m: RegExpExecArray) => string;

/** A module's committed message forms that carry base units, by rejection code. */
export type RejectionForms = Readonly<Record<string, readonly (readonly [RegExp, RejectionRender])[]>>;

/**
 * The forms of every installed module, added by the registry (src/modules/registry.ts) from each module's
 * `rejection-forms.ts` when it is imported: the core names none of them.
 */
const FORMS = new Map<string, (readonly [RegExp, RejectionRender])[]>();

/** Adds modules' message forms (the registry does, once per module). */
export function addRejectionForms(forms: RejectionForms): void {
  for (const [code, list] of Object.entries(forms)) FORMS.set(code, [...(FORMS.get(code) ?? []), ...list]);
}

/** The rejection's message with its amounts at scale; the message itself when it carries none. */
export function readableRejection(code: string, message: string): string {
  for (const [form, render] of FORMS.get(code) ?? []) {
    const m = form.exec(message);
    if (m !== null) return render(m);
  }
  return message;
}
