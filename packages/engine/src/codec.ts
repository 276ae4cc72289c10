// The journal's codec: commands and events to plain JSON (bigint as decimal strings) and back.
// Which fields are bigint is fixed here, so no reader has to guess; the compiler checks the
// lists against the types (AllListed below), so a bigint field added to a command or an event
// and left out here fails the build instead of coming back from the journal as a string.
import { ACCOUNT_KINDS } from './ledger.js';
import type {
  AccountKind,
  BalanceLeg,
  BalancePair,
  Command,
  CommandResult,
  DealEvent,
  EngineEvent,
  OrderView,
} from './types.js';

/** The fields of T whose values are bigints (optional ones too). */
type BigintKeys<T> = { [K in keyof T]-?: NonNullable<T[K]> extends bigint ? K : never }[keyof T];

/** `true` when `Listed` names every bigint field of T, else a type no value has. */
type AllListed<T, Listed extends readonly PropertyKey[]> = [
  Exclude<BigintKeys<T>, Listed[number]>,
] extends [never]
  ? true
  : { missing: Exclude<BigintKeys<T>, Listed[number]> };

const COMMAND_BIGINT_FIELDS = {
  'asset.add': [],
  'market.add': ['tickSize', 'lotSize', 'minAmount'],
  'market.setLimits': ['orderValueMax', 'orderAmountMax'],
  'user.add': [],
  'user.setCustomFee': [],
  'limits.set': [],
  'balance.deposit': ['amount'],
  'balance.withdrawHold': ['amount'],
  'balance.withdrawComplete': ['fee'],
  'balance.withdrawRelease': [],
  'balance.transfer': ['amount'],
  'balance.freeze': ['amount'],
  'balance.unfreeze': [],
  'balance.settleFreeze': [],
  'order.limit': ['price', 'amount'],
  'order.market': ['amount', 'total'],
  'order.stopLimit': ['stopPrice', 'price', 'amount'],
  'order.oco': ['price', 'stopPrice', 'limitPrice', 'amount'],
  'order.cancel': [],
  'order.cancelAll': [],
  'order.cancelAllByCoin': [],
} as const satisfies {
  [T in Command['type']]: readonly BigintKeys<Extract<Command, { type: T }>>[];
};

/** The bigint fields of any command that its type's list leaves out: never, when none is. */
type CommandFieldsMissing = {
  [T in Command['type']]: Exclude<
    BigintKeys<Extract<Command, { type: T }>>,
    (typeof COMMAND_BIGINT_FIELDS)[T][number]
  >;
}[Command['type']];
// The build fails here, naming the field, when a command's bigint field is not listed.
const commandFieldsListed: [CommandFieldsMissing] extends [never]
  ? true
  : { missing: CommandFieldsMissing } = true;

export type JsonObject = Record<string, unknown>;

const INTEGER_TEXT = /^-?(0|[1-9][0-9]*)$/;

/** A decimal integer string as bigint; throws on anything else (the journal is trusted). */
export function bigintFromJson(value: unknown, field: string): bigint {
  if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) {
    // NOTE: JSON.stringify throws on a bigint; the message names it instead.
    const shown = typeof value === 'bigint' ? `the bigint ${value}` : JSON.stringify(value);
    throw new TypeError(`${field}: expected an integer string, got ${shown}`);
  }
  return BigInt(value);
}

/**
 * A command as plain JSON: every bigint field becomes a decimal string (a stray bigint in a
 * field the command does not have too, so that writing the journal never fails).
 */
export function commandToJson(cmd: Command): JsonObject {
  const out: JsonObject = { ...cmd };
  for (const [field, value] of Object.entries(out)) {
    if (typeof value === 'bigint') out[field] = value.toString();
  }
  return out;
}

/** The inverse of commandToJson. Unknown command types throw: the journal is ours. */
export function commandFromJson(json: JsonObject): Command {
  const type = json.type as Command['type'];
  const fields: readonly string[] | undefined = COMMAND_BIGINT_FIELDS[type];
  if (fields === undefined) throw new TypeError(`unknown command type ${String(json.type)}`);
  const out: JsonObject = { ...json };
  for (const field of fields) {
    if (out[field] !== undefined) out[field] = bigintFromJson(out[field], field);
  }
  return out as unknown as Command;
}

/** Any value with bigints turned into decimal strings (for events, views and results). */
export function toPlainJson(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (value !== null && typeof value === 'object') {
    const out: JsonObject = {};
    for (const [key, inner] of Object.entries(value)) out[key] = toPlainJson(inner);
    return out;
  }
  return value;
}

/**
 * The inverse of toPlainJson for a command's result: a balance result's amounts as bigints
 * again; every other kind holds none.
 */
export function resultFromJson(json: unknown): CommandResult {
  const r = json as { kind: string; balances?: Record<AccountKind, Record<string, string>> };
  if (r.kind !== 'balance' || r.balances === undefined) return r as CommandResult;
  const balances = {} as Record<AccountKind, BalancePair>;
  for (const kind of ACCOUNT_KINDS) {
    const pair = r.balances[kind]!;
    balances[kind] = {
      available: bigintFromJson(pair.available, 'available'),
      frozen: bigintFromJson(pair.frozen, 'frozen'),
    };
  }
  return { ...(r as object), balances } as CommandResult;
}

const ORDER_BIGINT_FIELDS = [
  'amount',
  'total',
  'price',
  'stop_price',
  'limit_price',
  'left',
  'deal_stock',
  'deal_money',
  'deal_fee',
  'deal_fee_ltt',
] as const;
const DEAL_BIGINT_FIELDS = ['price', 'amount', 'total', 'makerFee', 'takerFee'] as const;
const LEG_BIGINT_FIELDS = ['availableDelta', 'frozenDelta', 'available', 'frozen'] as const;
// As for the commands: the build fails here, naming the field, when an event's is not listed.
const eventFieldsListed: [
  AllListed<OrderView, typeof ORDER_BIGINT_FIELDS>,
  AllListed<DealEvent, typeof DEAL_BIGINT_FIELDS>,
  AllListed<BalanceLeg, typeof LEG_BIGINT_FIELDS>,
] = [true, true, true];
// Read once, so that the two checks above are not unused values: they exist for their types.
void commandFieldsListed;
void eventFieldsListed;

function reviveFields(obj: JsonObject, fields: readonly string[]): JsonObject {
  const out: JsonObject = { ...obj };
  for (const field of fields) out[field] = bigintFromJson(out[field], field);
  return out;
}

/** An event as plain JSON (bigints as decimal strings). */
export function eventToJson(event: EngineEvent): JsonObject {
  return toPlainJson(event) as JsonObject;
}

/** The inverse of eventToJson. */
export function eventFromJson(json: JsonObject): EngineEvent {
  switch (json.type) {
    case 'order.put':
    case 'order.update':
    case 'order.finish':
    case 'order.triggered':
      return {
        ...json,
        order: reviveFields(json.order as JsonObject, ORDER_BIGINT_FIELDS),
      } as unknown as EngineEvent;
    case 'deal':
      return reviveFields(json, DEAL_BIGINT_FIELDS) as unknown as EngineEvent;
    case 'balance':
      return {
        ...json,
        legs: (json.legs as JsonObject[]).map((leg) => reviveFields(leg, LEG_BIGINT_FIELDS)),
      } as unknown as EngineEvent;
    default:
      throw new TypeError(`unknown event type ${String(json.type)}`);
  }
}
