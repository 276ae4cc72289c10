/** What an address must look like on each network, so a typo is refused before funds move. */
const patterns: Readonly<Record<string, RegExp>> = {
  bitcoin: /^(bc1[02-9ac-hj-np-z]{11,71}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/,
  ethereum: /^0x[0-9a-fA-F]{40}$/,
  bsc: /^0x[0-9a-fA-F]{40}$/,
  tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
  bnb_beacon: /^bnb1[02-9ac-hj-np-z]{38}$/,
};

// Networks without a known format: letters and digits of a plausible length.
const fallback = /^[A-Za-z0-9]{16,128}$/;

/** Whether `address` has the format of `network`. */
export function isAddressOf(network: string, address: string): boolean {
  return (patterns[network] ?? fallback).test(address);
}
