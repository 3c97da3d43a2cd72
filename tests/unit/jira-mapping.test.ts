import { describe, expect, it } from 'vitest'
import { footerLine } from '~/features/trackers/connector/issue-rules'
import {
  descriptionOfAdf,
  featureFromJiraIssue,
  fixVersionFor,
  issueKeysJql,
  issueTypeFor,
  jiraCreateFields,
  jiraDescription,
  jiraEditFields,
  jiraLabel,
  jiraRateLimitUntil,
  jqlDateTime,
  missingPermissions,
  openIssuesJql,
  readJiraWebhook,
  storyPointsFieldOf,
  tagsForJiraLabels,
  transitionFor,
  updatedSinceJql,
} from '~/features/trackers/jira/jira-mapping'
import { markdownToAdf } from '~/features/trackers/markdown-adf'
import type { TrackerFeature } from '~/features/trackers/tracker-feature'

const place = {
  permalink: 'https://maps.example.com/team/projects/p/f/f1',
  release: 'MVP',
  goal: 'Buy',
  activity: 'Pay',
}
const feature: TrackerFeature = {
  title: 'Pay by card',
  description: '## Why\n\nCards **first**.\n\n- one\n- two',
  status: 'OPEN',
  estimate: 5,
  tags: [
    { name: 'Payments', color: 'RED' },
    { name: 'Needs  design', color: 'TEAL' },
  ],
  place,
}

describe('linking a Jira project', () => {
  it('names the permissions the account lacks', () => {
    const answer = (have: boolean[]) => ({
      permissions: {
        CREATE_ISSUES: { havePermission: have[0] },
        EDIT_ISSUES: { havePermission: have[1] },
        TRANSITION_ISSUES: { havePermission: have[2] },
      },
    })
    expect(missingPermissions(answer([true, true, true]))).toEqual([])
    expect(missingPermissions(answer([true, false, false]))).toEqual(['EDIT_ISSUES', 'TRANSITION_ISSUES'])
    expect(missingPermissions({ permissions: {} })).toEqual([
      'CREATE_ISSUES',
      'EDIT_ISSUES',
      'TRANSITION_ISSUES',
    ])
  })

  it('makes features Stories when the project has them, else Tasks, never sub-tasks', () => {
    const types = [
      { id: '1', name: 'Bug' },
      { id: '2', name: 'Task' },
      { id: '3', name: 'Story' },
      { id: '4', name: 'Sub-task', subtask: true },
    ]
    expect(issueTypeFor(types)).toEqual({ id: '3', name: 'Story' })
    expect(issueTypeFor(types.filter((t) => t.name !== 'Story'))).toEqual({ id: '2', name: 'Task' })
    expect(issueTypeFor([{ id: '9', name: 'Story', subtask: true }])).toBeNull()
  })

  it('finds the story-point field by name, a number field only', () => {
    const fields = [
      { id: 'summary', name: 'Summary', schema: { type: 'string' } },
      { id: 'customfield_10020', name: 'Story Points', schema: { type: 'number' } },
      { id: 'customfield_10016', name: 'Story point estimate', schema: { type: 'number' } },
      { id: 'customfield_10030', name: 'Story point estimate', schema: { type: 'string' } },
    ]
    expect(storyPointsFieldOf(fields)).toBe('customfield_10016')
    expect(storyPointsFieldOf(fields.slice(0, 2))).toBe('customfield_10020')
    expect(storyPointsFieldOf([fields[0], fields[3]])).toBeNull()
  })
})

