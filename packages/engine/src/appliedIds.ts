// The applied business ids: for each, the request's fingerprint and its first result, kept for
// good (docs/decisions/engine.md, "Ids, idempotency, rejections"), so they grow with the
// exchange's history. A Map of objects made each id some fourteen heap objects (836 bytes), and
// every full collection marked them all: 170 to 176 ms at 200,000 ids, 9 without (`npm run
// bench:engine -- --applied-ids 200000`). Here an id is text in byte arrays and a row of
// numbers, none of them an object the collector visits. See
// docs/decisions/applied-business-ids.md.
import { resultFromJson, toPlainJson } from './codec.js';
import { InPlaceArray } from './columnar/inPlaceArray.js';
import { InvariantViolation } from './errors.js';
import { ACCOUNT_KINDS } from './ledger.js';
import type { CommandResult, SnapshotDoneRow } from './types.js';

/** A business id already applied: what it was (to spot a conflicting repeat) and its result. */
export interface DoneEntry {
  readonly fingerprint: string;
  readonly result: CommandResult;
}

/**
 * The UTF-8 decoder of the JavaScript host (Node and browsers have it; the engine's TypeScript
 * knows no host, hence the type), or null without one. Bytes under 0x80 decode to their
 * characters (a byte-order mark, which it would drop, is not among them): 300 such bytes took it
 * 0.13 µs, `String.fromCharCode` over them 1 µs; with 2,000,000 deposits, the next `snapshot()`
 * took 8.9 s instead of 14.5 s (docs/decisions/applied-business-ids.md).
 */
const asciiDecoder: { decode(bytes: Uint8Array): string } | null = (() => {
  const host = globalThis as { TextDecoder?: new () => { decode(bytes: Uint8Array): string } };
  return host.TextDecoder === undefined ? null : new host.TextDecoder();
})();

/** Bytes of text per chunk; an entry longer than this gets a chunk of its own. */
const CHUNK_BYTES = 1 << 20;
/** Characters made into a string by one call. */
const TEXT_PIECE = 4096;

// An entry's row in `rows`: the key's hash, where its text is, and the three texts' lengths in
// characters. Its text is the key, the fingerprint and the result's JSON, one after the other,
// a byte per character, or two (low byte first) when one of them is 256 or above (WIDE).
const R_HASH = 0;
const R_CHUNK = 1;
const R_AT = 2;
const R_KEY = 3;
const R_PRINT = 4;
const R_RESULT = 5;
const R_WIDE = 6;
const ROW = 7;

/**
 * A result as text: a balance result, which every balance command returns, as a JSON array of
 * its user, asset and amounts (about a quarter of its JSON as an object); any other as JSON.
 */
function resultText(result: CommandResult): string {
  if (result.kind !== 'balance') return JSON.stringify(toPlainJson(result));
  const fields: (number | string)[] = [result.userId, result.asset];
  for (const kind of ACCOUNT_KINDS) {
    const pair = result.balances[kind];
    fields.push(pair.available.toString(), pair.frozen.toString());
  }
  return JSON.stringify(fields);
}

function refuseShape(what: string, value: unknown): never {
  throw new InvariantViolation(
    `an applied id's ${what} of another shape: ${JSON.stringify(value)}`,
  );
}

/** An amount as a balance result's text writes it: a non-negative integer, canonical. */
const AMOUNT_TEXT = /^(0|[1-9][0-9]*)$/;

/**
 * The text of a result as a snapshot row holds it (`resultText`'s JSON, parsed), checked: a
 * balance result's array field by field, so that it is kept as its own text as it is; any other
 * through the command result it stands for. Throws on any other shape.
 */
function resultTextOfRow(result: unknown): string {
  if (!Array.isArray(result)) {
    const isResult =
      typeof result === 'object' &&
      result !== null &&
      'kind' in result &&
      typeof result.kind === 'string';
    if (!isResult) refuseShape('result', result);
    return resultText(resultFromJson(result));
  }
  const amounts = result.slice(2);
  const wellFormed =
    result.length === 2 + 2 * ACCOUNT_KINDS.length &&
    Number.isSafeInteger(result[0]) &&
    typeof result[1] === 'string' &&
    amounts.every((amount) => typeof amount === 'string' && AMOUNT_TEXT.test(amount));
  // NOTE: the message is built only on failure: a restore checks every id.
  if (!wellFormed) refuseShape('balance result', result);
  return JSON.stringify(result);
}

