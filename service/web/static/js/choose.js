// Choose, then confirm: a move is made by picking things on the table (a row, cards in the hand, a pile, a
// tile), then one Confirm. Each game lists its legal actions as "specs" (what must be picked for each); a
// pick is offered only while some legal action still contains it, so a move can never be picked wrong.
//
// A spec: {keys: [...] (all of these, a key may repeat), pool: [...] (some of these too), min, max (how
// many from the pool), ordered (the keys are picked in their order: first your card, then whose), make(pooled)
// -> the action to post}. Most specs are keys only.

/** Count a list into a Map of key -> count. */
function counts(list) {
  const out = new Map();
  for (const key of list) out.set(key, (out.get(key) || 0) + 1);
  return out;
}

/** Split a selection over a spec: the pooled keys, or null when the selection does not fit it. */
function fit(spec, selection, whole) {
  if (spec.ordered) return inOrder(spec, selection, whole);
  const need = counts(spec.keys);
  const pool = new Set(spec.pool || []);
  const pooled = [];
  for (const [key, n] of selection) {
    const fixed = Math.min(n, need.get(key) || 0);
    const rest = n - fixed;
    if (rest > 0) {
      if (!pool.has(key) || rest > 1) return null; // a pool key is picked at most once
      pooled.push(key);
    }
  }
  if (pooled.length > (spec.max || 0)) return null;
  if (whole) {
    for (const [key, n] of need) if ((selection.get(key) || 0) < n) return null;
    if (pooled.length < (spec.min || 0)) return null;
  }
  return pooled;
}

/** Fit an ordered spec: the selection must be the keys' first few (all of them, for a whole move). */
function inOrder(spec, selection, whole) {
  let size = 0;
  for (const n of selection.values()) size += n;
  if (size > spec.keys.length || (whole && size < spec.keys.length)) return null;
  const head = counts(spec.keys.slice(0, size));
  if (head.size !== selection.size) return null;
  for (const [key, n] of head) if (selection.get(key) !== n) return null;
  return [];
}

/** The state of one player's choice at one version of the table. */
export class Choice {
  constructor(specs) {
    this.specs = specs;
    this.selection = new Map();
    this.universe = new Set();
    for (const spec of specs) for (const key of [...spec.keys, ...(spec.pool || [])]) this.universe.add(key);
  }

  /** Tell whether a key is part of some legal move (so it is drawn as a control). */
  offered(key) {
    return this.universe.has(key);
  }

  count(key) {
    return this.selection.get(key) || 0;
  }

  /** Tell whether picking `key` once more still leads to a legal move. */
  addable(key) {
    const next = new Map(this.selection);
    next.set(key, (next.get(key) || 0) + 1);
    return this.specs.some((spec) => fit(spec, next, false) !== null);
  }

  /** Pick a key once more, or, when that leads nowhere, put all of it back. */
  toggle(key) {
    if (this.addable(key)) this.selection.set(key, this.count(key) + 1);
    else this.selection.delete(key);
  }

  clear() {
    this.selection.clear();
  }

  /** The one action the picks make, or null. */
  action() {
    for (const spec of this.specs) {
      const pooled = fit(spec, this.selection, true);
      if (pooled !== null) return spec.make(pooled);
    }
    return null;
  }

  /** The keys with no thing on the table to pick (knock, pass…): they are drawn as buttons by the confirm. */
  loose(onTable) {
    return [...this.universe].filter((key) => !onTable.has(key));
  }
}

/** A spec for an action made by picking exactly `keys`. */
export function exactly(action, keys) {
  return {keys, pool: [], min: 0, max: 0, make: () => action};
}

/** A spec for an action made by picking `keys` one after the other (your card first, then the other one). */
export function inTurn(action, keys) {
  return {...exactly(action, keys), ordered: true};
}
