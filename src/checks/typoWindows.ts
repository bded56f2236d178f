import { buildCharTrie, childOf, reversed, type TrieNode } from './charTrie.js';

/**
 * Finds the parts of a label that may be one edit (an inserted, dropped,
 * substituted or swapped character) away from a name, without trying every
 * part against every name.
 *
 * Pigeonhole on each name's halves: with h = ⌊L/2⌋ for a name of length L,
 * one edit touches at most two neighbouring characters, so it leaves intact
 * either the name's first h - 1 characters (the edit is at or after h - 1) or
 * its last L - h - 1 (the edit is before h). A part one edit from the name
 * therefore starts with that prefix or ends with that suffix. The prefix keys
 * are held in a character trie walked forwards from every start position, the
 * suffix keys reversed in one walked backwards from every end position
 * (src/checks/charTrie.ts): a walk stops at the first character no key
 * continues with, usually the first or second, and no window is sliced or
 * hashed. Only the names found there are compared in full by the caller. The
 * work grows with the label's length, not with its square times the number
 * of window lengths, which bounds what a hostile 63-character label costs.
 */
export interface Window<K> {
  start: number;
  length: number;
  known: K;
  /** The name's position in the list given to the index: ties go to the earlier one. */
  order: number;
}

interface Entry<K> {
  known: K;
  order: number;
  length: number;
}

export interface TypoWindowIndex<K> {
  /** Every part of `label` with a length in [minLength, maxLength] that starts with a name's prefix key or ends with its suffix key, paired with that name. */
  candidates(label: string, minLength: number, maxLength: number): Window<K>[];
}

export function createTypoWindowIndex<K>(names: readonly K[], labelOf: (k: K) => string): TypoWindowIndex<K> {
  const prefixKeys: [string, Entry<K>][] = [];
  const suffixKeys: [string, Entry<K>][] = [];
  names.forEach((known, order) => {
    const label = labelOf(known);
    const half = label.length >> 1;
    const entry = { known, order, length: label.length };
    prefixKeys.push([label.slice(0, half - 1), entry]);
    suffixKeys.push([reversed(label.slice(half + 1)), entry]);
  });
  const prefixes = buildCharTrie(prefixKeys);
  const suffixes = buildCharTrie(suffixKeys);

  return {
    candidates(label, minLength, maxLength) {
      const out: Window<K>[] = [];
      for (let at = 0; at < label.length; at += 1) {
        windowsFromPrefixes(prefixes, label, at, minLength, maxLength, out);
        windowsFromSuffixes(suffixes, label, at + 1, minLength, maxLength, out);
      }
      return out;
    },
  };
}

/** The windows starting at `start` whose text begins with a name's prefix key, shortest key first. */
function windowsFromPrefixes<K>(trie: TrieNode<Entry<K>>, label: string, start: number, min: number, max: number, out: Window<K>[]): void {
  let node: TrieNode<Entry<K>> | undefined = trie;
  for (let at = start; ; at += 1) {
    for (const entry of node.values) pushWindows(label, start, entry, 1, min, max, out);
    if (at >= label.length) return;
    node = childOf(node, label.charCodeAt(at));
    if (node === undefined) return;
  }
}

/** The windows ending at `end` whose text ends with a name's suffix key, shortest key first (the trie holds the keys reversed). */
function windowsFromSuffixes<K>(trie: TrieNode<Entry<K>>, label: string, end: number, min: number, max: number, out: Window<K>[]): void {
  let node: TrieNode<Entry<K>> | undefined = trie;
  for (let at = end - 1; ; at -= 1) {
    for (const entry of node.values) pushWindows(label, end, entry, -1, min, max, out);
    if (at < 0) return;
    node = childOf(node, label.charCodeAt(at));
    if (node === undefined) return;
  }
}

/**
 * The windows one shorter than the name, as long, and one longer, from `edge`:
 * starting there (`direction` 1) or ending there (-1), those inside the label
 * and the length bounds.
 */
function pushWindows<K>(label: string, edge: number, entry: Entry<K>, direction: 1 | -1, min: number, max: number, out: Window<K>[]): void {
  for (let length = entry.length - 1; length <= entry.length + 1; length += 1) {
    const start = direction === 1 ? edge : edge - length;
    if (length >= min && length <= max && start >= 0 && start + length <= label.length)
      out.push({ start, length, known: entry.known, order: entry.order });
  }
}
