import { describe, expect, it } from 'vitest'
import { followedFields, pushedFields } from '~/features/trackers/connector/issue-rules'
import {
  githubFields,
  githubHookIssues,
  remoteOfGithub,
  repositoryWebUrl,
  splitRepository,
} from '~/features/trackers/github/github-mapping'
import { githubCode, githubText } from '~/features/trackers/github/github-codes'

/** GitHub as the connector's provider (CONTRACT §13, §14, ADR 38): its mapping, pure. */
const place = {
  permalink: 'https://maps.example.com/t/projects/p/f/f1',
  release: 'MVP',
  goal: 'Buy',
  activity: 'Pay',
}
const issue = {
  number: 12,
  title: '  Checkout  ',
  body: 'Cards first.\r\n\r\n---\r\nStory map: https://x · R · G › A',
  state: 'closed',
  labels: ['Bug', { name: 'Payments' }, { name: null }],
  updated_at: '2026-11-28T10:00:00Z',
  html_url: 'https://github.com/acme/shop/issues/12',
}

describe('a GitHub issue in the connector’s terms', () => {
  it('takes the number as id and #n as key, the title trimmed, the description above the footer, label names', () => {
    expect(remoteOfGithub(issue)).toEqual({
      id: '12',
      key: '#12',
      url: 'https://github.com/acme/shop/issues/12',
      title: 'Checkout',
      description: 'Cards first.',
      labels: ['Bug', 'Payments'],
      state: 'closed',
      status: null,
      updatedAt: '2026-11-28T10:00:00Z',
      missing: false,
    })
    expect(remoteOfGithub({ ...issue, state: 'open', body: null, labels: undefined })).toMatchObject({
      description: '',
      labels: [],
      state: 'open',
    })
  })

  it('writes the issue of a feature: title, body with the footer, tag names as labels, state', () => {
    expect(
      githubFields({
        title: 'Pay',
        description: 'Visa first',
        status: 'CLOSED',
        tags: [{ name: 'Payments' }],
        place,
      }),
    ).toEqual({
      title: 'Pay',
      body: `Visa first\n\n---\nStory map: ${place.permalink} · MVP · Buy › Pay`,
      labels: ['Payments'],
      state: 'closed',
    })
  })

  it('reads `issues` webhook deliveries: deleted and transferred are missing; ping, other events and pull requests name none', () => {
    const payload = { action: 'edited', issue, repository: { full_name: 'acme/shop' } }
    expect(githubHookIssues('issues', payload)).toEqual([
      { id: '12', key: '#12', deleted: false, project: 'acme/shop', issue: remoteOfGithub(issue) },
    ])
    for (const action of ['deleted', 'transferred'])
      expect(githubHookIssues('issues', { ...payload, action })[0].deleted).toBe(true)
    expect(githubHookIssues('ping', { zen: 'Keep it simple.' })).toEqual([])
    expect(githubHookIssues('issue_comment', payload)).toEqual([])
    expect(githubHookIssues('issues', { ...payload, issue: { ...issue, pull_request: {} } })).toEqual([])
    expect(githubHookIssues('issues', { action: 'edited' })).toEqual([])
    expect(githubHookIssues('issues', null)).toEqual([])
  })

  it('names the repository and its page on github.com or a GitHub Enterprise Server', () => {
    expect(splitRepository('acme/shop')).toEqual({ owner: 'acme', repo: 'shop' })
    expect(repositoryWebUrl('https://api.github.com', 'acme/shop')).toBe('https://github.com/acme/shop')
    expect(repositoryWebUrl('https://git.example.com/api/v3', 'acme/shop')).toBe(
      'https://git.example.com/acme/shop',
    )
  })
})

describe('what a push brings', () => {
  const before = {
    title: 'A',
    description: 'd',
    status: 'OPEN',
    tagIds: ['t1'],
    milestoneId: 'm1',
    subWorkflowId: 's1',
    estimate: 1,
  }
  it('follows a change by the issue fields it touches: a move changes the footer, a new release the release', () => {
    expect(followedFields(before, { ...before, title: 'B' })).toEqual(['title'])
    expect(followedFields(before, { ...before, milestoneId: 'm2' })).toEqual(['body', 'release'])
    expect(followedFields(before, { ...before, subWorkflowId: 's2' })).toEqual(['body'])
    expect(followedFields(before, { ...before, status: 'CLOSED', tagIds: ['t2'] })).toEqual([
      'state',
      'labels',
    ])
    expect(followedFields(before, { ...before, estimate: 3 })).toEqual(['size'])
    expect(followedFields(before, { ...before })).toEqual([])
    expect(followedFields(null, before)).toEqual(['title', 'body', 'state', 'labels', 'release', 'size'])
  })

  it('reads the fields of waiting rows, §13’s names and the feature’s (from before the fold) alike', () => {
    expect(pushedFields(['title', 'body', 'state', 'labels'])).toEqual(['title', 'body', 'state', 'labels'])
    expect(pushedFields(['description', 'status', 'tagIds', 'milestoneId', 'estimate'])).toEqual([
      'body',
      'state',
      'labels',
      'release',
      'size',
    ])
    expect(pushedFields(['title', 'title', 'subWorkflowId'])).toEqual(['title', 'body'])
  })
})

describe('§13’s words for the connector’s answers', () => {
  it('renames tracker_ codes to github_ codes and leaves others', () => {
    expect(githubCode('tracker_token_invalid')).toBe('github_token_invalid')
    expect(githubCode('tracker_project_invalid')).toBe('github_repository_invalid')
    expect(githubCode('tracker_project_missing')).toBe('github_repository_missing')
    expect(githubCode('tracker_not_linked')).toBe('github_not_linked')
    expect(githubCode('already_linked')).toBe('already_linked')
    expect(githubText('The tracker refused the token: Bad credentials')).toBe(
      'GitHub refused the token: Bad credentials',
    )
    expect(githubText('This project is not linked to a tracker.')).toBe(
      'This project is not linked to a GitHub repository.',
    )
  })
})
