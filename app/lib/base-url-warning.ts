import type { Env } from './env-schema'

/** Whether HOST keeps the server on this machine: unset means every interface. */
export function listensOnLoopbackOnly(host: string | undefined): boolean {
  if (host === undefined) return false
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name === '::1' ||
    name === '0:0:0:0:0:0:0:1'
  )
}

/**
 * The warning logged once at start when others can reach the server but BASE_URL was left to its
 * default: links in e-mails and the share link would point them at their own machine.
 */
export function unsetBaseUrlWarning(env: Pick<Env, 'HOST' | 'BASE_URL' | 'baseUrlDefaulted'>): string | null {
  if (!env.baseUrlDefaulted || listensOnLoopbackOnly(env.HOST)) return null
  const where = env.HOST === undefined ? 'all interfaces' : env.HOST
  return (
    `BASE_URL is not set and the server listens on ${where}: links in e-mails and the share link ` +
    `say ${env.BASE_URL}; set BASE_URL to the address users open`
  )
}
