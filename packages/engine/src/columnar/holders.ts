// The columnar core's holders: the balance table's holder index of each user and system
// account, the bigint core's Holder behind it, which balances exist, and moving balances
// between the table and the Holders for the rare commands the bigint core's handlers run.
//
// Between commands `meta` holds no user and the system Holders no account sets: a user is a few
// numbers in the registry's columns and the balance table, no object in the heap
// (docs/decisions/engine-users-memory.md). A rare command's users are lent to `meta` for it
// (lend), their sets made from the table (load), and after it the sets stored back and dropped
// (store) and the users taken back (takeBack); a hand-over to the bigint core makes all of them,
// and a snapshot none (it reads the columns and the table).
import { InvariantViolation } from '../errors.js';
import { ACCOUNT_KINDS, type Holder, UserState } from '../ledger.js';
import type { State } from '../state.js';
import type { Command } from '../types.js';
import { UserIndex } from '../userIndex.js';
import { isUserId } from '../validate.js';
import type { AccountKindIndex, BalanceTable } from './balanceTable.js';
import { InPlaceArray } from './inPlaceArray.js';
import { OWNER_EXTERNAL, OWNER_FEES, OWNER_ROUNDING } from './recordLayout.js';

/**
 * User ids below this have their holder in an array by id: 64 MiB at most, grown in place, of
 * which only the pages of ids in use are resident.
 */
const DENSE_IDS = 1 << 24;
/** The system holders, in their order: external, fees, rounding. */
const SYSTEM_OWNERS = [OWNER_EXTERNAL, OWNER_FEES, OWNER_ROUNDING];
/** The first user's holder: the system holders come first. */
const FIRST_USER = SYSTEM_OWNERS.length;

/** The holders and assets a rare command may move: loaded before it, stored after. */
export interface Involved {
  holders: number[];
  assets: string[];
}

export class HolderRegistry {
  readonly external = 0;
  readonly fees = 1;
  readonly rounding = 2;
  /**
   * A user's holder plus one (0 where unknown): by id in an array for ids below DENSE_IDS, since
   * the ids a database issues are dense and an order looks its user up first thing, where a
   * Map's hashing showed in profiles; in `farUsers` for larger ids, in 256 Maps so that none
   * grows large at once. With ids from 2^20 in one Map (DENSE_IDS was 2^20), the sign-up of
   * user 2,097,152 took 207 ms, the Map growing past 1,048,576 entries.
   */
  private readonly denseColumn = new InPlaceArray(Int32Array, 64);
  private denseHolders = this.denseColumn.array;
  private readonly farUsers = new UserIndex<number>();
  // The per-holder columns grow in place (docs/decisions/growing-in-place.md). As arrays of the
  // heap, grown by half again when full, they held the sign-ups of the 629,500th and 944,768th
  // users of the users bench for 17 to 58 ms, copying three arrays of that many entries.
  // Their holders are the balance table's: the registry alone adds holders to it.
  private readonly ownerColumn = new InPlaceArray(Float64Array, 64);
  /** Per holder: its owner in records (the user id, or an OWNER_ code). */
  private owners = this.ownerColumn.array;
  private readonly lttColumn = new InPlaceArray(Int32Array, 64);
  /** Per holder: 1 when it pays fees in LTT when it can (user.setCustomFee), else 0. */
  private lttFees = this.lttColumn.array;
  /** How many users pay fees in LTT: while none does, a fill need not ask. */
  lttFeeUsers = 0;
  /**
   * Per asset index, per holder: 1 once the holder's account set of the asset exists (a balance
   * that exists is listed by queries and written by snapshots, zero or not in queries, and made
   * in `meta` for a command that reads it). Never cleared, as the bigint core never removes an
   * account set; an order asks on every placement. The arrays are the cells of `knownColumns`.
   */
  private readonly known: Uint8Array[] = [];
  private readonly knownColumns: InPlaceArray<Uint8Array>[] = [];

  constructor(
    private readonly meta: State,
    private readonly balances: BalanceTable,
  ) {
    for (const owner of SYSTEM_OWNERS)
      this.append(balances.addHolder(owner === OWNER_EXTERNAL), owner);
  }

  get count(): number {
    return this.balances.holderCount;
  }

  /** The holder of a user, or -1 when the user is unknown. */
  findUser(userId: unknown): number {
    if (typeof userId !== 'number') return -1;
    // Undefined for an id out of the array's range, negative, or not an integer.
    const h = this.denseHolders[userId];
    if (h !== undefined) return h - 1;
    return this.farUsers.get(userId) ?? -1;
  }

  ownerCode(holder: number): number {
    return this.owners[holder | 0]!;
  }

