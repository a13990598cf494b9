// A contract schema built the first time something reads it, not as its module loads
// (docs/architecture.md#how-a-reply-is-checked).
//
// The contract's ~190 schemas are module constants, which the server, the app and the API document share. Built as
// their modules load, they were one long task of a phone's CPU in the cabinet's launch, for the few schemas its
// replies use; deferred, each is built on its first read. It stands for the schema itself: the same type, every
// property read and call forwarded to the schema once built.

/**
 * `make()`'s result, made on the first read of any of its properties. A zod schema is a plain object (no private
 * fields, no internal slots), so a proxy can stand for it; `make` must not read the value it defines.
 */
/* @__NO_SIDE_EFFECTS__ */
export function deferred<T extends object>(make: () => T): T {
  let made: T | undefined;
  const real = (): T => {
    made ??= make();
    return made;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      // The stand-in's own target has none of the schema's properties: a proxy may report them only as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
