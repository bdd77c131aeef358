// "Did you mean ...?" hints for unknown keys: a misspelt key is the most common configuration
// mistake, and naming the closest real key saves a trip to the docs.

/** Names further than this many edits from every candidate get no hint (they are not typos). */
const SUGGEST_DISTANCE_MAX = 3;
/** Inputs longer than this get no hint, which bounds the quadratic distance computation. */
const SUGGEST_NAME_LENGTH_MAX = 64;

/** Returns ` (did you mean 'x'?)` for the closest candidate, or '' when none is close. */
export function suggestion(name: string, candidates: Iterable<string>): string {
  if (name.length > SUGGEST_NAME_LENGTH_MAX) return '';
  let best = '';
  let bestDistance = SUGGEST_DISTANCE_MAX + 1;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best === '' ? '' : ` (did you mean '${best}'?)`;
}

/** Levenshtein distance with one rolling row. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
