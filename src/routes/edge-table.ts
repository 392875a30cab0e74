/** A state's static transitions in one open-addressed array, probed by a segment's offsets: no slice, no string hash. */
// Hot path: findSlot runs once per segment of every plain request; the bench guards it.

/**
 * Slots of `[text, target]` pairs, flattened: slot `i` is `slots[2 * i]` (its text, or null when
 * empty) and `slots[2 * i + 1]` (its target). `mask + 1` slots, at most half of them full.
 */
export interface EdgeTable<T> {
  readonly slots: readonly (string | T | null)[];
  readonly mask: number;
}

/** findSlot's answer when no static is the segment, but one is in other ASCII letter case. */
export const FOLDED_SLOT = -2;
/** findSlot's answer when no static is the segment in any letter case. */
export const NO_SLOT = -1;

// A segment's first three characters, ASCII letters folded to lower case (`| 32` also moves a few
// punctuation codes, harmless in a hash), a position past the segment's end read as 0: a static in
// other letter case lands on the same probe sequence as the static itself, so one probe finds both
// kinds of answer. Only the segment's start is hashed, not its length or its last character: the
// walk can then look a static up before it has read the segment (probeAhead), and a static found
// that way has its characters read once, by the comparison.
function keyOf(c0: number, c1: number, c2: number): number {
  return ((c0 | 32) * 0x9e3) ^ ((c1 | 32) * 0x2f) ^ ((c2 | 32) * 7);
}

function hashOf(target: string, from: number, to: number): number {
  const c1 = from + 1 < to ? target.charCodeAt(from + 1) : 0;
  const c2 = from + 2 < to ? target.charCodeAt(from + 2) : 0;
  return keyOf(target.charCodeAt(from), c1, c2);
}

// The characters that end a segment on the fast path: `/`, `?`, `#`.
const ends = (code: number): boolean => code === 47 || code === 63 || code === 35;

// ASCII upper case to lower case by char code; every other code unchanged.
const lower = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

// `text` equals `target` from `from` on, for text.length code units (the caller checked the lengths).
function equalAt(text: string, target: string, from: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== target.charCodeAt(from + i)) return false;
  return true;
}

function foldedEqual(text: string, target: string, from: number): boolean {
  for (let i = 0; i < text.length; i++)
    if (lower(text.charCodeAt(i)) !== lower(target.charCodeAt(from + i))) return false;
  return true;
}

/**
 * Builds the table of a state's transitions (static segment text to next state).
 * @example
 * import { buildEdgeTable, findSlot } from './edge-table.js';
 * const table = buildEdgeTable(new Map([['repos', 1], ['orgs', 2]]));
 * table.slots[findSlot(table, '/orgs/x', 1, 5) + 1]; // 2
 */
export function buildEdgeTable<T>(edges: ReadonlyMap<string, T>): EdgeTable<T> {
  let size = 1;
  while (size < edges.size * 2) size *= 2;
  const mask = size - 1;
  const slots: (string | T | null)[] = new Array(size * 2).fill(null);
  for (const [text, target] of edges) {
    if (text === '') continue; // no plain path has an empty segment
    let i = hashOf(text, 0, text.length) & mask;
    while (slots[2 * i] !== null) i = (i + 1) & mask;
    slots[2 * i] = text;
    slots[2 * i + 1] = target;
  }
  return { slots, mask };
}

/**
 * Where `target.slice(from, to)` (a non-empty segment) sits in the table: the index in `slots` of
 * the static equal to it (compared raw, case-sensitively; its target follows it), else
 * FOLDED_SLOT when a static equals it once ASCII letter case is ignored (`ACTIONS` for `actions`:
 * case-insensitive routers read it as that static, so the careful path decides), else NO_SLOT.
 * The same answers as findEdge, then findEdgeFolded, over the same statics.
 * @example
 * import { buildEdgeTable, findSlot } from './edge-table.js';
 * const table = buildEdgeTable(new Map([['issues', 'I']]));
 * table.slots[findSlot(table, '/repos/o/r/issues', 11, 17) + 1]; // 'I'
 * findSlot(table, '/repos/o/r/ISSUES', 11, 17); // -2 (FOLDED_SLOT)
 * findSlot(table, '/repos/o/r/7', 11, 12); // -1 (NO_SLOT)
 */
export function findSlot<T>(table: EdgeTable<T>, target: string, from: number, to: number): number {
  return probeSlots(table.slots, 0, table.mask, target, from, to);
}

/**
 * findSlot over one table laid out at `base` inside a bigger array of slots (the flat automaton
 * keeps every state's table in one array): the index in `slots` of the static equal to the
 * segment, FOLDED_SLOT or NO_SLOT, as findSlot answers.
 * @example
 * import { buildEdgeTable, probeSlots } from './edge-table.js';
 * const table = buildEdgeTable(new Map([['issues', 'I']]));
 * const slots = ['pad', 'pad', ...table.slots];
 * slots[probeSlots(slots, 2, table.mask, '/issues', 1, 7) + 1]; // 'I'
 */
export function probeSlots(
  slots: readonly unknown[],
  base: number,
  mask: number,
  target: string,
  from: number,
  to: number,
): number {
  const length = to - from;
  let folded = false;
  for (let i = hashOf(target, from, to) & mask; ; i = (i + 1) & mask) {
    const text = slots[base + 2 * i] as string | null;
    if (text === null) return folded ? FOLDED_SLOT : NO_SLOT;
    if (text.length !== length) continue;
    if (equalAt(text, target, from)) return base + 2 * i;
    // An exact match may still follow in the probe sequence: keep looking before saying folded.
    if (!folded && foldedEqual(text, target, from)) folded = true;
  }
}

/**
 * probeSlots before the segment's end is known: the index in `slots` of the static that is exactly
 * the segment starting at `from` (its text there, then `/`, `?`, `#` or the target's end), else
 * NO_SLOT. A segment found this way is a static's text, and a template's statics are RFC 3986
 * pchar without `%` and never a dot segment (parseTemplate), so it holds nothing the fast path
 * hands over (see locateRoute); any other answer (no static, or one only in other letter case) is
 * left to probeSlots once the segment has been read.
 * @example
 * import { buildEdgeTable, probeAhead } from './edge-table.js';
 * const table = buildEdgeTable(new Map([['issues', 'I'], ['issue', 'J']]));
 * table.slots[probeAhead(table.slots, 0, table.mask, '/x/issues?all', 3) + 1]; // 'I'
 * probeAhead(table.slots, 0, table.mask, '/x/issuesx', 3); // -1 (NO_SLOT)
 */
export function probeAhead(
  slots: readonly unknown[],
  base: number,
  mask: number,
  target: string,
  from: number,
): number {
  const length = target.length;
  let c1 = from + 1 < length ? target.charCodeAt(from + 1) : 0;
  let c2 = 0;
  if (ends(c1)) c1 = 0;
  else if (c1 !== 0 && from + 2 < length) {
    c2 = target.charCodeAt(from + 2);
    if (ends(c2)) c2 = 0;
  }
  for (let i = keyOf(target.charCodeAt(from), c1, c2) & mask; ; i = (i + 1) & mask) {
    const text = slots[base + 2 * i] as string | null;
    if (text === null) return NO_SLOT;
    const end = from + text.length;
    if (end > length || (end < length && !ends(target.charCodeAt(end)))) continue;
    if (equalAt(text, target, from)) return base + 2 * i;
  }
}
