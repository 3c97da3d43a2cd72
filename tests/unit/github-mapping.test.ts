import { describe, expect, it } from 'vitest'
import {
  changedIssueFields,
  decideField,
  decideFields,
  descriptionOfBody,
  footerLine,
  issueBody,
  labelColor,
  labelKey,
  pullSummary,
  tagsForLabels,
  titleOfIssue,
} from '~/features/trackers/connector/issue-rules'
import { classifyFailure, rateLimitUntil } from '~/features/trackers/github/github-mapping'
import { githubCode } from '~/features/trackers/github/github-codes'

const place = {
  permalink: 'https://maps.example.com/team/projects/p/f/f1',
  release: 'MVP',
  goal: 'Buy',
  activity: 'Pay',
}

describe('feature → issue', () => {
  it('writes the description, a line ---, and the footer', () => {
    expect(footerLine(place)).toBe(
      'Story map: https://maps.example.com/team/projects/p/f/f1 · MVP · Buy › Pay',
    )
    expect(issueBody('Cards first.\n\n', place)).toBe(`Cards first.\n\n---\n${footerLine(place)}`)
    expect(issueBody('', place)).toBe(`---\n${footerLine(place)}`)
  })

  it('gives labels the tag colour', () => {
    expect(labelColor('RED')).toBe('fa5252')
    expect(labelColor('')).toBe('339af0')
  })
})

describe('issue → feature', () => {
  it('takes the part above the footer as the description, and keeps bodies without one', () => {
    expect(descriptionOfBody(issueBody('Cards first.', place))).toBe('Cards first.')
    expect(descriptionOfBody(`Edited on GitHub\r\n\r\n---\r\n${footerLine(place)}\r\n`)).toBe(
      'Edited on GitHub',
    )
    expect(descriptionOfBody('a\n---\nnot a footer')).toBe('a\n---\nnot a footer')
    expect(descriptionOfBody(null)).toBe('')
    expect(descriptionOfBody(`---\n${footerLine(place)}`)).toBe('')
  })

  it('keeps titles within 200 characters and never empty', () => {
    expect(titleOfIssue('  Pay  ')).toBe('Pay')
    expect(titleOfIssue('x'.repeat(300))).toHaveLength(200)
    expect(titleOfIssue('   ')).toBe('Untitled issue')
  })

  it('matches labels and tags ignoring case; missing ones are to be made', () => {
    const tags = [
      { id: 't1', name: 'Bug' },
      { id: 't2', name: 'UX' },
    ]
    expect(tagsForLabels(['bug', 'ux', 'New', 'new', 'BUG'], tags)).toEqual({
      tagIds: ['t1', 't2'],
      missing: ['New'],
    })
    expect(tagsForLabels(['a,b'], [])).toEqual({ tagIds: [], missing: ['a b'] })
    expect(labelKey(['Bug', 'ux', 'bug'])).toBe(labelKey(['UX', 'BUG']))
  })
})

describe('the conflict rule', () => {
  const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, s)).toISOString()
  it('pulls what only GitHub changed, leaves what only the map changed, and lets the later change win', () => {
    expect(decideField({ synced: 'a', github: 'b', map: 'a', githubAt: at(1), mapAt: at(2) })).toBe('pull')
    expect(decideField({ synced: 'a', github: 'a', map: 'b', githubAt: at(1), mapAt: at(2) })).toBe('none')
    expect(decideField({ synced: 'a', github: 'b', map: 'b', githubAt: at(1), mapAt: at(2) })).toBe('none')
    expect(decideField({ synced: 'a', github: 'b', map: 'c', githubAt: at(3), mapAt: at(2) })).toBe(
      'github-later',
    )
    expect(decideField({ synced: 'a', github: 'b', map: 'c', githubAt: at(1), mapAt: at(2) })).toBe(
      'map-later',
    )
  })

  it('says in the Activity line which side won', () => {
    const synced = { title: 'A', body: '', state: 'open', labels: '[]' }
    const decisions = decideFields({
      synced,
      github: { ...synced, title: 'G', state: 'closed' },
      map: { ...synced, title: 'M' },
      githubAt: at(5),
      mapAt: at(2),
    })
    expect(decisions).toEqual({ title: 'github-later', body: 'none', state: 'pull', labels: 'none' })
    expect(pullSummary({ title: 'M' }, { title: 'G' }, decisions, 'closed')).toBe(
      "Renamed feature 'M' to 'G', closed feature 'G' (title changed on both sides, GitHub's change was later and wins)",
    )
  })
})

describe('what a change sends', () => {
  it('names the issue fields a feature change touches (a move changes the footer)', () => {
    const before = {
      title: 'A',
      description: '',
      status: 'OPEN',
      tagIds: [],
      milestoneId: 'm',
      subWorkflowId: 's',
      color: '',
    }
    expect(changedIssueFields(before, { ...before, color: 'RED' })).toEqual([])
    expect(changedIssueFields(before, { ...before, title: 'B', status: 'CLOSED', tagIds: ['t'] })).toEqual([
      'title',
      'state',
      'labels',
    ])
    expect(changedIssueFields(before, { ...before, milestoneId: 'm2' })).toEqual(['body'])
    expect(changedIssueFields(null, before)).toEqual(['title', 'body', 'state', 'labels'])
  })
})

describe('GitHub failures', () => {
  const now = 1_800_000_000_000
  it('reads rate limits to the second, from retry-after or x-ratelimit-reset', () => {
    expect(rateLimitUntil(429, { 'retry-after': '7' }, now)).toBe(now + 7000)
    expect(
      rateLimitUntil(
        403,
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) },
        now,
      ),
    ).toBe(now + 30_000)
    expect(rateLimitUntil(403, { 'x-ratelimit-remaining': '12' }, now)).toBeNull()
    expect(rateLimitUntil(429, {}, now)).toBe(now + 60_000)
  })

  it('reads each answer as the failure the connector refuses with, in the codes of §13', () => {
    const kind = (status: number | null, headers = {}) => classifyFailure(status, headers, 'msg', now).kind
    expect(kind(401)).toBe('token_invalid')
    expect(kind(404)).toBe('missing')
    expect(kind(410)).toBe('missing')
    expect(classifyFailure(429, { 'retry-after': '3' }, 'msg', now)).toMatchObject({
      kind: 'rate_limited',
      retryAt: now + 3000,
    })
    expect(kind(502)).toBe('unreachable')
    expect(kind(null)).toBe('unreachable')
    expect(githubCode('tracker_token_invalid')).toBe('github_token_invalid')
    expect(githubCode('tracker_project_missing')).toBe('github_repository_missing')
    expect(githubCode('tracker_rate_limited')).toBe('github_rate_limited')
    expect(githubCode('tracker_unreachable')).toBe('github_unreachable')
    expect(githubCode('already_linked')).toBe('already_linked')
  })
})
