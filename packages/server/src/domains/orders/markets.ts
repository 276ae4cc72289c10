import type { MarketView } from '@lattice/engine';
import type { EngineReader } from '../../engineHost/engineHost.js';
import { platformTicker } from '../../reference/catalogue.js';

/** A market with the decimals of its two assets, as the HTTP layer needs them. */
export interface MarketInfo {
  readonly market: MarketView;
  readonly stockDecimals: number;
  readonly moneyDecimals: number;
  /** Decimals of the platform token, in which a discounted fee may be paid. */
  readonly feeTokenDecimals: number;
}

/**
 * Looks markets up by name. Markets are only ever added, so a name found once stays valid and
 * an unknown name re-reads the engine's list (a market added since).
 */
export class MarketDirectory {
  private byName = new Map<string, MarketInfo>();

  constructor(private readonly engine: EngineReader) {}

  find(name: string): MarketInfo | undefined {
    const known = this.byName.get(name);
    if (known) return known;
    this.reload();
    return this.byName.get(name);
  }

  /** Decimals of an asset, or undefined when the engine does not know it. */
  decimalsOf(asset: string): number | undefined {
    return this.engine.assets().find((candidate) => candidate.asset === asset)?.decimals;
  }

  private reload(): void {
    const decimals = new Map(this.engine.assets().map((asset) => [asset.asset, asset.decimals]));
    const byName = new Map<string, MarketInfo>();
    for (const market of this.engine.markets()) {
      const stockDecimals = decimals.get(market.stock);
      const moneyDecimals = decimals.get(market.money);
      if (stockDecimals === undefined || moneyDecimals === undefined) continue;
      const feeTokenDecimals = decimals.get(platformTicker) ?? 8;
      byName.set(market.name, { market, stockDecimals, moneyDecimals, feeTokenDecimals });
    }
    this.byName = byName;
  }
}
