import { describe, expect, it } from 'vitest'
import { footerLine, issueBody } from '~/features/trackers/connector/issue-rules'
import {
  accessLevelOf,
  featureFromGitlabIssue,
  GITLAB_PROJECT_PATTERN,
  gitlabIssueFields,
  gitlabIssueKey,
  gitlabLabelColor,
  gitlabRateLimitUntil,
  labelsForTags,
  milestoneFor,
  projectRef,
  readIssueHook,
  REPORTER,
  stateEventFor,
} from '~/features/trackers/gitlab/gitlab-mapping'
import type { TrackerFeature } from '~/features/trackers/tracker-feature'

const place = {
  permalink: 'https://maps.example.com/team/projects/p/f/f1',
  release: 'MVP',
  goal: 'Buy',
  activity: 'Pay',
}
const feature: TrackerFeature = {
  title: 'Pay by card',
  description: 'Cards **first**.',
  status: 'OPEN',
  estimate: 3,
  tags: [
    { name: 'Payments', color: 'RED' },
    { name: 'Needs design', color: 'TEAL' },
  ],
  place,
}

describe('linking a GitLab project', () => {
  it('takes full paths of two parts or more, URL-encoded in API paths', () => {
    for (const good of ['group/name', 'group/sub/name', 'a.b/c-d_e'])
      expect(GITLAB_PROJECT_PATTERN.test(good)).toBe(true)
    for (const bad of ['name', '/group/name', 'group/', 'group//name', 'group/na me', '../x'])
      expect(GITLAB_PROJECT_PATTERN.test(bad)).toBe(false)
    expect(projectRef('group/sub/name')).toBe('group%2Fsub%2Fname')
  })

  it('reads the access level from the project or its group, Reporter being enough', () => {
    expect(accessLevelOf({ permissions: { project_access: { access_level: 30 }, group_access: null } })).toBe(
      30,
    )
    expect(accessLevelOf({ permissions: { project_access: null, group_access: { access_level: 40 } } })).toBe(
      40,
    )
    expect(
      accessLevelOf({
        permissions: { project_access: { access_level: 10 }, group_access: { access_level: 20 } },
      }),
    ).toBe(REPORTER)
    expect(accessLevelOf({ permissions: { project_access: null, group_access: null } })).toBe(0)
    expect(accessLevelOf({})).toBe(0)
  })
})

describe('feature → GitLab issue', () => {
  it('writes the title, the description with the footer, the labels as a comma list and the milestone', () => {
    expect(gitlabIssueFields(feature, ['Payments', 'Needs design'], 7)).toEqual({
      title: 'Pay by card',
      description: `Cards **first**.\n\n---\n${footerLine(place)}`,
      labels: 'Payments,Needs design',
      milestone_id: 7,
    })
    expect(gitlabIssueFields({ ...feature, description: '' }, [], null)).toMatchObject({
      description: `---\n${footerLine(place)}`,
      labels: '',
      milestone_id: 0,
    })
  })

  it('gives labels the tag colours and keeps the spelling the project has', () => {
    expect(gitlabLabelColor('RED')).toBe('#fa5252')
    expect(gitlabLabelColor('')).toBe('#339af0')
    expect(labelsForTags(feature.tags, [{ name: 'payments' }])).toEqual({
      names: ['payments', 'Needs design'],
      missing: [{ name: 'Needs design', color: '#20c997' }],
    })
    expect(labelsForTags([...feature.tags, { name: 'PAYMENTS', color: 'RED' }], []).missing).toHaveLength(2)
  })

  it('finds the milestone of the release by its exact title, an active one first', () => {
    const milestones = [
      { id: 1, title: 'MVP', state: 'closed' },
      { id: 2, title: 'MVP', state: 'active' },
      { id: 3, title: 'mvp', state: 'active' },
    ]
    expect(milestoneFor('MVP', milestones)).toBe(2)
    expect(milestoneFor('MVP', [milestones[0]])).toBe(1)
    expect(milestoneFor('Later', milestones)).toBeNull()
  })

  it('closes and reopens only when the status differs', () => {
    expect(stateEventFor('CLOSED', 'opened')).toBe('close')
    expect(stateEventFor('CLOSED', 'closed')).toBeNull()
    expect(stateEventFor('OPEN', 'closed')).toBe('reopen')
    expect(stateEventFor('OPEN', 'opened')).toBeNull()
    expect(gitlabIssueKey(12)).toBe('#12')
  })
})

describe('GitLab issue → feature', () => {
  it('reads state, title, the description above the footer and the labels', () => {
    const issue = {
      state: 'closed',
      title: '  Pay  ',
      description: issueBody('Edited in GitLab', place),
      labels: ['Payments', 'New'],
    }
    expect(featureFromGitlabIssue(issue)).toEqual({
      status: 'CLOSED',
      title: 'Pay',
      description: 'Edited in GitLab',
      labels: ['Payments', 'New'],
      missing: false,
    })
    expect(featureFromGitlabIssue({ state: 'opened', title: 'x', description: null }).status).toBe('OPEN')
  })

  it('counts an issue moved to another project as missing', () => {
    expect(featureFromGitlabIssue({ state: 'closed', title: 'x', moved_to_id: 99 }).missing).toBe(true)
  })

  it('reads an Issue Hook, whose labels have titles', () => {
    const hook = {
      object_kind: 'issue',
      project: { id: 5, path_with_namespace: 'group/sub/name' },
      object_attributes: {
        iid: 3,
        action: 'update',
        state: 'opened',
        title: 'Renamed',
        description: 'Body',
        updated_at: '2026-11-27 10:00:00 UTC',
      },
      labels: [{ id: 1, title: 'Payments' }],
    }
    expect(readIssueHook(hook)).toEqual({
      projectId: 5,
      projectPath: 'group/sub/name',
      iid: 3,
      action: 'update',
      updatedAt: '2026-11-27 10:00:00 UTC',
      feature: {
        status: 'OPEN',
        title: 'Renamed',
        description: 'Body',
        labels: ['Payments'],
        missing: false,
      },
    })
    expect(readIssueHook({ object_kind: 'merge_request', object_attributes: { iid: 1 } })).toBeNull()
    expect(readIssueHook(null)).toBeNull()
  })
})

describe('GitLab rate limits', () => {
  const now = Date.UTC(2026, 10, 27, 10, 0, 0)
  it('waits for Retry-After, else RateLimit-Reset, else a minute; other answers are no rate limit', () => {
    expect(gitlabRateLimitUntil(429, { 'retry-after': '30' }, now)).toBe(now + 30_000)
    expect(gitlabRateLimitUntil(429, { 'ratelimit-reset': String(now / 1000 + 90) }, now)).toBe(now + 90_000)
    expect(gitlabRateLimitUntil(429, {}, now)).toBe(now + 60_000)
    expect(gitlabRateLimitUntil(403, { 'retry-after': '30' }, now)).toBeNull()
    expect(gitlabRateLimitUntil(200, { 'ratelimit-remaining': '0' }, now)).toBeNull()
  })
})
