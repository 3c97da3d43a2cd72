import { Octokit } from '@octokit/rest'
import { getEnv } from '~/lib/env.server'
import { logger } from '~/lib/logger.server'
import { APP_VERSION } from '~/lib/version'
import { classifyFailure, type SyncFailure } from './sync-failures'

/**
 * GitHub's REST API through Octokit (CONTRACT §13), at GITHUB_API_URL. Octokit's own retries and
 * throttling are not in @octokit/rest: the outbox and the poller wait and retry by themselves,
 * from the rate-limit headers, so a user's request never hangs on GitHub.
 */
export const CALL_TIMEOUT_MS = 15_000

export class GithubFailure extends Error {
  constructor(
    readonly failure: SyncFailure,
    readonly status: number | null,
  ) {
    super(failure.message)
    this.name = 'GithubFailure'
  }
}

const quiet = {
  debug: () => {},
  info: () => {},
  warn: (message: string) => logger.warn({ github: message }, 'github client'),
  error: () => {},
}

export function githubClient(token: string): Octokit {
  return new Octokit({
    auth: token,
    baseUrl: getEnv().GITHUB_API_URL,
    userAgent: `Storymap/${APP_VERSION}`,
    log: quiet,
  })
}

/** The repository's page on the web: github.com, or the GitHub Enterprise Server that GITHUB_API_URL names (`https://HOST/api/v3`). */
export function repositoryWebUrl(repository: string): string {
  const api = getEnv().GITHUB_API_URL
  const web = api === 'https://api.github.com' ? 'https://github.com' : api.replace(/\/api\/v3$/, '')
  return `${web}/${repository}`
}

/** Request options for one call: a time limit, so a hanging GitHub is a failure like any other. */
export const callOptions = () => ({ signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })

type OctokitError = {
  status?: number
  message?: string
  response?: { status: number; headers: Record<string, string>; data?: unknown }
}

/** Any error of a GitHub call as a GithubFailure (a 304 is not one: check `status` first). */
export function asFailure(error: unknown, now = Date.now()): GithubFailure {
  if (error instanceof GithubFailure) return error
  const e = error as OctokitError
  const status = e.response?.status ?? null
  const data = e.response?.data as { message?: string } | undefined
  const message = data?.message ?? e.message ?? 'GitHub did not answer.'
  return new GithubFailure(classifyFailure(status, e.response?.headers ?? {}, message, now), status)
}

/** Runs a call; every failure comes out as a GithubFailure. */
export async function githubCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw asFailure(error)
  }
}

/** The `rel="next"` address of a Link header, or null. */
export function nextPage(link: string | undefined): string | null {
  const match = link
    ?.split(',')
    .map((part) => /<([^>]+)>;\s*rel="next"/.exec(part))
    .find(Boolean)
  return match ? match[1] : null
}
