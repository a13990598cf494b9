/**
 * A value made from a kept one (a reply built from a kept row), made once and frozen: a kept value never changes (a
 * change replaces it), so neither does what is made from it while its other inputs stay the same. The next request
 * gets the same frozen object, which the reply serializer writes from the JSON it made the first time
 * (`routes/reply-json.ts`). Held in a WeakMap: gone with the kept value.
 */
export class Derived<S extends object, V> {
  private readonly made = new WeakMap<S, { key: string | number; value: V }>();

  /**
   * What `make` gives for `source` and `key` (every other input `make` reads, as one primitive), made again only when
   * `key` differs from the last time's. A source that is not frozen (read past the caches) is not remembered.
   */
  of(source: S, key: string | number, make: () => V): V {
    const last = this.made.get(source);
    if (last !== undefined && last.key === key) return last.value;
    const value = deepFreeze(make());
    if (Object.isFrozen(source)) this.made.set(source, { key, value });
    return value;
  }
}

function deepFreeze<V>(value: V): V {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
