import { describe, expect, it } from 'vitest'
import {
  expiresSoon,
  linkTrackerSchema,
  tokenExpiringText,
  trackerStoppedText,
} from '~/features/trackers/tracker-api'

describe('the tracker link body and texts (CONTRACT §14)', () => {
  it('takes each provider’s own fields and refuses the others’ shapes', () => {
    expect(
      linkTrackerSchema.safeParse({
        provider: 'gitlab',
        url: 'https://g.example/gl',
        project: 'a/b/c',
        token: 't',
      }).success,
    ).toBe(true)
    expect(
      linkTrackerSchema.safeParse({
        provider: 'jira',
        url: 'https://acme.atlassian.net',
        project: 'SHOP',
        token: 't',
      }).success,
    ).toBe(false)
    expect(
      linkTrackerSchema.safeParse({ provider: 'gitlab', url: 'x', project: 'a/b', token: 't' }).success,
    ).toBe(false)
    expect(
      linkTrackerSchema.safeParse({ provider: 'github', repository: 'acme/shop', token: 't' }).success,
    ).toBe(true)
    expect(linkTrackerSchema.safeParse({ provider: 'trello' }).success).toBe(false)
  })

  it('says the banners word for word', () => {
    expect(trackerStoppedText('gitlab')).toBe('GitLab sync stopped: the token was refused.')
    expect(trackerStoppedText('jira')).toBe('Jira sync stopped: the token was refused.')
    expect(tokenExpiringText('gitlab', '2026-12-05')).toBe('The GitLab token expires on 2026-12-05.')
  })

  it('counts a token as expiring within 14 days of its expiry, not before', () => {
    const now = Date.parse('2026-11-28T12:00:00Z')
    expect(expiresSoon('2026-12-11', now)).toBe(true)
    expect(expiresSoon('2026-12-20', now)).toBe(false)
    expect(expiresSoon(null, now)).toBe(false)
  })
})