  /**
   * The bigint core's holder in `meta`: a system account, or the user in its registry, which
   * holds a user only while it is lent (lend).
   */
  metaHolder(holder: number): Holder {
    if (holder === this.external) return this.meta.external;
    if (holder === this.fees) return this.meta.fees;
    if (holder === this.rounding) return this.meta.rounding;
    return this.meta.users.get(this.owners[holder]!)!;
  }

  /** The holder's owner as snapshots and events name it: a user id, or a system account's name. */
  ownerOf(holder: number): Holder['owner'] {
    return holder < FIRST_USER ? this.metaHolder(holder).owner : this.owners[holder]!;
  }

  /** Every user's holder, in the order of their ids (as a snapshot lists users). */
  usersById(): number[] {
    const out: number[] = [];
    // Ids below DENSE_IDS, in order, are the array's; every larger one is a far user's.
    const dense = this.denseHolders;
    for (let id = 0; id < dense.length; id++) if (dense[id]! > 0) out.push(dense[id]! - 1);
    const far = [...this.farUsers.keys()].sort((a, b) => a - b);
    for (const id of far) out.push(this.farUsers.get(id)!);
    return out;
  }

  /** The users as a snapshot lists them: by id, each with its fee setting. */
  userRows(): { userId: number; customFee: boolean }[] {
    return this.usersById().map((h) => ({
      userId: this.owners[h]!,
      customFee: this.lttFees[h] === 1,
    }));
  }

  /**
   * Make the holder's accounts of an asset exist, as the bigint core's handlers do by asking for
   * one of them: a balance that exists is listed by queries, zero or not.
   */
  ensureAccounts(holder: number, asset: number): void {
    if (!this.hasAccounts(holder, asset)) this.markKnown(holder, asset);
  }

  /** Whether the holder's accounts of the asset with this index exist. */
  hasAccounts(holder: number, asset: number): boolean {
    const known = this.known[asset];
    return known !== undefined && known[holder] === 1;
  }

  private markKnown(holder: number, asset: number): void {
    let column = this.knownColumns[asset];
    if (column === undefined) {
      column = new InPlaceArray(Uint8Array, 16);
      this.knownColumns[asset] = column;
      this.known[asset] = column.array;
    }
    let known = this.known[asset]!;
    if (holder >= known.length) {
      known = column.grow(Math.max(holder + 1, known.length * 2));
      this.known[asset] = known;
    }
    known[holder] = 1;
  }

  paysLtt(holder: number): boolean {
    return this.lttFees[holder] === 1;
  }

  /** Take a user's fee setting from `meta`, where it is lent (after user.setCustomFee). */
  private syncCustomFee(holder: number): void {
    const user = this.metaHolder(holder);
    const on = user instanceof UserState && user.customFee ? 1 : 0;
    if (on === this.lttFees[holder]) return;
    this.lttFees[holder] = on;
    this.lttFeeUsers += on === 1 ? 1 : -1;
  }

  /** Give a holder to the users a rare command may have made known (user.add, deposit...). */
  registerUsersOf(cmd: Command): void {
    const record = cmd as unknown as { userId?: unknown; toUserId?: unknown };
    this.register(record.userId);
    this.register(record.toUserId);
  }

  /** Give a holder to a user `meta` holds (a no-op for one that has one). */
  registerUser(userId: number): void {
    this.register(userId);
  }

  private register(userId: unknown): void {
    if (!isUserId(userId) || this.findUser(userId) >= 0) return;
    const user = this.meta.users.get(userId);
    if (user === undefined) return;
    const h = this.balances.addHolder(false);
    if (userId >= DENSE_IDS) {
      this.farUsers.set(userId, h);
    } else {
      if (userId >= this.denseHolders.length) {
        const length = Math.min(DENSE_IDS, Math.max(userId + 1, this.denseHolders.length * 2));
        this.denseHolders = this.denseColumn.grow(length);
      }
      this.denseHolders[userId] = h + 1;
    }
    this.append(h, userId);
    this.syncCustomFee(h);
  }

  /** Give the per-holder columns the table's new holder `h`, owned by `owner`. */
  private append(h: number, owner: number): void {
    if (h === this.owners.length) {
      this.owners = this.ownerColumn.grow(h * 2);
      this.lttFees = this.lttColumn.grow(h * 2);
    }
    this.owners[h] = owner;
  }

  /**
   * Lend the involved users to `meta` for a rare command's handler: each a UserState with its
   * fee setting, and no account set until load makes those it reads.
   */
  lend(involved: Involved): void {
    for (const h of involved.holders) if (h >= FIRST_USER) this.lendUser(h);
  }

  /** Lend every user, for the bigint core to take them all (a hand-over). */
  lendAll(): void {
    for (let h = FIRST_USER; h < this.count; h++) this.lendUser(h);
  }

  private lendUser(h: number): void {
    const user = new UserState(this.owners[h]!);
    user.customFee = this.lttFees[h] === 1;
    this.meta.users.set(user.userId, user);
  }

