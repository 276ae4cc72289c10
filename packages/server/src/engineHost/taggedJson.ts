/**
 * JSON that keeps bigints exact: a bigint is written as `{"$bigint":"123"}` and read back as
 * `123n`. Used for values whose shape the host does not know field by field (stored replies).
 */
export function taggedJsonFromValue(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? { $bigint: item.toString() } : item,
  );
}

/** Reverses `taggedJsonFromValue`. */
export function valueFromTaggedJson(text: string): unknown {
  return JSON.parse(text, (_key, item: unknown) => {
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const tagged = (item as { $bigint?: unknown }).$bigint;
      if (typeof tagged === 'string' && Object.keys(item).length === 1) return BigInt(tagged);
    }
    return item;
  });
}
