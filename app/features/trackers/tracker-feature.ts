import type { FeaturePlace } from './connector/issue-rules'

/**
 * A feature as any tracker's issue needs it (CONTRACT §14): its fields, its tags' names and
 * colours, and where it sits on the map (for the footer).
 */
export type TrackerFeature = {
  title: string
  description: string
  status: 'OPEN' | 'CLOSED'
  estimate: number
  tags: readonly { name: string; color: string }[]
  place: FeaturePlace
}

/** What an issue on a tracker says about its feature, in the map's terms. */
export type FeatureFromIssue = {
  status: 'OPEN' | 'CLOSED'
  title: string
  description: string
  labels: string[]
  /** Deleted or moved away: the feature's `issue.state` becomes `missing`, nothing else changes. */
  missing: boolean
}

/** When a 429 lets the next call go, from `Retry-After` (seconds or an HTTP date); null when it does not say. */
export function retryAfterAt(retryAfter: string | null | undefined, now: number): number | null {
  if (retryAfter === undefined || retryAfter === null || retryAfter.trim() === '') return null
  const seconds = Number(retryAfter)
  if (Number.isFinite(seconds)) return now + Math.max(1, seconds) * 1000
  const date = Date.parse(retryAfter)
  return Number.isNaN(date) ? null : Math.max(now + 1000, date)
}