  /**
   * Take the involved users back after their command, with the fee settings it left them; the
   * users it made must be registered first (registerUsersOf) and among them, and their sets
   * stored. A user left in `meta` is one the registry would never see again: a bug, which halts.
   */
  takeBack(involved: Involved): void {
    for (const h of involved.holders) {
      if (h < FIRST_USER) continue;
      this.syncCustomFee(h);
      this.meta.users.delete(this.owners[h]!);
    }
    if (this.meta.users.size !== 0) {
      throw new InvariantViolation(`${this.meta.users.size} users left in the registry's state`);
    }
  }

  /** After a restore has registered every user `meta` holds (registerUser): take them back. */
  takeBackAll(): void {
    this.meta.users.clear();
  }

  /**
   * What a balance command can move: its user's, its receiver's and its hold's owner's
   * balances and the system accounts, of its asset and its hold's asset.
   */
  involved(cmd: Command): Involved {
    const record = cmd as unknown as {
      userId?: unknown;
      toUserId?: unknown;
      asset?: unknown;
      businessId?: unknown;
    };
    const holders = [this.external, this.fees, this.rounding];
    const assets: string[] = [];
    const add = (h: number) => {
      if (h >= 0 && !holders.includes(h)) holders.push(h);
    };
    add(this.findUser(record.userId));
    add(this.findUser(record.toUserId));
    if (typeof record.asset === 'string' && this.meta.assets.has(record.asset)) {
      assets.push(record.asset);
    }
    if (typeof record.businessId === 'string') {
      for (const kind of ['withdraw', 'freeze']) {
        const hold = this.meta.holds.get(`${kind}:${record.businessId}`);
        if (hold === undefined) continue;
        add(this.findUser(hold.userId));
        if (!assets.includes(hold.asset)) assets.push(hold.asset);
      }
    }
    return { holders, assets };
  }

  merged(a: Involved, b: Involved): Involved {
    return {
      holders: [...new Set([...a.holders, ...b.holders])],
      assets: [...new Set([...a.assets, ...b.assets])],
    };
  }

  /**
   * Make the involved holders' account sets of the involved assets that exist, with the table's
   * balances: what a rare command's handler reads and moves.
   */
  load(involved: Involved): void {
    const table = this.balances;
    for (const h of involved.holders) {
      const holder = this.metaHolder(h);
      for (const asset of involved.assets) {
        const index = this.meta.assets.get(asset)!.index;
        if (!this.hasAccounts(h, index)) continue;
        const set = holder.accounts(asset);
        for (let k = 0; k < ACCOUNT_KINDS.length; k++) {
          const cell = table.cell(h, k as AccountKindIndex);
          const b = set[ACCOUNT_KINDS[k]!];
          b.available = table.available(index, cell);
          b.frozen = table.frozen(index, cell);
        }
      }
    }
  }

  /**
   * Copy the involved holders' account sets (those loaded, and any their command made) into the
   * table, note that they exist, and drop them.
   */
  store(involved: Involved): void {
    const table = this.balances;
    for (const h of involved.holders) {
      const holder = this.metaHolder(h);
      for (const set of holder.accountSets) {
        const index = this.meta.assets.get(set.asset)!.index;
        for (let k = 0; k < ACCOUNT_KINDS.length; k++) {
          const cell = table.cell(h, k as AccountKindIndex);
          const b = set[ACCOUNT_KINDS[k]!];
          if (
            !table.setAvailable(index, cell, b.available) ||
            !table.setFrozen(index, cell, b.frozen)
          ) {
            throw new InvariantViolation(
              `balance out of the columnar range: ${String(b.owner)} ${b.asset}`,
            );
          }
        }
        this.markKnown(h, index);
      }
      holder.dropAccounts();
    }
  }

  /** Copy every balance of the bigint core into the table (a restore); false when one does not fit. */
  storeAll(): boolean {
    const assets = [...this.meta.assets.keys()];
    try {
      for (let h = 0; h < this.count; h++) this.store({ holders: [h], assets });
    } catch (error) {
      if (error instanceof InvariantViolation) return false;
      throw error;
    }
    return true;
  }

  /** Make every account set that exists, with the table's balances (for the bigint core to take them). */
  loadAll(): void {
    const assets = [...this.meta.assets.keys()];
    for (let h = 0; h < this.count; h++) this.load({ holders: [h], assets });
  }

  /**
   * Between commands `meta` holds no user and no system Holder an account set: they would be
   * stale copies of the columns and the table.
   */
  assertNothingLent(): void {
    if (this.meta.users.size !== 0) {
      throw new InvariantViolation(`${this.meta.users.size} users lent between commands`);
    }
    for (let h = 0; h < FIRST_USER; h++) {
      if (this.metaHolder(h).accountSets.length > 0) {
        throw new InvariantViolation(
          `holder ${this.owners[h]} keeps account sets between commands`,
        );
      }
    }
  }
}
