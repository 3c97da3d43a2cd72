import dns from 'node:dns'
import net from 'node:net'

/**
 * Where a webhook (CONTRACT §10) or a tracker (§14) may not go unless allowed: loopback, private,
 * link-local, carrier-grade NAT, "this network", and the IPv6 equivalents. Node's BlockList
 * holds the ranges; IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry.
 */
const blocked = new net.BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6')

/** Whether an IP address (v4 or v6) is one a webhook may not reach without WEBHOOKS_ALLOW_PRIVATE. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return isPrivateAddress(mapped[1])
  const family = net.isIP(address)
  if (family === 4) return blocked.check(address, 'ipv4')
  if (family === 6) return blocked.check(address, 'ipv6')
  return true
}

export type ResolvedAddress = { address: string; family: number }

/** Every address the host resolves to (an IP literal is itself). Throws when it does not resolve. */
export async function resolveHost(hostname: string): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1')
  const family = net.isIP(host)
  if (family) return [{ address: host, family }]
  return dns.promises.lookup(host, { all: true, verbatim: true })
}
