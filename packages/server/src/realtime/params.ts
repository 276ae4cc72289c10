import { parseAmount } from '@lattice/contracts';
import type { MarketDirectory, MarketInfo } from '../domains/orders/markets.js';
import { invalidArgument } from './rpc.js';

/** Positional parameters with the checks every method shares; a bad one is error 1. */
export class Params {
  constructor(
    private readonly values: readonly unknown[],
    private readonly directory: MarketDirectory,
  ) {}

  get length(): number {
    return this.values.length;
  }

  /** Refuses fewer than `min` or more than `max` parameters. */
  arity(min: number, max = min): this {
    if (this.values.length < min || this.values.length > max) {
      throw invalidArgument(`expected ${min === max ? min : `${min} to ${max}`} parameters`);
    }
    return this;
  }

  market(index: number): MarketInfo {
    const name = this.values[index];
    const info = typeof name === 'string' ? this.directory.find(name) : undefined;
    if (info === undefined) throw invalidArgument('unknown market');
    return info;
  }

  /** Every parameter from `from` on, each a known market. */
  markets(from = 0): MarketInfo[] {
    const out: MarketInfo[] = [];
    for (let i = from; i < this.values.length; i++) out.push(this.market(i));
    return out;
  }

  /** A JSON integer in [min, max]; `fallback` when absent. */
  integer(index: number, min: number, max: number, fallback?: number): number {
    const value = this.values[index] ?? fallback;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
      throw invalidArgument(`parameter ${index + 1} must be an integer from ${min} to ${max}`);
    }
    return value;
  }

  string(index: number, lengthMax: number, fallback?: string): string {
    const value = this.values[index] ?? fallback;
    if (typeof value !== 'string' || value.length > lengthMax) {
      throw invalidArgument(`parameter ${index + 1} must be a string`);
    }
    return value;
  }

  /** A decimal string at `decimals` (`"0.01"`), in minor units. */
  decimal(index: number, decimals: number, fallback?: string): bigint {
    const text = this.string(index, 64, fallback);
    const parsed = parseAmount(text, decimals);
    if (!parsed.ok) throw invalidArgument(`parameter ${index + 1}: ${parsed.message}`);
    return parsed.value;
  }

  /** Every parameter from `from` on, each a string (asset names). */
  strings(from = 0): string[] {
    const out: string[] = [];
    for (let i = from; i < this.values.length; i++) out.push(this.string(i, 16));
    return out;
  }
}