/** The inverse of resultText, as plain JSON (amounts as decimal strings). */
function plainResultOfText(text: string): unknown {
  const json: unknown = JSON.parse(text);
  if (!Array.isArray(json)) return json;
  const balances: Record<string, { available: string; frozen: string }> = {};
  ACCOUNT_KINDS.forEach((kind, i) => {
    balances[kind] = { available: json[2 + 2 * i], frozen: json[3 + 2 * i] };
  });
  // NOTE: the fields in balanceResult's order (balances.ts), as a snapshot writes them.
  return { kind: 'balance', userId: json[0], asset: json[1], balances };
}

/** FNV-1a over the key's UTF-16 code units. */
function hashKey(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** The text written a byte a character from `start` to `end`. */
function narrowText(bytes: Uint8Array, start: number, end: number): string {
  let ascii = asciiDecoder !== null;
  for (let i = start; i < end && ascii; i++) ascii = bytes[i]! < 0x80;
  if (ascii && asciiDecoder !== null) return asciiDecoder.decode(bytes.subarray(start, end));
  let text = '';
  // NOTE: in pieces, as a call with very many arguments overflows the stack.
  for (let i = start; i < end; i += TEXT_PIECE) {
    const piece = bytes.subarray(i, Math.min(end, i + TEXT_PIECE));
    text += String.fromCharCode.apply(null, piece as unknown as number[]);
  }
  return text;
}

/** Writes `text` a byte a character from `at`: the offset after it, or -1 at one above 255. */
function writeNarrow(chunk: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0xff) return -1;
    chunk[at + i] = code;
  }
  return at + text.length;
}

/** Writes `text` two bytes a character, low byte first, from `at`: the offset after it. */
function writeWide(chunk: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    chunk[at + 2 * i] = code & 0xff;
    chunk[at + 2 * i + 1] = code >>> 8;
  }
  return at + 2 * text.length;
}

/** Entries moved into the doubled slots with each new one (AppliedIds.oldSlots). */
const MIGRATE_STEP = 4;

/** The first empty slot from the hash's, in probing order. */
function freeSlot(slots: Int32Array, hash: number): number {
  const mask = slots.length - 1;
  let slot = hash & mask;
  while (slots[slot] !== 0) slot = (slot + 1) & mask;
  return slot;
}

/** Applied business ids by `${command type}:${businessId}`, as a Map of them would hold them. */
export class AppliedIds {
  /** Open addressing by the key's hash, linear probing: each slot an entry's number + 1, or 0. */
  private slots = new Int32Array(1024);
  /**
   * While the slots are doubled, the slots before: entries `migrated` to `migrateEnd - 1` are
   * only there. Each new entry moves a few of them into `slots` (MIGRATE_STEP), and a lookup that
   * misses `slots` looks here, so no one command re-places them all: at 1,048,576 ids that took
   * one command 64 to 66 ms (docs/decisions/growing-in-place.md). Null when not doubling.
   */
  private oldSlots: Int32Array | null = null;
  private migrated = 0;
  private migrateEnd = 0;
  /** The rows, grown in place once large (columnar/inPlaceArray.ts). */
  private rowStore = new InPlaceArray(Int32Array, 256 * ROW);
  private rows = this.rowStore.array;
  private count = 0;
  private chunks: Uint8Array[] = [new Uint8Array(CHUNK_BYTES)];
  /** Bytes used of the last chunk. */
  private used = 0;
  /**
   * Entries 0 to `order.length - 1` by key in sorting order, as the last snapshot wrote them.
   * Entries are only added (a key set again keeps its number), so the next snapshot sorts the
   * ones added since and merges them in, instead of sorting them all again: with 500,000
   * deposits and 5,000 more, the next `snapshot()` took 2,050 and 2,264 ms instead of 3,135 and
   * 2,947 (`npm run bench:engine -- --applied-ids 500000`). Four bytes an id.
   */
  private order = new Int32Array(0);