describe('feature → Jira issue', () => {
  it('writes the description as ADF with the footer after a rule, the permalink a link', () => {
    const doc = jiraDescription(feature)
    expect(doc.content.slice(0, -2)).toEqual(markdownToAdf(feature.description).content)
    expect(doc.content.at(-2)).toEqual({ type: 'rule' })
    expect(doc.content.at(-1)).toEqual({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Story map: ' },
        { type: 'text', text: place.permalink, marks: [{ type: 'link', attrs: { href: place.permalink } }] },
        { type: 'text', text: ' · MVP · Buy › Pay' },
      ],
    })
    expect(jiraDescription({ description: '', place }).content.map((n) => n.type)).toEqual([
      'rule',
      'paragraph',
    ])
  })

  it('keeps Markdown-looking place names as they are', () => {
    const odd = { ...place, release: '*v2*', goal: '[x](y)' }
    const last = jiraDescription({ description: '', place: odd }).content.at(-1)!
    expect(last.content!.map((n) => n.text).join('')).toBe(footerLine(odd))
  })

  it('turns each space of a tag into - for its label', () => {
    expect(jiraLabel('Needs design')).toBe('Needs-design')
    expect(jiraLabel(' a b\tc ')).toBe('a-b-c')
    expect(jiraEditFields(feature, { storyPointsField: null, fixVersionId: null }).labels).toEqual([
      'Payments',
      'Needs--design',
    ])
  })

  it('sets summary, labels, the fix version and story points (a size of 0 is none)', () => {
    const link = {
      storyPointsField: 'customfield_10016',
      fixVersionId: '10001',
      projectKey: 'SHOP',
      issueTypeId: '3',
    }
    expect(jiraCreateFields(feature, link)).toEqual({
      project: { key: 'SHOP' },
      issuetype: { id: '3' },
      summary: 'Pay by card',
      description: jiraDescription(feature),
      labels: ['Payments', 'Needs--design'],
      fixVersions: [{ id: '10001' }],
      customfield_10016: 5,
    })
    const none = jiraEditFields(
      { ...feature, estimate: 0 },
      { storyPointsField: 'customfield_10016', fixVersionId: null },
    )
    expect(none).toMatchObject({ fixVersions: [], customfield_10016: null })
    expect(jiraEditFields(feature, { storyPointsField: null, fixVersionId: null })).not.toHaveProperty(
      'customfield_10016',
    )
  })

  it('finds the fix version of the release by its exact name, not archived first', () => {
    const versions = [
      { id: '1', name: 'MVP', archived: true },
      { id: '2', name: 'MVP', archived: false },
      { id: '3', name: 'mvp' },
    ]
    expect(fixVersionFor('MVP', versions)).toBe('2')
    expect(fixVersionFor('Later', versions)).toBeNull()
  })
})

describe('the transition a status needs', () => {
  const to = (id: string, name: string, key: string, isAvailable = true) => ({
    id,
    name,
    isAvailable,
    to: { name, statusCategory: { key } },
  })
  const workflow = [
    to('11', 'To Do', 'new'),
    to('21', 'In Progress', 'indeterminate'),
    to('31', 'Done', 'done'),
    to('41', 'Won’t do', 'done'),
  ]

  it('closes through the first available transition to a done status', () => {
    expect(transitionFor('CLOSED', 'new', workflow)).toEqual({ action: 'transition', id: '31', name: 'Done' })
    expect(
      transitionFor('CLOSED', 'indeterminate', [to('31', 'Done', 'done', false), workflow[3]]),
    ).toMatchObject({ id: '41' })
  })

  it('reopens to a new status, else to one in progress', () => {
    expect(transitionFor('OPEN', 'done', workflow)).toMatchObject({ action: 'transition', id: '11' })
    expect(transitionFor('OPEN', 'done', workflow.slice(1))).toMatchObject({ action: 'transition', id: '21' })
  })

  it('does nothing when the category already fits, and says tracker_transition_missing when no transition does', () => {
    expect(transitionFor('OPEN', 'indeterminate', [])).toEqual({ action: 'none' })
    expect(transitionFor('CLOSED', 'done', [])).toEqual({ action: 'none' })
    expect(transitionFor('CLOSED', 'new', workflow.slice(0, 2))).toEqual({
      action: 'missing',
      code: 'tracker_transition_missing',
    })
    expect(transitionFor('OPEN', 'done', [workflow[2]])).toEqual({
      action: 'missing',
      code: 'tracker_transition_missing',
    })
  })
})

