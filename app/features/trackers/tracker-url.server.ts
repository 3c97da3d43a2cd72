import { getEnv } from '~/lib/env.server'
import { refuse } from '~/lib/errors'
import { isPrivateAddress, resolveHost } from '~/lib/private-address.server'

/**
 * A tracker's address as CONTRACT §2 and §14 allow it: `https://` unless TRACKER_ALLOW_HTTP, and
 * no loopback, private or link-local address unless TRACKER_ALLOW_PRIVATE (true when self-hosted),
 * so a hosted server is no way into its own network. Answers the URL without a trailing slash.
 */
export async function checkTrackerUrl(raw: string): Promise<string> {
  const env = getEnv()
  const url = new URL(raw)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && env.TRACKER_ALLOW_HTTP))
    throw refuse.invalid('tracker_url_refused', 'The tracker address must start with https://.', 'url')
  if (url.username || url.password || url.search || url.hash)
    throw refuse.invalid(
      'validation_failed',
      'url: give the address without a user, query or fragment.',
      'url',
    )
  if (!env.TRACKER_ALLOW_PRIVATE) {
    let addresses
    try {
      addresses = await resolveHost(url.hostname)
    } catch {
      throw refuse.upstream(
        'tracker_unreachable',
        `The tracker could not be reached: ${url.hostname} does not resolve.`,
      )
    }
    if (addresses.some((a) => isPrivateAddress(a.address)))
      throw refuse.invalid(
        'tracker_url_refused',
        'The tracker address is a loopback, private or link-local address, which this server may not reach.',
        'url',
      )
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
}
