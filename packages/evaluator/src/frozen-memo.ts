/**
 * The engine shares frozen objects between evaluations (results per compiled rule, segment-key
 * lists): what is derived from one of them is made once and remembered for as long as it lives.
 * An object that is not frozen was made for one evaluation, so its value is made each time.
 */
export function memoForFrozen<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    if (!Object.isFrozen(key)) return make(key);
    let value = made.get(key);
    if (value === undefined) {
      value = make(key);
      made.set(key, value);
    }
    return value;
  };
}