  get size(): number {
    return this.count;
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  get(key: string): DoneEntry | undefined {
    const entry = this.find(key);
    return entry < 0 ? undefined : this.entryAt(entry);
  }

  /** Adds an entry, or replaces the one of the same key (its old text is not reused). */
  set(key: string, entry: DoneEntry): void {
    this.setText(key, entry.fingerprint, resultText(entry.result));
  }

  /** Adds an entry as `snapshotRows` gave it; throws on a row of another shape. */
  setRow(row: SnapshotDoneRow): void {
    const wellFormed =
      Array.isArray(row) &&
      row.length === 3 &&
      typeof row[0] === 'string' &&
      typeof row[1] === 'string';
    if (!wellFormed) refuseShape('row', row);
    this.setText(row[0], row[1], resultTextOfRow(row[2]));
  }

  /**
   * Every entry, by key in sorting order, as a snapshot writes them: a row each, its result as
   * its text holds it (a balance result the short array of `resultText`).
   */
  snapshotRows(): SnapshotDoneRow[] {
    return this.keysInOrder().map(([key, n]) => {
      const { fingerprint, result } = this.textsAt(n);
      return [key, fingerprint, JSON.parse(result)];
    });
  }

  private setText(key: string, fingerprint: string, result: string): void {
    const hash = hashKey(key);
    let n = this.find(key, hash);
    if (n < 0) {
      n = this.count;
      if ((n + 1) * 2 > this.slots.length) this.startDoubling();
      if ((n + 1) * ROW > this.rows.length) this.rows = this.rowStore.grow(this.rows.length * 2);
      this.count++;
      this.slots[freeSlot(this.slots, hash)] = n + 1;
      if (this.oldSlots !== null) this.migrate(MIGRATE_STEP);
    }
    this.write(n, hash, key, fingerprint, result);
  }

  /** Each entry's key and number, by key in sorting order. */
  private keysInOrder(): [string, number][] {
    const keys: string[] = [];
    for (let n = 0; n < this.count; n++) keys.push(this.textAt(n, 0, this.rows[n * ROW + R_KEY]!));
    const byKey = (a: number, b: number) =>
      keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0;
    const sorted = this.order;
    const added: number[] = [];
    for (let n = sorted.length; n < this.count; n++) added.push(n);
    added.sort(byKey);
    // The entries sorted before and those added since, merged (keys are distinct).
    const order = new Int32Array(this.count);
    let i = 0;
    let j = 0;
    for (let k = 0; k < order.length; k++) {
      const takeAdded =
        i === sorted.length || (j < added.length && byKey(added[j]!, sorted[i]!) < 0);
      order[k] = takeAdded ? added[j++]! : sorted[i++]!;
    }
    this.order = order;
    const keyed: [string, number][] = [];
    for (const n of order) keyed.push([keys[n]!, n]);
    return keyed;
  }

  /** Holds a copy of `other`'s entries, and only them: the two share nothing after. */
  copyFrom(other: AppliedIds): void {
    this.slots = other.slots.slice();
    this.oldSlots = other.oldSlots === null ? null : other.oldSlots.slice();
    this.migrated = other.migrated;
    this.migrateEnd = other.migrateEnd;
    this.rowStore = new InPlaceArray(Int32Array, other.rows.length);
    this.rows = this.rowStore.array;
    this.rows.set(other.rows);
    this.count = other.count;
    this.chunks = other.chunks.map((chunk) => chunk.slice());
    this.used = other.used;
    this.order = other.order.slice();
  }

  /** The entry of `key`, or -1. */
  private find(key: string, hash = hashKey(key)): number {
    const n = this.findIn(this.slots, key, hash);
    if (n >= 0 || this.oldSlots === null) return n;
    return this.findIn(this.oldSlots, key, hash);
  }

  private findIn(slots: Int32Array, key: string, hash: number): number {
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const n = slots[slot]! - 1;
      if (n < 0) return -1;
      if (this.rows[n * ROW + R_HASH] === hash && this.keyIs(n, key)) return n;
    }
  }

