// Open orders as rows of one Float64Array: a slot per order, reused after it finishes, and
// order id to slot. One row holds all of an order's fields, so a fill touches a few cache lines
// of one row instead of one line per field array; the hot fields come first. Its links to other
// orders (its level's FIFO, its user's list) are a row of an Int32Array beside it (orderRow.ts).
import { InvariantViolation } from '../errors.js';
import type { OrderSource, TimeInForce } from '../types.js';
import { IN_PLACE_FROM, InPlaceArray } from './inPlaceArray.js';
import {
  LINK_NEXT,
  LINK_PREV,
  LINK_USER_NEXT,
  LINK_USER_PREV,
  LINK_WIDTH,
  NONE,
  O_FINISH_REASON,
  O_ID,
  O_LEVEL,
  O_SIBLING,
  O_USER,
  ORDER_WIDTH,
} from './orderRow.js';

/** O_TIME_IN_FORCE holds the index of the order's time in force here. */
export const TIME_IN_FORCE_CODES: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK', 'POST_ONLY'];
/** O_SOURCE holds the index of the order's source here. */
export const SOURCE_CODES: readonly OrderSource[] = ['web', 'api'];

/**
 * A buy's money and fee numerators (order.ts moneyNum and feeNum, in minor units × scale and
 * × scale × 10^6) once either count of units would pass 2^53: its row's O_MONEY_UNITS and
 * O_FEE_UNITS then hold BIG_UNITS and the numerators are in OrderTable.bigUnits.
 */
export interface BigNumerators {
  moneyNum: bigint;
  feeNum: bigint;
}

/** O_MONEY_UNITS and O_FEE_UNITS of an order whose numerators are kept in bigint. */
export const BIG_UNITS = -1;

const SLOTS_DEFAULT = 1 << 10;
const RING_SIZE_DEFAULT = 1 << 16;
/**
 * Positions of the ring split with each new order while it doubles (growRing): all of them
 * long before the next doubling, which takes as many new orders as the old ring had positions.
 */
const SPLIT_STEP = 4;
const USERS_DEFAULT = 64;

export class OrderTable {
  // The rows and links grow in place (inPlaceArray.ts); these are their arrays as of now.
  private readonly rowCells: InPlaceArray<Float64Array>;
  private readonly linkCells: InPlaceArray<Int32Array>;
  private orderRows: Float64Array;
  private orderLinks: Int32Array;
  private capacity: number;
  /** Slots ever handed out: every slot below is open or on the free list. */
  private slotsUsed = 0;
  private readonly freeSlotCells: InPlaceArray<Int32Array>;
  private freeSlots: Int32Array;
  private freeCount = 0;
  private openCount = 0;
  // Id to slot. Ids are issued in sequence and can reach the billions, so they index a ring
  // (id modulo its power-of-two size), not an array: consecutive orders sit in consecutive
  // positions, with no hashing. An order still open when its position comes round again
  // (after ring-size newer ids) moves to `lapped`, which stays small (orderIndex.ts).
  // A position keeps its id beside its slot: a lookup compares the id without reading the
  // order's row, and the ring doubles without reading any row (growRing, splitPosition).
  private readonly ringSlotCells: InPlaceArray<Int32Array>;
  private readonly ringIdCells: InPlaceArray<Float64Array>;
  private ringSlots: Int32Array;
  /** The id of the order at each position, 0 when none (ids are positive). */
  private ringIds: Float64Array;
  private ringMask: number;
  /**
   * While the ring doubles: the old ring's mask, and the old positions below `splitNext` split
   * (growRing). An old position not yet split may still hold an id whose position is now the
   * one half the ring above; -1 when not doubling.
   */
  private oldMask = -1;
  private splitNext = 0;
  private readonly lapped = new Map<number, number>();
  /** The largest id ever allocated: a larger one cannot be open. */
  private idMax = 0;
  // Per holder, grown in place as the ring is: copied, the two arrays held the first order of
  // the 1,244,182nd user of a scratch script (each user signing up, ordering and cancelling)
  // for 17.63 ms.
  private readonly userHeadCells: InPlaceArray<Int32Array>;
  private readonly userOpenCells: InPlaceArray<Int32Array>;
  /**
   * Per holder index, the slot of the newest open order plus one, 0 when none: a cell the
   * array grows by is 0.
   */
  private userHeads: Int32Array;
  /** Per holder index, how many open orders its list holds (the cap of limits.set reads it). */
  private userOpen: Int32Array;
  /** By slot, the numerators of the open orders whose rows hold BIG_UNITS: few or none. */
  readonly bigUnits = new Map<number, BigNumerators>();

