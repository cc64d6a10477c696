/**
 * A pure function's results kept by argument, for functions asked the same few arguments many times over (a file's
 * species labels on every row, the matcher's angles). Bounded: past `kept` entries the memo starts over, so no input
 * can make it grow without end. Keys compare as a Map's do (SameValueZero: −0 is +0); a result must not be undefined.
 */
export function boundedMemo<K, V>(compute: (key: K) => V, kept: number): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= kept) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}
