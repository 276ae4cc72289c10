// The bigint core's command dispatch: one command applied to a State, with the business-id
// check that makes a repeat of a balance command a no-op returning its first result.
import {
  deposit,
  freeze,
  settleFreeze,
  transfer,
  unfreeze,
  withdrawComplete,
  withdrawHold,
  withdrawRelease,
} from './balances.js';
import { cancelAll, cancelAllByCoin, cancelOne } from './cancel.js';
import { placeOco, placeStopLimit } from './conditional.js';
import { reject } from './errors.js';
import { placeLimit, placeMarket } from './place.js';
import { addAsset, addMarket, addUser, setCustomFee, setLimits, setMarketLimits } from './setup.js';
import type { State } from './state.js';
import type { ApplyResult, Command } from './types.js';
import { checkBusinessId } from './validate.js';

type Handler = (s: State, cmd: never) => ApplyResult;

const HANDLERS: Record<Command['type'], Handler> = {
  'asset.add': addAsset,
  'market.add': addMarket,
  'user.add': addUser,
  'user.setCustomFee': setCustomFee,
  'limits.set': setLimits,
  'market.setLimits': setMarketLimits,
  'balance.deposit': deposit,
  'balance.withdrawHold': withdrawHold,
  'balance.withdrawComplete': withdrawComplete,
  'balance.withdrawRelease': withdrawRelease,
  'balance.transfer': transfer,
  'balance.freeze': freeze,
  'balance.unfreeze': unfreeze,
  'balance.settleFreeze': settleFreeze,
  'order.limit': placeLimit,
  'order.market': placeMarket,
  'order.stopLimit': placeStopLimit,
  'order.oco': placeOco,
  'order.cancel': cancelOne,
  'order.cancelAll': cancelAll,
  'order.cancelAllByCoin': cancelAllByCoin,
};

/** Commands whose business id makes a repeat a no-op. */
const IDEMPOTENT = new Set<string>([
  'balance.deposit',
  'balance.withdrawHold',
  'balance.withdrawComplete',
  'balance.withdrawRelease',
  'balance.transfer',
  'balance.freeze',
  'balance.unfreeze',
  'balance.settleFreeze',
]);

/** The fields that say what an idempotent command asks for (its time is not one of them). */
const FINGERPRINT_FIELDS: Record<string, readonly string[]> = {
  'balance.deposit': ['userId', 'asset', 'amount', 'businessId', 'business'],
  'balance.withdrawHold': ['userId', 'asset', 'amount', 'businessId'],
  'balance.withdrawComplete': ['businessId', 'fee'],
  'balance.withdrawRelease': ['businessId'],
  'balance.transfer': ['userId', 'asset', 'amount', 'from', 'to', 'businessId'],
  'balance.freeze': ['userId', 'asset', 'account', 'amount', 'businessId', 'purpose'],
  'balance.unfreeze': ['businessId'],
  'balance.settleFreeze': ['businessId', 'toUserId'],
};

/**
 * What a command asks for: a repeat must ask for the same thing. Null when a field cannot be
 * written as JSON at all (a cycle): such input is rejected.
 */
function fingerprint(cmd: Command): string | null {
  const record = cmd as unknown as Record<string, unknown>;
  const values = (FINGERPRINT_FIELDS[cmd.type] ?? []).map((field) => record[field]);
  try {
    // JSON has no bigint: write one as its digits and an n.
    return JSON.stringify(values, (_key, value) =>
      typeof value === 'bigint' ? `${value}n` : value,
    );
  } catch {
    return null;
  }
}

/**
 * Apply one command, whose type and time the caller has checked, to a state. Bad input is a
 * rejection and leaves the state as it was.
 */
export function applyToState(s: State, cmd: Command): ApplyResult {
  s.time = cmd.time;
  s.events = [];
  s.lastViewOrder = null;
  // The hot commands first, without a table lookup.
  switch (cmd.type) {
    case 'order.limit':
      return placeLimit(s, cmd);
    case 'order.cancel':
      return cancelOne(s, cmd);
    case 'order.market':
      return placeMarket(s, cmd);
  }
  const handler = HANDLERS[cmd.type] as ((s: State, c: Command) => ApplyResult) | undefined;
  if (handler === undefined || !Object.hasOwn(HANDLERS, cmd.type)) {
    return reject('invalid_command', 'Unknown command type', 'type');
  }
  if (!IDEMPOTENT.has(cmd.type)) return handler(s, cmd);
  const businessId = (cmd as { businessId: unknown }).businessId;
  const bad = checkBusinessId(businessId);
  if (bad !== null) return bad;
  const key = `${cmd.type}:${businessId as string}`;
  const print = fingerprint(cmd);
  if (print === null) return reject('invalid_command', 'A command must be plain data');
  const done = s.done.get(key);
  if (done !== undefined) {
    return done.fingerprint === print
      ? { ok: true, events: [], result: done.result }
      : reject(
          'business_id_conflict',
          'This business id was used for another request',
          'businessId',
        );
  }
  const result = handler(s, cmd);
  if (result.ok) s.done.set(key, { fingerprint: print, result: result.result });
  return result;
}
