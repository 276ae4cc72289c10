import {
  amountToDecimal,
  devChainDepositBody,
  devChainMineBody,
  parseAmount,
} from '@lattice/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError, validationError } from '../../http/errors.js';
import { cachedReferenceData } from '../markets/referenceCache.js';
import { confirmationsOf } from './chainAdapter.js';

const txParams = z.object({ network: z.string().max(32), txHash: z.string().max(100) });

/** The simulated chains' explorer, public like any block explorer. */
export async function chainExplorerRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/chain/:network/tx/:txHash', async (request) => {
    const { network, txHash } = txParams.parse(request.params);
    const tx = await app.chains.simulatedChain(network)?.transaction(txHash);
    if (tx === undefined) throw new AppError('route_not_found', { message: 'No such transaction' });
    const reference = await cachedReferenceData(app.db);
    const decimalsOf = (ticker: string) =>
      reference.assets.find((asset) => asset.ticker === ticker)?.decimals ?? 8;
    return {
      network,
      txHash,
      blockHeight: tx.blockHeight,
      confirmations: confirmationsOf(tx.blockHeight, tx.tip),
      outputs: tx.outputs.map((output) => ({
        ...output,
        amount: amountToDecimal(output.amount, decimalsOf(output.asset)),
      })),
    };
  });
}

/**
 * Development helpers of API.md that drive the simulated chains: send funds to an address, and
 * add blocks at once. Without DEV_TOOLS the paths do not exist (404).
 */
export async function devChainRoutes(app: FastifyInstance): Promise<void> {
  if (!app.config.devTools) return;
  app.post('/api/dev/chain/deposit', async (request) => {
    const body = devChainDepositBody.parse(request.body);
    const reference = await cachedReferenceData(app.db);
    const asset = reference.assets.find((candidate) => candidate.ticker === body.ticker);
    if (asset === undefined) throw validationError({ ticker: ['Unknown currency'] });
    const networks = reference.assetNetworks.filter((row) => row.assetTicker === asset.ticker);
    const network =
      body.network === undefined
        ? networks[0]
        : networks.find((row) => row.networkCode === body.network);
    const chain = network && app.chains.simulatedChain(network.networkCode);
    if (chain === undefined) throw validationError({ network: ['Not a network of this currency'] });
    const amount = parseAmount(body.amount, asset.decimals);
    if (!amount.ok) throw validationError({ amount: [amount.message] });
    if (amount.value === 0n) throw validationError({ amount: ['Must be greater than zero'] });
    return chain.receive({
      asset: asset.ticker,
      address: body.address,
      memo: body.memo ?? null,
      amount: amount.value,
    });
  });

  app.post('/api/dev/chain/mine', async (request) => {
    const { network, blocks } = devChainMineBody.parse(request.body ?? {});
    if (network !== undefined && app.chains.simulatedChain(network) === undefined) {
      throw validationError({ network: ['Unknown network'] });
    }
    await app.chains.mine(blocks, network);
    const heights: Record<string, number> = {};
    for (const code of network === undefined ? app.chains.networks : [network]) {
      heights[code] = (await app.chains.adapter(code)?.blockHeight()) ?? 0;
    }
    return { heights };
  });
}
