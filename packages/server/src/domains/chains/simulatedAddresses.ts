import { createHash } from 'node:crypto';
import type { ChainAddress } from './chainAdapter.js';

/** Deposit addresses a user may have per network (memos are numbered within this room). */
export const addressesPerNetworkMax = 100;

const bech32Alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const base58Alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function digest(text: string): Buffer {
  return createHash('sha256').update(`lattice-simulated:${text}`).digest();
}

/** `length` characters of `alphabet` drawn from the bytes of a digest. */
function encode(bytes: Buffer, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) {
    const byte = bytes[i % bytes.length]! ^ (i >> 5);
    out += alphabet[byte % alphabet.length];
  }
  return out;
}

/** An address in the style of the network, derived from `seed`. */
export function styledAddress(network: string, seed: string): string {
  const bytes = digest(`${network}:${seed}`);
  switch (network) {
    case 'bitcoin':
      return `bc1q${encode(bytes, bech32Alphabet, 38)}`;
    case 'ethereum':
    case 'bsc':
      return `0x${bytes.subarray(0, 20).toString('hex')}`;
    case 'tron':
      return `T${encode(bytes, base58Alphabet, 33)}`;
    case 'bnb_beacon':
      return `bnb1${encode(bytes, bech32Alphabet, 38)}`;
    default:
      return `${network.slice(0, 3)}${bytes.subarray(0, 16).toString('hex')}`;
  }
}

/**
 * A user's deposit address number `index`, the same every time. On a memo network every user
 * shares the exchange's address and the memo names the user.
 */
export function simulatedAddress(
  network: string,
  usesMemo: boolean,
  userId: number,
  index: number,
): ChainAddress {
  if (usesMemo) {
    return {
      address: styledAddress(network, 'exchange'),
      memo: String(100_000_000 + userId * addressesPerNetworkMax + index),
    };
  }
  return { address: styledAddress(network, `user:${userId}:${index}`), memo: null };
}

/** A transaction hash in the style of the network. */
export function simulatedTxHash(network: string, seed: string): string {
  const hex = digest(`tx:${network}:${seed}`).toString('hex');
  return network === 'ethereum' || network === 'bsc' ? `0x${hex}` : hex;
}
