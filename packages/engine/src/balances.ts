// Balance commands: deposits, withdrawals, transfers between a user's accounts, and freezes
// for other products. Each is double entry; the business id makes a repeat a no-op (engine.ts).
import { reject } from './errors.js';
import { ACCOUNT_KINDS, move, UserState } from './ledger.js';
import type { Hold, State } from './state.js';
import type {
  AccountKind,
  ApplyResult,
  BalanceDepositCommand,
  BalanceFreezeCommand,
  BalanceLeg,
  BalancePair,
  BalanceSettleFreezeCommand,
  BalanceTransferCommand,
  BalanceUnfreezeCommand,
  BalanceWithdrawCompleteCommand,
  BalanceWithdrawHoldCommand,
  BalanceWithdrawReleaseCommand,
  CommandResult,
} from './types.js';
import {
  checkPositive,
  isAccountKind,
  isShortName,
  isUserId,
  knownAsset,
  knownUser,
} from './validate.js';

const INSUFFICIENT = 'Not enough on balance';

function balanceResult(user: UserState, asset: string): CommandResult {
  const set = user.accounts(asset);
  const balances = {} as Record<AccountKind, BalancePair>;
  for (const kind of ACCOUNT_KINDS) {
    balances[kind] = { available: set[kind].available, frozen: set[kind].frozen };
  }
  return { kind: 'balance', userId: user.userId, asset, balances };
}

function accepted(s: State, user: UserState, asset: string): ApplyResult {
  return { ok: true, events: s.events, result: balanceResult(user, asset) };
}

export function deposit(s: State, cmd: BalanceDepositCommand): ApplyResult {
  if (!isUserId(cmd.userId))
    return reject('invalid_user', 'User id must be a positive integer', 'userId');
  const bad = knownAsset(s, cmd.asset) ?? checkPositive(cmd.amount, 'amount');
  if (bad !== null) return bad;
  if (cmd.business !== undefined && !isShortName(cmd.business)) {
    return reject('invalid_command', 'Business name must have 1 to 31 characters', 'business');
  }
  const user = s.user(cmd.userId);
  const legs: BalanceLeg[] = [];
  move(legs, s.external.balance(cmd.asset, 'main'), -cmd.amount, 0n);
  move(legs, user.balance(cmd.asset, 'main'), cmd.amount, 0n);
  s.assets.get(cmd.asset)!.deposited += cmd.amount;
  s.emitBalance(cmd.business ?? 'deposit', cmd.businessId, 0, 0, legs);
  return accepted(s, user, cmd.asset);
}

function holdKey(kind: Hold['kind'], businessId: string): string {
  return `${kind}:${businessId}`;
}

/** Move funds from available to frozen on one account and remember why. */
function placeHold(s: State, user: UserState, hold: Hold, business: string): ApplyResult {
  const legs: BalanceLeg[] = [];
  move(legs, user.balance(hold.asset, hold.account), -hold.amount, hold.amount);
  s.holds.set(holdKey(hold.kind, hold.businessId), hold);
  s.emitBalance(business, hold.businessId, 0, 0, legs);
  return accepted(s, user, hold.asset);
}

export function withdrawHold(s: State, cmd: BalanceWithdrawHoldCommand): ApplyResult {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  const bad = knownAsset(s, cmd.asset) ?? checkPositive(cmd.amount, 'amount');
  if (bad !== null) return bad;
  if (s.holds.has(holdKey('withdraw', cmd.businessId))) {
    return reject('business_id_conflict', 'A withdrawal with this id is in progress', 'businessId');
  }
  if (user.balance(cmd.asset, 'main').available < cmd.amount) {
    return reject('insufficient_balance', INSUFFICIENT, 'amount');
  }
  const hold: Hold = {
    kind: 'withdraw',
    businessId: cmd.businessId,
    userId: user.userId,
    asset: cmd.asset,
    account: 'main',
    amount: cmd.amount,
    purpose: 'withdraw',
  };
  return placeHold(s, user, hold, 'withdraw_hold');
}

/** The hold a completing command refers to, or why there is none. */
function findHold(s: State, kind: Hold['kind'], businessId: string): Hold | ApplyResult {
  const hold = s.holds.get(holdKey(kind, businessId));
  if (hold !== undefined) return hold;
  const missing = kind === 'withdraw' ? 'withdraw_not_found' : 'freeze_not_found';
  const finished = kind === 'withdraw' ? 'withdraw_finished' : 'freeze_finished';
  const enders =
    kind === 'withdraw'
      ? ['balance.withdrawComplete', 'balance.withdrawRelease']
      : ['balance.unfreeze', 'balance.settleFreeze'];
  const ended = enders.some((type) => s.done.has(`${type}:${businessId}`));
  return ended
    ? reject(finished, 'Already completed or released', 'businessId')
    : reject(missing, 'No such hold', 'businessId');
}

function isHold(value: Hold | ApplyResult): value is Hold {
  return 'kind' in value && (value.kind === 'withdraw' || value.kind === 'freeze');
}