describe('Jira issue → feature', () => {
  const issue = (description: unknown, category = 'indeterminate') => ({
    key: 'SHOP-1',
    fields: {
      summary: ' Pay ',
      description,
      labels: ['Payments', 'Needs-design'],
      status: { name: 'In Review', statusCategory: { key: category } },
    },
  })

  it('reads the status category, its name, the title, the description above the footer and the labels', () => {
    expect(featureFromJiraIssue(issue(jiraDescription(feature)))).toEqual({
      status: 'OPEN',
      statusName: 'In Review',
      title: 'Pay',
      description: feature.description,
      labels: ['Payments', 'Needs-design'],
      missing: false,
    })
    expect(featureFromJiraIssue(issue(null, 'done'))).toMatchObject({ status: 'CLOSED', description: '' })
  })

  it('keeps a description whose footer a person removed or moved', () => {
    const doc = jiraDescription(feature)
    expect(descriptionOfAdf({ ...doc, content: doc.content.slice(0, -2) })).toBe(feature.description)
    const moved = { ...doc, content: [...doc.content.slice(-2), ...doc.content.slice(0, -2)] }
    expect(descriptionOfAdf(moved)).toContain('Story map: ')
  })

  it('matches labels to tags by their spelling with -, so no tag is made twice', () => {
    const tags = [
      { id: 't1', name: 'Needs design' },
      { id: 't2', name: 'Payments' },
    ]
    expect(tagsForJiraLabels(['needs-design', 'Payments', 'New-one'], tags)).toEqual({
      tagIds: ['t1', 't2'],
      missing: ['New-one'],
    })
  })
})

describe('polling JQL', () => {
  it('writes the minute of the instant in the account’s time zone', () => {
    const at = Date.UTC(2026, 10, 27, 9, 5, 59, 999)
    expect(jqlDateTime(at, 'UTC')).toBe('2026-11-27 09:05')
    expect(jqlDateTime(at, 'Europe/Berlin')).toBe('2026-11-27 10:05')
    expect(jqlDateTime(Date.UTC(2026, 0, 1, 2, 0), 'America/New_York')).toBe('2025-12-31 21:00')
    expect(jqlDateTime('2026-07-01T00:00:00.000Z', 'Asia/Kolkata')).toBe('2026-07-01 05:30')
  })

  it('asks for the project updated since that minute, oldest first', () => {
    expect(updatedSinceJql('SHOP', Date.UTC(2026, 10, 27, 9, 5, 30), 'UTC')).toBe(
      'project = "SHOP" AND updated >= "2026-11-27 09:05" ORDER BY updated ASC',
    )
    expect(openIssuesJql('SHOP')).toBe('project = "SHOP" AND statusCategory != Done ORDER BY key ASC')
    expect(issueKeysJql(['SHOP-1', 'SHOP-2'])).toBe('key in (SHOP-1, SHOP-2) ORDER BY key ASC')
  })
})

describe('Jira rate limits and webhooks', () => {
  const now = Date.UTC(2026, 10, 27, 10, 0, 0)
  it('waits for Retry-After (seconds or a date), else a minute', () => {
    expect(jiraRateLimitUntil(429, { 'retry-after': '12' }, now)).toBe(now + 12_000)
    expect(jiraRateLimitUntil(429, { 'retry-after': new Date(now + 5000).toUTCString() }, now)).toBe(
      now + 5000,
    )
    expect(jiraRateLimitUntil(429, {}, now)).toBe(now + 60_000)
    expect(jiraRateLimitUntil(503, { 'retry-after': '12' }, now)).toBeNull()
  })

  it('takes issue_updated and issue_deleted events only', () => {
    expect(
      readJiraWebhook({
        webhookEvent: 'jira:issue_updated',
        timestamp: 1,
        issue: { id: '10001', key: 'SHOP-1' },
      }),
    ).toEqual({
      event: 'jira:issue_updated',
      deleted: false,
      key: 'SHOP-1',
      id: '10001',
      timestamp: 1,
    })
    expect(readJiraWebhook({ webhookEvent: 'jira:issue_deleted', issue: { key: 'SHOP-1' } })).toMatchObject({
      deleted: true,
    })
    expect(readJiraWebhook({ webhookEvent: 'comment_created', issue: { key: 'SHOP-1' } })).toBeNull()
    expect(readJiraWebhook('x')).toBeNull()
  })
})
