// A bounded ring of the last trace lines of a run, and a digest of every line ever added (so two runs
// of one seed can be compared without keeping whole traces).

export class Trace {
  private readonly lines: string[] = [];
  private next = 0;
  digest = 0x811c9dc5;

  constructor(private readonly max: number) {}

  add(atMs: number, line: string): void {
    const s = `${atMs.toString().padStart(7)} ${line}`;
    for (let i = 0; i < s.length; i++)
      this.digest = Math.imul(this.digest ^ s.charCodeAt(i), 0x01000193) >>> 0;
    if (this.max === 0) return;
    if (this.lines.length < this.max) this.lines.push(s);
    else this.lines[this.next] = s;
    this.next = (this.next + 1) % this.max;
  }

  /** The kept lines, oldest first. */
  tail(): string[] {
    if (this.lines.length < this.max) return [...this.lines];
    return [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
  }
}
