import { describe, expect, it } from 'vitest'
import {
  changeEventJson,
  foldTouchedRows,
  groupByProject,
  priorStateJson,
  withoutGithubIssues,
  type TouchedRow,
} from '~/features/map/change-events'

const row = (
  id: string,
  old: string | null,
  now: string | null,
  kind = 'feature',
  projectId = 'p',
): TouchedRow => ({
  kind,
  id,
  projectId,
  old,
  new: now,
})

describe('foldTouchedRows', () => {
  it('keeps the state before the first statement and after the last, in first-touch order', () => {
    const folded = foldTouchedRows([
      row('a', '{"rank":"b"}', '{"rank":"~a"}'),
      row('b', '{"rank":"c"}', '{"rank":"d"}'),
      row('a', '{"rank":"~a"}', '{"rank":"n"}'),
    ])
    expect(folded).toEqual([
      { kind: 'feature', id: 'a', projectId: 'p', before: '{"rank":"b"}', after: '{"rank":"n"}' },
      { kind: 'feature', id: 'b', projectId: 'p', before: '{"rank":"c"}', after: '{"rank":"d"}' },
    ])
  })

  it('drops what ends as it began: a rank parked and written back, a row created and deleted', () => {
    expect(
      foldTouchedRows([
        row('a', '{"rank":"b"}', '{"rank":"~a"}'),
        row('a', '{"rank":"~a"}', '{"rank":"b"}'),
        row('t', null, '{"x":1}'),
        row('t', '{"x":1}', null),
      ]),
    ).toEqual([])
  })

  it('tells kinds apart when ids repeat across tables', () => {
    expect(foldTouchedRows([row('x', null, '{}', 'feature'), row('x', null, '{}', 'persona')])).toHaveLength(
      2,
    )
  })
})

it('groups changes by project, in order', () => {
  const groups = groupByProject(
    foldTouchedRows([
      row('a', null, '1', 'feature', 'p1'),
      row('b', null, '2', 'feature', 'p2'),
      row('c', null, '3', 'feature', 'p1'),
    ]),
  )
  expect([...groups.keys()]).toEqual(['p1', 'p2'])
  expect(groups.get('p1')!.map((c) => c.id)).toEqual(['a', 'c'])
})

it('writes the change event and the prior state as JSON, entities verbatim', () => {
  const changes = foldTouchedRows([
    row('f1', '{"id":"f1","title":"Old"}', '{"id":"f1","title":"New \\"quoted\\""}'),
    row('c1', '{"id":"c1"}', null, 'featureComment'),
    row('n1', null, '{"id":"n1"}'),
  ])
  const event = JSON.parse(
    changeEventJson(7, '2026-01-01T00:00:00.000Z', { memberId: 'm', name: 'Ann "A"' }, changes),
  )
  expect(event).toEqual({
    version: 7,
    at: '2026-01-01T00:00:00.000Z',
    by: { memberId: 'm', name: 'Ann "A"' },
    changes: [
      { op: 'upsert', kind: 'feature', entity: { id: 'f1', title: 'New "quoted"' } },
      { op: 'delete', kind: 'featureComment', id: 'c1' },
      { op: 'upsert', kind: 'feature', entity: { id: 'n1' } },
    ],
    summary: '',
  })
  expect(JSON.parse(priorStateJson(changes))).toEqual([
    { kind: 'feature', id: 'f1', before: { id: 'f1', title: 'Old' } },
    { kind: 'featureComment', id: 'c1', before: { id: 'c1' } },
    { kind: 'feature', id: 'n1', before: null },
  ])
})

describe('an event as the public link sees it', () => {
  it('drops features’ GitHub issues and the repository a link notice names, and keeps the rest', () => {
    const notice = JSON.stringify({
      version: 4,
      changes: [],
      summary: "Linked project 'Shop' to GitHub repository 'acme/shop'",
    })
    expect(JSON.parse(withoutGithubIssues(notice)).summary).toBe("Linked project 'Shop' to GitHub")
    const feature = { id: 'f1', title: 'Pay', github: { number: 12, state: 'open' } }
    const change = JSON.stringify({
      version: 5,
      changes: [{ op: 'upsert', kind: 'feature', entity: feature }],
      summary: "Closed feature 'Pay'",
    })
    expect(JSON.parse(withoutGithubIssues(change))).toEqual({
      version: 5,
      changes: [{ op: 'upsert', kind: 'feature', entity: { id: 'f1', title: 'Pay' } }],
      summary: "Closed feature 'Pay'",
    })
    const plain = JSON.stringify({ version: 6, changes: [], summary: "Renamed feature 'Pay' to 'Checkout'" })
    expect(withoutGithubIssues(plain)).toBe(plain)
  })
})