  /**
   * The ring size must be a power of two; small sizes are for tests, as is `inPlaceFrom`: the
   * bytes from which an array grows in place (inPlaceArray.ts).
   */
  constructor(
    slotCapacity = SLOTS_DEFAULT,
    ringSize = RING_SIZE_DEFAULT,
    userCapacity = USERS_DEFAULT,
    inPlaceFrom = IN_PLACE_FROM,
  ) {
    if (!Number.isInteger(slotCapacity) || slotCapacity < 1)
      throw new RangeError('slot capacity must be a positive integer');
    if (ringSize < 1 || ringSize > 1 << 30 || (ringSize & (ringSize - 1)) !== 0)
      throw new RangeError('ring size must be a power of two up to 2^30');
    this.capacity = slotCapacity;
    this.rowCells = new InPlaceArray(Float64Array, slotCapacity * ORDER_WIDTH, inPlaceFrom);
    this.linkCells = new InPlaceArray(Int32Array, slotCapacity * LINK_WIDTH, inPlaceFrom);
    this.orderRows = this.rowCells.array;
    this.orderLinks = this.linkCells.array;
    this.freeSlotCells = new InPlaceArray(Int32Array, slotCapacity, inPlaceFrom);
    this.freeSlots = this.freeSlotCells.array;
    this.ringSlotCells = new InPlaceArray(Int32Array, ringSize, inPlaceFrom);
    this.ringIdCells = new InPlaceArray(Float64Array, ringSize, inPlaceFrom);
    this.ringSlots = this.ringSlotCells.array;
    this.ringIds = this.ringIdCells.array;
    this.ringMask = ringSize - 1;
    const users = Math.max(1, userCapacity);
    this.userHeadCells = new InPlaceArray(Int32Array, users, inPlaceFrom);
    this.userOpenCells = new InPlaceArray(Int32Array, users, inPlaceFrom);
    this.userHeads = this.userHeadCells.array;
    this.userOpen = this.userOpenCells.array;
  }

  /**
   * Every order's row: slot × ORDER_WIDTH + O_FIELD. NOTE: `allocate` replaces this array when
   * it grows, so re-read it after every allocate instead of keeping it across one.
   */
  get rows(): Float64Array {
    return this.orderRows;
  }

  /**
   * Every order's links: slot × LINK_WIDTH + LINK_FIELD. NOTE: replaced with the rows when
   * `allocate` grows them: re-read it after every allocate.
   */
  get links(): Int32Array {
    return this.orderLinks;
  }

  /** Open orders (allocated and not released). */
  get count(): number {
    return this.openCount;
  }

  /**
   * Take a slot for a new open order and record id -> slot. The row starts cleared: numbers 0,
   * level, sibling and finish reason NONE, O_ID the id; its links all NONE. Ids are positive safe
   * integers, unique among open orders.
   */
  allocate(id: number): number {
    // NOTE: the engine's ids only grow, so the usual new id skips the lookup, which reads the row
    // of an older order at the id's ring position and searches `lapped` (the bench's workload
    // ends with about 1,700 orders there): a third of `newOrder`'s time in a profile of it.
    if (id > this.idMax) this.idMax = id;
    else if (this.slotOf(id) !== NONE) throw new InvariantViolation(`order ${id} is already open`);
    const slot = this.freeCount > 0 ? this.freeSlots[--this.freeCount]! : this.newSlot();
    const rows = this.orderRows;
    const row = slot * ORDER_WIDTH;
    // A loop, not `fill`: a typed array's fill is a call into the runtime, dearer for one row.
    for (let f = row; f < row + ORDER_WIDTH; f++) rows[f] = 0;
    rows[row + O_ID] = id;
    rows[row + O_LEVEL] = NONE;
    rows[row + O_SIBLING] = NONE;
    rows[row + O_FINISH_REASON] = NONE;
    const links = this.orderLinks;
    const link = slot * LINK_WIDTH;
    links[link + LINK_PREV] = NONE;
    links[link + LINK_NEXT] = NONE;
    links[link + LINK_USER_PREV] = NONE;
    links[link + LINK_USER_NEXT] = NONE;
    this.place(id, slot);
    this.openCount++;
    if (this.oldMask >= 0) this.splitSome(SPLIT_STEP);
    // Once the ring is full of open orders most new ids would lap one: double it.
    if (this.openCount > this.ringSlots.length) this.growRing();
    return slot;
  }

