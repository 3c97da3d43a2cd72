import type { TrackerFeature } from '../tracker-feature'
import type { PushedField } from './issue-rules'

/**
 * What a provider brings to the connector (ADR 38): its client behind these calls, and its
 * mapping. Everything else (the link, outbox, poller, conflict rule, webhook entry, log) is the
 * connector's. Errors are TrackerFailures.
 */

/** An issue on the tracker, in the map's terms. */
export type RemoteIssue = {
  /** GitHub's number, GitLab's iid, Jira's issue id. */
  id: string
  /** `#12`, `SHOP-12`. */
  key: string
  url: string
  title: string
  description: string
  labels: string[]
  state: 'open' | 'closed'
  /** The tracker's own status name (Jira), else null. */
  status: string | null
  updatedAt: string
  /** Deleted or moved away. */
  missing: boolean
}

/** A link as a provider uses it. */
export type Connection = {
  url: string
  project: string
  token: string
  settings: Record<string, unknown>
}

export type LinkCheck = {
  /** The project as the tracker spells it. */
  project: string
  settings: Record<string, unknown>
  tokenExpiresAt: string | null
}

export type PushedFeature = TrackerFeature & { release: string }

export type { PushedField }

/** What a webhook delivery says of one issue. */
export type HookIssue = {
  id: string | null
  key: string | null
  deleted: boolean
  /** The tracker project the delivery is from, when it says (GitHub's repository): another's is ignored. */
  project?: string | null
  /** The issue as the delivery carries it, when whole (GitHub): applied without a call. */
  issue?: RemoteIssue
}
export type FailureKind =
  | 'token_invalid'
  | 'project_invalid'
  | 'permission_missing'
  | 'missing'
  | 'rate_limited'
  | 'unreachable'
  | 'transition_missing'
  /** The tracker refused this one call (GitHub's 422): nothing to retry, the link is fine. */
  | 'rejected'

export class TrackerFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** Rate limits: when the next call may go (ms since the epoch). */
    readonly retryAt: number | null = null,
  ) {
    super(message)
    this.name = 'TrackerFailure'
  }
}

export type TrackerProvider = {
  check(input: { url: string; project: string; token: string; email?: string }): Promise<LinkCheck>
  create(conn: Connection, feature: PushedFeature): Promise<RemoteIssue>
  /**
   * Brings the issue to the feature: at least the `fields` that changed on the map (a provider
   * may send every field; GitHub sends only those, so a change made meanwhile on the other
   * side is not overwritten); answers the issue after.
   */
  update(
    conn: Connection,
    issueId: string,
    feature: PushedFeature,
    fields: readonly PushedField[],
  ): Promise<RemoteIssue>
  /** Issues updated since `since` (all when null), oldest first, every page. */
  changedSince(conn: Connection, since: string | null): Promise<RemoteIssue[]>
  /** The given issues as they are now; an absent one is missing. */
  read(conn: Connection, ids: readonly string[]): Promise<RemoteIssue[]>
  /** The issues an import takes, in issue order. */
  list(conn: Connection, filter: { labels?: string[]; state: 'open' | 'all' }): Promise<RemoteIssue[]>
  /** A webhook delivery: true when it is authentic. */
  verify(headers: Headers, body: string, secret: string): boolean | Promise<boolean>
  /** The issues a webhook delivery names, with whether they were deleted. */
  hookIssues(body: unknown, headers: Headers): HookIssue[]
}
