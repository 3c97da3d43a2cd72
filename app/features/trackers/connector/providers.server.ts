import { getEnv } from '~/lib/env.server'
import { isPrivateAddress, resolveHost } from '~/lib/private-address.server'
import { githubProvider } from '../github/github-provider.server'
import { gitlabProvider } from '../gitlab/gitlab-provider.server'
import { jiraProvider } from '../jira/jira-provider.server'
import type { TrackerProviderName } from '../tracker-words'
import { TrackerFailure, type Connection, type TrackerProvider } from './provider'

/** The providers the connector serves: a fourth is one more line (ADR 38). */
export const PROVIDERS: Record<TrackerProviderName, TrackerProvider> = {
  github: githubProvider,
  gitlab: gitlabProvider,
  jira: jiraProvider,
}

export const NOW_PRIVATE =
  "the tracker's address now leads to a loopback, private or link-local address, which this server may not reach."

/**
 * CONTRACT §2, §14: without TRACKER_ALLOW_PRIVATE a tracker may not lead into this server's own
 * network. The link is checked when made; a name's address can change after that, so every call
 * resolves it again first and goes nowhere if it now leads inside (`unreachable`, in the log).
 */
export async function assertTrackerAddress(url: string): Promise<void> {
  if (getEnv().TRACKER_ALLOW_PRIVATE) return
  let addresses
  try {
    addresses = await resolveHost(new URL(url).hostname)
  } catch {
    throw new TrackerFailure('unreachable', `${new URL(url).hostname} does not resolve.`)
  }
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new TrackerFailure('unreachable', NOW_PRIVATE)
}

type ConnectionCall = 'create' | 'update' | 'changedSince' | 'read' | 'list'
const CALLS: readonly ConnectionCall[] = ['create', 'update', 'changedSince', 'read', 'list']

/** The provider with the address checked before each call that reaches the tracker through a link. */
function guarded(provider: TrackerProvider): TrackerProvider {
  const calls = Object.fromEntries(
    CALLS.map((name) => {
      const call = provider[name] as (conn: Connection, ...rest: unknown[]) => Promise<unknown>
      return [
        name,
        async (conn: Connection, ...rest: unknown[]) => {
          await assertTrackerAddress(conn.url)
          return call.call(provider, conn, ...rest)
        },
      ]
    }),
  )
  return { ...provider, ...calls } as TrackerProvider
}

/**
 * GitHub's address is the server's own GITHUB_API_URL (CONTRACT §13), not a member's input: it is
 * not guarded (a GitHub Enterprise Server inside the network, the tests' fake on loopback).
 */
const GUARDED: Record<TrackerProviderName, TrackerProvider> = {
  github: PROVIDERS.github,
  gitlab: guarded(PROVIDERS.gitlab),
  jira: guarded(PROVIDERS.jira),
}

export const providerOf = (name: string): TrackerProvider => {
  const provider = GUARDED[name as TrackerProviderName]
  if (!provider) throw new Error(`no tracker provider ${name}`)
  return provider
}
