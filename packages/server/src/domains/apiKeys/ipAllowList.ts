import { BlockList, isIP } from 'node:net';

/** Whether `ip` is in the list of addresses and CIDR ranges; an empty list allows any address. */
export function ipAllowed(allowList: readonly string[], ip: string): boolean {
  if (allowList.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of allowList) {
    const [address = '', prefix] = entry.split('/');
    const entryFamily = isIP(address);
    if (entryFamily === 0) continue;
    const type = entryFamily === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  // NOTE: an IPv4 client may reach a dual-stack socket as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped !== undefined) return list.check(mapped, 'ipv4') || list.check(ip, 'ipv6');
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}