  /**
   * Free an open order's slot for reuse and forget its id. The caller decides when: a finished
   * order's row is read until the next command, so the engine releases it then.
   */
  release(slot: number): void {
    const id = this.orderRows[slot * ORDER_WIDTH + O_ID]!;
    let at = id & this.ringMask;
    // While the ring doubles, the id may still be at its old position (splitPosition).
    if (this.ringIds[at] !== id && this.oldMask >= 0) at &= this.oldMask;
    if (this.ringIds[at] === id && this.ringSlots[at] === slot) this.ringIds[at] = 0;
    else if (this.lapped.size > 0 && this.lapped.get(id) === slot) this.lapped.delete(id);
    else throw new InvariantViolation(`slot ${slot} is not open`);
    if (this.bigUnits.size > 0) this.bigUnits.delete(slot);
    this.freeSlots[this.freeCount++] = slot;
    this.openCount--;
  }

  /** Open orders kept aside because their ring position came round (diagnostics, tests). */
  get lappedCount(): number {
    return this.lapped.size;
  }

  /** The slot of an open order, NONE when no open order has that id. */
  slotOf(id: number): number {
    const at = id & this.ringMask;
    // `id > 0`: a position without an order holds id 0.
    if (this.ringIds[at] === id && id > 0) return this.ringSlots[at]!;
    if (this.oldMask >= 0) {
      // While the ring doubles, the id may still be at its old position (splitPosition).
      const old = at & this.oldMask;
      if (this.ringIds[old] === id && id > 0) return this.ringSlots[old]!;
    }
    return this.lapped.size === 0 ? NONE : (this.lapped.get(id) ?? NONE);
  }

  // --- the user's list of open orders, newest first ------------------------------------------

  /** The newest open order of a holder, NONE when none; follow LINK_USER_NEXT for the rest. */
  firstOfUser(user: number): number {
    return user < this.userHeads.length ? this.userHeads[user]! - 1 : NONE;
  }

  /** How many open orders a holder has. */
  openOfUser(user: number): number {
    return user < this.userOpen.length ? this.userOpen[user]! : 0;
  }

  /** Put an order (its O_USER set, not yet in its user's list) at the front of that list. */
  linkUser(slot: number): void {
    const user = this.orderRows[slot * ORDER_WIDTH + O_USER]! | 0;
    if (user >= this.userHeads.length) {
      const length = Math.max(user + 1, this.userHeads.length * 2);
      this.userHeads = this.userHeadCells.grow(length);
      this.userOpen = this.userOpenCells.grow(length);
    }
    this.userOpen[user]!++;
    const head = this.userHeads[user]! - 1;
    const links = this.orderLinks;
    const link = slot * LINK_WIDTH;
    links[link + LINK_USER_PREV] = NONE;
    links[link + LINK_USER_NEXT] = head;
    if (head !== NONE) links[head * LINK_WIDTH + LINK_USER_PREV] = slot;
    this.userHeads[user] = slot + 1;
  }

  /** Take an order out of its user's list (when it finishes, before its slot is released). */
  unlinkUser(slot: number): void {
    const links = this.orderLinks;
    const link = slot * LINK_WIDTH;
    const prev = links[link + LINK_USER_PREV]!;
    const next = links[link + LINK_USER_NEXT]!;
    const user = this.orderRows[slot * ORDER_WIDTH + O_USER]! | 0;
    this.userOpen[user]!--;
    if (prev === NONE) this.userHeads[user] = next + 1;
    else links[prev * LINK_WIDTH + LINK_USER_NEXT] = next;
    if (next !== NONE) links[next * LINK_WIDTH + LINK_USER_PREV] = prev;
    links[link + LINK_USER_PREV] = NONE;
    links[link + LINK_USER_NEXT] = NONE;
  }