export function withdrawComplete(s: State, cmd: BalanceWithdrawCompleteCommand): ApplyResult {
  const hold = findHold(s, 'withdraw', cmd.businessId);
  if (!isHold(hold)) return hold;
  const fee = cmd.fee ?? 0n;
  if (typeof fee !== 'bigint' || fee < 0n || fee > hold.amount) {
    return reject('invalid_fee', 'Fee must be between zero and the held amount', 'fee');
  }
  const sent = hold.amount - fee;
  const user = s.user(hold.userId);
  const legs: BalanceLeg[] = [];
  move(legs, user.balance(hold.asset, 'main'), 0n, -hold.amount);
  if (sent > 0n) move(legs, s.external.balance(hold.asset, 'main'), sent, 0n);
  if (fee > 0n) move(legs, s.fees.balance(hold.asset, 'main'), fee, 0n);
  s.assets.get(hold.asset)!.withdrawn += sent;
  s.holds.delete(holdKey('withdraw', hold.businessId));
  s.emitBalance('withdraw', hold.businessId, 0, 0, legs);
  return accepted(s, user, hold.asset);
}

/** Give held funds back to available on the account they were held on. */
function releaseHold(s: State, hold: Hold, business: string): ApplyResult {
  const user = s.user(hold.userId);
  const legs: BalanceLeg[] = [];
  move(legs, user.balance(hold.asset, hold.account), hold.amount, -hold.amount);
  s.holds.delete(holdKey(hold.kind, hold.businessId));
  s.emitBalance(business, hold.businessId, 0, 0, legs);
  return accepted(s, user, hold.asset);
}

export function withdrawRelease(s: State, cmd: BalanceWithdrawReleaseCommand): ApplyResult {
  const hold = findHold(s, 'withdraw', cmd.businessId);
  return isHold(hold) ? releaseHold(s, hold, 'withdraw_release') : hold;
}

export function transfer(s: State, cmd: BalanceTransferCommand): ApplyResult {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  const bad = knownAsset(s, cmd.asset) ?? checkPositive(cmd.amount, 'amount');
  if (bad !== null) return bad;
  if (!isAccountKind(cmd.from) || !isAccountKind(cmd.to) || cmd.from === cmd.to) {
    return reject('invalid_account', 'From and to must be two different accounts', 'to');
  }
  const from = user.balance(cmd.asset, cmd.from);
  if (from.available < cmd.amount) return reject('insufficient_balance', INSUFFICIENT, 'amount');
  const legs: BalanceLeg[] = [];
  move(legs, from, -cmd.amount, 0n);
  move(legs, user.balance(cmd.asset, cmd.to), cmd.amount, 0n);
  s.emitBalance('transfer', cmd.businessId, 0, 0, legs);
  return accepted(s, user, cmd.asset);
}

export function freeze(s: State, cmd: BalanceFreezeCommand): ApplyResult {
  const user = knownUser(s, cmd.userId);
  if (!(user instanceof UserState)) return user;
  const bad = knownAsset(s, cmd.asset) ?? checkPositive(cmd.amount, 'amount');
  if (bad !== null) return bad;
  if (!isAccountKind(cmd.account)) return reject('invalid_account', 'Unknown account', 'account');
  if (!isShortName(cmd.purpose)) {
    return reject('invalid_command', 'Purpose must have 1 to 31 characters', 'purpose');
  }
  if (s.holds.has(holdKey('freeze', cmd.businessId))) {
    return reject('business_id_conflict', 'A freeze with this id is active', 'businessId');
  }
  if (user.balance(cmd.asset, cmd.account).available < cmd.amount) {
    return reject('insufficient_balance', INSUFFICIENT, 'amount');
  }
  const hold: Hold = {
    kind: 'freeze',
    businessId: cmd.businessId,
    userId: user.userId,
    asset: cmd.asset,
    account: cmd.account,
    amount: cmd.amount,
    purpose: cmd.purpose,
  };
  return placeHold(s, user, hold, 'freeze');
}

export function unfreeze(s: State, cmd: BalanceUnfreezeCommand): ApplyResult {
  const hold = findHold(s, 'freeze', cmd.businessId);
  return isHold(hold) ? releaseHold(s, hold, 'unfreeze') : hold;
}

export function settleFreeze(s: State, cmd: BalanceSettleFreezeCommand): ApplyResult {
  if (!isUserId(cmd.toUserId)) {
    return reject('invalid_user', 'User id must be a positive integer', 'toUserId');
  }
  const hold = findHold(s, 'freeze', cmd.businessId);
  if (!isHold(hold)) return hold;
  const user = s.user(hold.userId);
  const to = s.user(cmd.toUserId);
  const legs: BalanceLeg[] = [];
  move(legs, user.balance(hold.asset, hold.account), 0n, -hold.amount);
  move(legs, to.balance(hold.asset, 'main'), hold.amount, 0n);
  s.holds.delete(holdKey('freeze', hold.businessId));
  s.emitBalance('settle', hold.businessId, 0, 0, legs);
  return accepted(s, user, hold.asset);
}
