/**
 * A trie of keys by UTF-16 code unit, for finding which of many keys start
 * (or, built from reversed keys, end) at a position of a text: walking it from
 * the position reads each character once and meets the keys shortest first,
 * where slicing every window and looking it up in a map would allocate and
 * hash one string per window and key length. The look-alike check asks this
 * for every position of every label it reads.
 */
export interface TrieNode<V> {
  /** What the keys ending at this node stand for, in the order they were added. */
  readonly values: readonly V[];
}

const NO_VALUES: never[] = [];

/**
 * Most nodes of a trie of names continue with one character only (the tail
 * of one name), so a node holds its first child inline and makes a map only
 * when a second one comes: a trie of thousands of names then builds in a few
 * milliseconds at module load, not tens.
 */
class Node<V> implements TrieNode<V> {
  values: V[] = NO_VALUES;
  onlyCode = -1;
  only: Node<V> | undefined = undefined;
  others: Map<number, Node<V>> | undefined = undefined;
}

/** The node reached from `node` by the character with this UTF-16 code, or undefined when no key continues so. */
export function childOf<V>(node: TrieNode<V>, code: number): TrieNode<V> | undefined {
  const inner = node as Node<V>;
  return inner.onlyCode === code ? inner.only : inner.others?.get(code);
}

/** The trie of the keys; a key added twice keeps each of its values, in order. */
export function buildCharTrie<V>(entries: Iterable<readonly [string, V]>): TrieNode<V> {
  const root = new Node<V>();
  for (const [key, value] of entries) {
    let node = root;
    for (let i = 0; i < key.length; i += 1) node = childMadeFor(node, key.charCodeAt(i));
    if (node.values === NO_VALUES) node.values = [value];
    else node.values.push(value);
  }
  return root;
}

function childMadeFor<V>(node: Node<V>, code: number): Node<V> {
  const existing = childOf(node, code) as Node<V> | undefined;
  if (existing !== undefined) return existing;
  const child = new Node<V>();
  if (node.onlyCode === -1) {
    node.onlyCode = code;
    node.only = child;
  } else {
    node.others ??= new Map();
    node.others.set(code, child);
  }
  return child;
}

/** The key read backwards, for a trie walked from a window's end towards its start. */
export const reversed = (key: string): string => {
  let out = '';
  for (let i = key.length - 1; i >= 0; i -= 1) out += key[i];
  return out;
};

/**
 * Every key found in `text` reading from `start` in `direction` (1: forwards,
 * the keys that start there; -1: backwards from `start`, in a trie of reversed
 * keys, the keys that end at `start + 1`), as [length, value] shortest first;
 * the empty key, held at the root, is not reported. For tests and cold paths:
 * the hot paths walk `childOf` in place.
 */
export function keysAt<V>(trie: TrieNode<V>, text: string, start: number, direction: 1 | -1): [number, V][] {
  const found: [number, V][] = [];
  let node: TrieNode<V> | undefined = trie;
  for (let at = start, length = 1; at >= 0 && at < text.length; at += direction, length += 1) {
    node = childOf(node, text.charCodeAt(at));
    if (node === undefined) break;
    for (const value of node.values) found.push([length, value]);
  }
  return found;
}