  /** Throws unless every holder's count of open orders is the length of its list. */
  assertUserCounts(): void {
    const links = this.orderLinks;
    for (let user = 0; user < this.userHeads.length; user++) {
      let length = 0;
      const head = this.userHeads[user]! - 1;
      for (let o = head; o !== NONE; o = links[o * LINK_WIDTH + LINK_USER_NEXT]!) {
        length++;
      }
      if (length !== this.userOpen[user]) {
        throw new InvariantViolation(
          `holder ${user}: ${this.userOpen[user]} open orders counted, ${length} listed`,
        );
      }
    }
  }

  /**
   * Room for `count` open orders, made at once: a restore knows how many it puts back, and
   * growing to them one doubling at a time copied the rows again at each.
   */
  reserve(count: number): void {
    let size = this.capacity;
    while (size < count) size *= 2;
    if (size > this.capacity) this.growSlots(size);
    while (this.ringSlots.length < count) {
      this.growRing();
      this.splitSome(this.ringSlots.length);
    }
  }

  // --- internals -----------------------------------------------------------------------------

  private newSlot(): number {
    if (this.slotsUsed === this.capacity) this.growSlots(this.capacity * 2);
    return this.slotsUsed++;
  }

  private growSlots(size: number): void {
    this.capacity = size;
    this.orderRows = this.rowCells.grow(size * ORDER_WIDTH);
    this.orderLinks = this.linkCells.grow(size * LINK_WIDTH);
    this.freeSlots = this.freeSlotCells.grow(size);
  }

  /** Record id -> slot: the newer of two ids at one ring position keeps it. */
  private place(id: number, slot: number): void {
    const at = id & this.ringMask;
    // While the ring doubles, the position's old one is split first: its id, if the id's
    // position is this one, comes here (and is this position's occupant).
    if (this.oldMask >= 0) this.splitPosition(at & this.oldMask);
    const occupantId = this.ringIds[at]!;
    if (occupantId !== 0) {
      if (occupantId > id) {
        // An id older than the position's occupant (a restore, in any order): it goes aside.
        this.lapped.set(id, slot);
        return;
      }
      this.lapped.set(occupantId, this.ringSlots[at]!);
    }
    this.ringIds[at] = id;
    this.ringSlots[at] = slot;
  }

  /**
   * Double the ring. A position is its id's low bits, so at twice the size an id is where it
   * was or the old size above: the old ring is the new one's lower half, and each of its
   * positions is split by moving an id whose position is now above it up there
   * (splitPosition), a few with each new order (SPLIT_STEP) and any that a new id's position
   * needs first, so that no one order moves them all: copying the ring into its upper half at
   * once held the 2,097,153rd open order for 13.46 ms (a scratch script allocating ids in an
   * OrderTable). Until all are split, a lookup that misses looks at the old position too. The
   * upper half starts with no id: the arrays grow with zeros.
   */
  private growRing(): void {
    // Not reached while splitting (all are split long before): a guard.
    if (this.oldMask >= 0) this.splitSome(this.ringSlots.length);
    const half = this.ringSlots.length;
    this.ringSlots = this.ringSlotCells.grow(half * 2);
    this.ringIds = this.ringIdCells.grow(half * 2);
    this.ringMask = half * 2 - 1;
    this.oldMask = half - 1;
    this.splitNext = 0;
  }

  /** Split up to `most` more of the old positions; once all are, the ring has doubled. */
  private splitSome(most: number): void {
    const end = Math.min(this.splitNext + most, this.oldMask + 1);
    for (let old = this.splitNext; old < end; old++) this.splitPosition(old);
    this.splitNext = end;
    if (end <= this.oldMask) return;
    this.oldMask = -1;
    // Orders set aside may have a free position in the larger ring.
    if (this.lapped.size === 0) return;
    const lapped = [...this.lapped];
    this.lapped.clear();
    for (const [id, slot] of lapped) this.place(id, slot);
  }

  /**
   * Move the id at an old position up to the position half the ring above when that is its
   * position now. Splitting a position twice moves nothing the second time, so a position a new
   * id split first is split again by splitSome harmlessly.
   */
  private splitPosition(old: number): void {
    const id = this.ringIds[old]!;
    if (id === 0 || (id & this.ringMask) === old) return;
    const up = old + this.oldMask + 1;
    // Nothing is placed above an old position before it is split, so `up` holds no id yet.
    this.ringIds[up] = id;
    this.ringSlots[up] = this.ringSlots[old]!;
    this.ringIds[old] = 0;
  }
}
