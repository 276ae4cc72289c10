import { amountFromDb, amountToDb } from '../../db/amount.js';
import type { Db } from '../../db/database.js';

/** The flex part of a currency fee on one network (SPEC.md §3 "Currency fee"). */
export interface FlexFeeRule {
  /** Parts per million of the amount. */
  percentPpm: number;
  /** Minor units of the asset. */
  min: bigint;
  /** Minor units; 0n means no maximum. */
  max: bigint;
}

export interface WithdrawalFee {
  fixed: bigint;
  flex: bigint;
  total: bigint;
}

const ppm = 1_000_000n;

/**
 * The fee of withdrawing `amount`: the network's fixed fee plus, when the asset has a flex
 * rule on the network, its percent of the amount (rounded up, in the exchange's favour) kept
 * between the rule's minimum and maximum.
 */
export function withdrawalFeeOf(
  fixed: bigint,
  rule: FlexFeeRule | undefined,
  amount: bigint,
): WithdrawalFee {
  if (rule === undefined) return { fixed, flex: 0n, total: fixed };
  let flex = (amount * BigInt(rule.percentPpm) + ppm - 1n) / ppm;
  if (flex < rule.min) flex = rule.min;
  if (rule.max > 0n && flex > rule.max) flex = rule.max;
  return { fixed, flex, total: fixed + flex };
}

export async function flexFeeRule(
  db: Db,
  asset: string,
  network: string,
): Promise<FlexFeeRule | undefined> {
  const row = await db
    .selectFrom('withdrawal_fee_rules')
    .selectAll()
    .where('asset', '=', asset)
    .where('network', '=', network)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    percentPpm: Number(row.flex_percent_ppm),
    min: amountFromDb(row.flex_min),
    max: amountFromDb(row.flex_max),
  };
}

/** Every flex rule by `asset|network` (the payment data lists them). */
export async function flexFeeRules(db: Db): Promise<Map<string, FlexFeeRule>> {
  const rows = await db.selectFrom('withdrawal_fee_rules').selectAll().execute();
  return new Map(
    rows.map((row) => [
      `${row.asset}|${row.network}`,
      {
        percentPpm: Number(row.flex_percent_ppm),
        min: amountFromDb(row.flex_min),
        max: amountFromDb(row.flex_max),
      },
    ]),
  );
}

/** Sets or replaces the flex rule of an asset on a network; a zero rule removes it. */
export async function saveFlexFeeRule(
  db: Db,
  asset: string,
  network: string,
  rule: FlexFeeRule,
): Promise<void> {
  await db
    .deleteFrom('withdrawal_fee_rules')
    .where('asset', '=', asset)
    .where('network', '=', network)
    .execute();
  if (rule.percentPpm === 0 && rule.min === 0n) return;
  await db
    .insertInto('withdrawal_fee_rules')
    .values({
      asset,
      network,
      flex_percent_ppm: rule.percentPpm,
      flex_min: amountToDb(rule.min),
      flex_max: amountToDb(rule.max),
    })
    .execute();
}

/** "0.1" (percent, up to 4 decimals) as parts per million, and back. */
export function percentToPpm(percent: string): number {
  const [whole = '0', fraction = ''] = percent.split('.');
  return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
}

export function ppmToPercent(value: number): string {
  const whole = Math.floor(value / 10_000);
  const fraction = String(value % 10_000)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}
