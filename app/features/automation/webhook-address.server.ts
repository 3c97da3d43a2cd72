import dns from 'node:dns'
import net from 'node:net'
import { isPrivateAddress } from '~/lib/private-address.server'

export { isPrivateAddress, resolveHost, type ResolvedAddress } from '~/lib/private-address.server'

export class AddressRefused extends Error {}

/**
 * A `lookup` for http(s).request that resolves the host and refuses it when any of its addresses
 * is private (unless allowed), so the connection goes to the very address that was checked:
 * a DNS answer that changes between the check and the connect cannot slip through.
 */
export function checkedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 4)
      const list = addresses as dns.LookupAddress[]
      if (list.length === 0) return callback(new Error(`${hostname} does not resolve`), '', 4)
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address)))
        return callback(new AddressRefused('The address is private, loopback or link-local.'), '', 4)
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list)
      callback(null, list[0].address, list[0].family)
    })
  }
}
