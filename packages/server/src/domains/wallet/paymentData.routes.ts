import { amountToDecimal } from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import type { ReferenceData } from '../../reference/reference.types.js';
import { requireUser } from '../auth/requestAuth.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import { type FlexFeeRule, flexFeeRules, ppmToPercent } from '../withdrawals/feeRules.js';

const tickerParams = z.object({ ticker: z.string().min(1).max(16) });

/** Action codes of SPEC.md §3 "Deposit/withdraw data". */
const actions = { DEPOSIT: 1, WITHDRAWAL: 2 } as const;
type Action = keyof typeof actions;

/**
 * One payment method of SPEC.md §3 for a crypto asset: one per network it moves on, keyed by
 * the network's code (the `network` field of the address, fee and withdrawal calls).
 */
export interface CryptoPaymentMethodJson {
  id: number;
  key: string;
  name: string;
  label: string;
  logo: string | null;
  address: string | null;
  memo: boolean;
  contract_address: string | null;
  description: string | null;
  tooltip: string | null;
  fee: { fixed: string; flexMin: string; flexMax: string; flexPercent: string };
  minAmount: string;
  maxAmount: string;
  action: number;
  savedForms: never[];
  /** Blocks after which a deposit on this network is credited. */
  confirmations: number;
}

function paymentList(
  reference: ReferenceData,
  rules: ReadonlyMap<string, FlexFeeRule>,
  ticker: string,
  action: Action,
) {
  const asset = reference.assets.find((candidate) => candidate.ticker === ticker);
  if (asset === undefined) throw new AppError('currency_not_found');
  const decimal = (value: bigint) => amountToDecimal(value, asset.decimals);
  const enabled = action === 'DEPOSIT' ? asset.depositEnabled : asset.withdrawEnabled;
  const rows = reference.assetNetworks.filter((row) => row.assetTicker === ticker);
  const paymentList: CryptoPaymentMethodJson[] = [];
  rows.forEach((row, index) => {
    const network = reference.networks.find((candidate) => candidate.code === row.networkCode);
    if (network === undefined) return;
    const withdrawal = action === 'WITHDRAWAL';
    const flex = withdrawal ? rules.get(`${ticker}|${row.networkCode}`) : undefined;
    paymentList.push({
      id: index + 1,
      key: network.code,
      name: network.name,
      label: network.name,
      logo: null,
      address: null,
      memo: network.usesMemo,
      contract_address: row.contractAddress,
      description: null,
      tooltip: null,
      fee: {
        fixed: withdrawal ? decimal(row.withdrawFee) : '0',
        flexMin: decimal(flex?.min ?? 0n),
        flexMax: decimal(flex?.max ?? 0n),
        flexPercent: ppmToPercent(flex?.percentPpm ?? 0),
      },
      minAmount: withdrawal ? decimal(row.withdrawMin) : '0',
      // Zero: no maximum (SPEC.md §3); the withdrawal limits apply on top.
      maxAmount: '0',
      action: actions[action],
      savedForms: [],
      confirmations: network.confirmations,
    });
  });
  return {
    ticker,
    enabled,
    action: actions[action],
    marketList: reference.markets
      .filter((market) => market.enabled && (market.stock === ticker || market.money === ticker))
      .map((market) => market.name),
    paymentList,
  };
}

/**
 * Deposit and withdrawal data of SPEC.md §7 "Wallet": the networks an asset moves on, with
 * their fee (the fixed network fee and the flex rule, as the withdrawal charges it), minimum
 * and memo rule, so a client can offer the choice.
 */
export async function paymentDataRoutes(app: FastifyInstance): Promise<void> {
  const read = { preHandler: requireUser, config: { apiKeyScope: 'read' as const } };
  const routes: readonly [string, Action][] = [
    ['/api/v3/profile/depositdata/:ticker', 'DEPOSIT'],
    ['/api/v3/profile/withdrawaldata/:ticker', 'WITHDRAWAL'],
  ];
  for (const [path, action] of routes) {
    app.get(path, read, async (request) => {
      const { ticker } = tickerParams.parse(request.params);
      const rules = await flexFeeRules(app.db);
      return paymentList(await cachedReferenceData(app.db), rules, ticker, action);
    });
  }
}