  /**
   * Slots twice as many, into which the entries so far move a few at a time. They have moved
   * long before the new slots are half full: MIGRATE_STEP entries with each new one.
   */
  private startDoubling(): void {
    // Not reached while moving (they move within a quarter of the new slots' room): a guard.
    if (this.oldSlots !== null) this.migrate(this.migrateEnd);
    this.oldSlots = this.slots;
    this.slots = new Int32Array(this.slots.length * 2);
    this.migrated = 0;
    this.migrateEnd = this.count;
  }

  /** Move up to `most` of the entries still only in `oldSlots` into `slots`. */
  private migrate(most: number): void {
    const end = Math.min(this.migrated + most, this.migrateEnd);
    for (let n = this.migrated; n < end; n++) {
      this.slots[freeSlot(this.slots, this.rows[n * ROW + R_HASH]!)] = n + 1;
    }
    this.migrated = end;
    if (end === this.migrateEnd) this.oldSlots = null;
  }

  private keyIs(n: number, key: string): boolean {
    const row = n * ROW;
    if (this.rows[row + R_KEY] !== key.length) return false;
    const chunk = this.chunks[this.rows[row + R_CHUNK]!]!;
    const at = this.rows[row + R_AT]!;
    if (this.rows[row + R_WIDE] === 0) {
      for (let i = 0; i < key.length; i++) if (chunk[at + i] !== key.charCodeAt(i)) return false;
    } else {
      for (let i = 0; i < key.length; i++) {
        if ((chunk[at + 2 * i]! | (chunk[at + 2 * i + 1]! << 8)) !== key.charCodeAt(i))
          return false;
      }
    }
    return true;
  }

  private write(n: number, hash: number, key: string, print: string, result: string): void {
    const chars = key.length + print.length + result.length;
    // A byte a character, unless a character is above 255: then two, in room made for them.
    let wide = false;
    let chunk = this.roomFor(chars);
    let end = writeNarrow(chunk, this.used, key);
    if (end >= 0) end = writeNarrow(chunk, end, print);
    if (end >= 0) end = writeNarrow(chunk, end, result);
    if (end < 0) {
      wide = true;
      chunk = this.roomFor(2 * chars);
      end = writeWide(chunk, writeWide(chunk, writeWide(chunk, this.used, key), print), result);
    }
    const row = n * ROW;
    this.rows[row + R_HASH] = hash;
    this.rows[row + R_CHUNK] = this.chunks.length - 1;
    this.rows[row + R_AT] = this.used;
    this.rows[row + R_KEY] = key.length;
    this.rows[row + R_PRINT] = print.length;
    this.rows[row + R_RESULT] = result.length;
    this.rows[row + R_WIDE] = wide ? 1 : 0;
    this.used = end;
  }

  /** The last chunk, after a new one if it has no room for `bytes` more. */
  private roomFor(bytes: number): Uint8Array {
    if (this.used + bytes > this.chunks[this.chunks.length - 1]!.length) {
      this.chunks.push(new Uint8Array(Math.max(CHUNK_BYTES, bytes)));
      this.used = 0;
    }
    return this.chunks[this.chunks.length - 1]!;
  }

  private entryAt(n: number): DoneEntry {
    const { fingerprint, result } = this.textsAt(n);
    return { fingerprint, result: resultFromJson(plainResultOfText(result)) };
  }

  /** Entry n's fingerprint and result text. */
  private textsAt(n: number): { fingerprint: string; result: string } {
    const row = n * ROW;
    const keyLength = this.rows[row + R_KEY]!;
    const printLength = this.rows[row + R_PRINT]!;
    return {
      fingerprint: this.textAt(n, keyLength, printLength),
      result: this.textAt(n, keyLength + printLength, this.rows[row + R_RESULT]!),
    };
  }

  /** `length` characters of entry n's text from character `from`. */
  private textAt(n: number, from: number, length: number): string {
    const row = n * ROW;
    const chunk = this.chunks[this.rows[row + R_CHUNK]!]!;
    const wide = this.rows[row + R_WIDE] === 1;
    const start = this.rows[row + R_AT]! + (wide ? 2 * from : from);
    if (!wide) return narrowText(chunk, start, start + length);
    let text = '';
    for (let i = 0; i < length; i++) {
      text += String.fromCharCode(chunk[start + 2 * i]! | (chunk[start + 2 * i + 1]! << 8));
    }
    return text;
  }
}
