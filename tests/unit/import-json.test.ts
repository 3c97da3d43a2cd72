import { describe, expect, it } from 'vitest'
import { exportDisposition, exportFilename } from '~/features/map/export-format'
import { importFormatOfContentType, importFormatOfFile, readImport } from '~/features/transfer/import'
import { parseJsonImport } from '~/features/transfer/import-json'
import { describeImport, formatPath, ImportError } from '~/features/transfer/import-map'
import { previewImport } from '~/features/transfer/import-preview'
import { ranksByGroup } from '~/features/map/rank'

type File = Record<string, unknown> & { [list: string]: unknown }

const card = (id: string, rank: string, title: string, extra: Record<string, unknown> = {}) => ({
  kind: 'x',
  id,
  workspaceId: 'w',
  rank,
  title,
  description: '',
  createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'm',
  createdByName: 'Someone',
  lastModified: '2026-01-01T00:00:00.000Z',
  lastModifiedByName: 'Someone',
  color: '',
  status: 'OPEN',
  annotations: '',
  ...extra,
})

/** An export as the server writes it: lists by rank, ids everywhere. */
function exportFile(change: (file: File) => void = () => {}): string {
  const file: File = {
    format: 'storymap',
    formatVersion: 1,
    exportedAt: '2026-02-01T10:00:00.000Z',
    project: { kind: 'project', id: 'p', title: 'Shop', description: 'All', externalLink: 'k' },
    milestones: [card('r2', 'b', 'MVP'), card('r1', 'n', 'Later', { status: 'CLOSED', color: 'GREEN' })],
    workflows: [card('g1', 'n', 'Browse', { color: 'WHITE', annotations: 'UNCLEAR' })],
    subWorkflows: [
      card('a2', 'c', 'Filter', { workflowId: 'g1' }),
      card('a1', 'n', 'Search', { workflowId: 'g1' }),
    ],
    features: [
      card('f3', 'b', 'Third', { milestoneId: 'r1', subWorkflowId: 'a1', estimate: 1 }),
      card('f1', 'c', 'First', {
        milestoneId: 'r2',
        subWorkflowId: 'a1',
        estimate: 8,
        annotations: 'IDEA,RISKY',
      }),
      card('f2', 'd', 'Second', { milestoneId: 'r2', subWorkflowId: 'a1', estimate: 0, color: 'RED' }),
    ],
    featureComments: [
      {
        id: 'c1',
        featureId: 'f2',
        memberId: 'm1',
        post: 'Hi',
        createdAt: '2026-01-03T12:00:00+02:00',
        createdByName: 'Ann',
        lastModified: '2026-01-04T00:00:00.000Z',
      },
    ],
    personas: [
      {
        id: 'p1',
        avatar: 'avatar02',
        name: 'Pat',
        role: 'Buyer',
        description: 'd',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
    ],
    workflowPersonas: [{ id: 'wp1', personaId: 'p1', workflowId: 'g1' }],
  }
  change(file)
  return JSON.stringify(file)
}

const refusal = (text: string) => {
  try {
    parseJsonImport(text)
  } catch (error) {
    if (error instanceof ImportError) return error.message
    throw error
  }
  throw new Error('not refused')
}
const list = (file: File, name: string) => file[name] as Record<string, unknown>[]

describe('parseJsonImport', () => {
  it('reads an export in board order, with references as positions and the fields an import keeps', () => {
    const map = parseJsonImport(exportFile())
    expect(map.title).toBe('Shop')
    expect(map.description).toBe('All')
    expect(map.milestones).toEqual([
      { title: 'MVP', description: '', color: '', status: 'OPEN', annotations: '' },
      { title: 'Later', description: '', color: 'GREEN', status: 'CLOSED', annotations: '' },
    ])
    expect(map.subWorkflows.map((s) => [s.title, s.workflow])).toEqual([
      ['Filter', 0],
      ['Search', 0],
    ])
    // Features by rank: Third (r1 = Later = 1), First and Second (MVP = 0), all in Search (1).
    expect(map.features.map((f) => [f.title, f.milestone, f.subWorkflow, f.estimate])).toEqual([
      ['Third', 1, 1, 1],
      ['First', 0, 1, 8],
      ['Second', 0, 1, 0],
    ])
    expect(map.features[1].annotations).toBe('RISKY,IDEA')
    expect(map.comments).toEqual([
      {
        feature: 2,
        memberId: 'm1',
        post: 'Hi',
        createdAt: '2026-01-03T10:00:00.000Z',
        createdByName: 'Ann',
        lastModified: '2026-01-04T00:00:00.000Z',
      },
    ])
    expect(map.personas).toEqual([
      {
        avatar: 'avatar02',
        name: 'Pat',
        role: 'Buyer',
        description: 'd',
        createdAt: '2026-01-02T00:00:00.000Z',
      },
    ])
    expect(map.workflowPersonas).toEqual([{ workflow: 0, persona: 0 }])
    expect(describeImport(map)).toBe('1 goal, 2 activities, 2 releases, 3 features')
  })

  it('orders by rank whatever the order of the lists; a hand-made file without ranks keeps its order', () => {
    const shuffled = parseJsonImport(exportFile((f) => list(f, 'milestones').reverse()))
    expect(shuffled.milestones.map((m) => m.title)).toEqual(['MVP', 'Later'])
    const minimal = parseJsonImport(
      JSON.stringify({
        format: 'storymap',
        formatVersion: 1,
        project: { title: 'Hand made' },
        milestones: [
          { id: 'b', title: 'Second?' },
          { id: 'a', title: 'No, first in the file' },
        ],
      }),
    )
    expect(minimal.milestones.map((m) => m.title)).toEqual(['Second?', 'No, first in the file'])
    expect(minimal.milestones[0]).toEqual({
      title: 'Second?',
      description: '',
      color: '',
      status: 'OPEN',
      annotations: '',
    })
    expect(describeImport(minimal)).toBe('0 goals, 0 activities, 2 releases, 0 features')
  })

  it('refuses with the path of the bad field', () => {
    expect(refusal(exportFile((f) => (list(f, 'features')[2].milestoneId = 'gone')))).toBe(
      'features[2].milestoneId: no release has the id "gone"',
    )
    expect(refusal(exportFile((f) => (list(f, 'features')[0].subWorkflowId = 'g1')))).toBe(
      'features[0].subWorkflowId: no activity has the id "g1"',
    )
    expect(refusal(exportFile((f) => (list(f, 'featureComments')[0].featureId = 'x')))).toBe(
      'featureComments[0].featureId: no feature has the id "x"',
    )
    expect(refusal(exportFile((f) => (list(f, 'workflowPersonas')[0].personaId = 'x')))).toBe(
      'workflowPersonas[0].personaId: no persona has the id "x"',
    )
    expect(
      refusal(exportFile((f) => list(f, 'workflowPersonas').push({ personaId: 'p1', workflowId: 'g1' }))),
    ).toBe('workflowPersonas[1]: this persona is already on this goal')
    expect(refusal(exportFile((f) => (list(f, 'subWorkflows')[1].id = 'a2')))).toBe(
      'subWorkflows[1].id: subWorkflows[0] has the same id',
    )
    expect(refusal(exportFile((f) => (list(f, 'milestones')[1].color = 'MAUVE')))).toBe(
      'milestones[1].color: Unknown color.',
    )
    expect(refusal(exportFile((f) => (list(f, 'features')[1].annotations = 'RISKY,SHINY')))).toBe(
      'features[1].annotations: Unknown annotation.',
    )
    expect(refusal(exportFile((f) => (list(f, 'features')[1].estimate = 2.5)))).toBe(
      'features[1].estimate: Must be an integer.',
    )
    expect(refusal(exportFile((f) => (list(f, 'features')[1].status = 'DONE')))).toBe(
      'features[1].status: must be OPEN or CLOSED',
    )
    expect(refusal(exportFile((f) => (list(f, 'workflows')[0].title = ' ')))).toBe(
      'workflows[0].title: Title required.',
    )
    expect(refusal(exportFile((f) => (list(f, 'personas')[0].avatar = 'me.png')))).toBe(
      'personas[0].avatar: Unknown avatar.',
    )
    expect(refusal(exportFile((f) => (list(f, 'featureComments')[0].createdAt = 'yesterday')))).toBe(
      'featureComments[0].createdAt: must be an ISO 8601 time',
    )
    expect(refusal(exportFile((f) => delete (f.project as Record<string, unknown>).title))).toMatch(
      /^project\.title: /,
    )
  })

  it('refuses what is not an export of this version, and files too large to build', () => {
    expect(refusal('')).toBe('the file is empty')
    expect(refusal('{"format":"storymap",')).toMatch(/^the file is not valid JSON \(/)
    expect(refusal('"storymap"')).toMatch(/^the file is not a Storymap export/)
    expect(refusal('{"format":"csv"}')).toBe('format: must be "storymap" (the file is not a Storymap export)')
    expect(refusal(exportFile((f) => (f.formatVersion = 2)))).toBe(
      'formatVersion: 2 is not supported; this Storymap reads version 1',
    )
    expect(refusal(exportFile((f) => delete f.formatVersion))).toBe(
      'formatVersion: missing is not supported; this Storymap reads version 1',
    )
    const many = Array.from({ length: 19_999 }, (_, i) =>
      card(`f${i}`, 'b', 'F', { milestoneId: 'r1', subWorkflowId: 'a1' }),
    )
    expect(refusal(exportFile((f) => (f.features = many)))).toMatch(/^the file holds 20,004 cards/)
    expect(refusal(`{"x":[${'[],'.repeat(600_000)}[]]}`)).toBe('the file holds more than 1,000,000 values')
    // Commas inside strings are text, not values.
    expect(
      refusal(
        exportFile((f) => ((f.project as Record<string, unknown>).description = ','.repeat(1_100_000))),
      ),
    ).toMatch(/^project\.description: /)
  })
})

describe('import formats and preview', () => {
  it('knows the format from the Content-Type, or from the file name and content', () => {
    expect(importFormatOfContentType('application/json; charset=utf-8')).toBe('json')
    expect(importFormatOfContentType('Text/CSV')).toBe('csv')
    expect(importFormatOfContentType('text/plain')).toBeNull()
    expect(importFormatOfContentType(null)).toBeNull()
    expect(importFormatOfFile('Map.storymap.json', '')).toBe('json')
    expect(importFormatOfFile('storymap.CSV', '{')).toBe('csv')
    expect(importFormatOfFile('export', ' {"format"')).toBe('json')
    expect(importFormatOfFile('export', 'release_title')).toBe('csv')
  })

  it('previews a file as the dialog shows it, or the refusal the server would give', () => {
    expect(previewImport('Shop.storymap.json', exportFile())).toEqual({
      ok: true,
      format: 'json',
      summary: '1 goal, 2 activities, 2 releases, 3 features',
      title: 'Shop',
    })
    expect(previewImport('s.csv', 'release_title,goal_title\n')).toEqual({
      ok: false,
      message: 'line 1: missing columns activity_title, feature_title',
    })
    expect(
      readImport('release_title,goal_title,activity_title,feature_title\nR,G,A,F\n', 'csv'),
    ).toMatchObject({ ok: true })
    // Latin-1 bytes (a spreadsheet's default "CSV") decoded as UTF-8.
    const latin1 = new TextDecoder().decode(
      Buffer.from('release_title,goal_title,activity_title,feature_title\nR,Caf\xe9,A,F\n', 'latin1'),
    )
    expect(readImport(latin1, 'csv')).toEqual({
      ok: false,
      message: 'the file is not UTF-8 text (in a spreadsheet, save it as "CSV UTF-8")',
    })
  })
})

describe('the export file name', () => {
  it('is <title>.storymap.json, made safe for a header and a file system', () => {
    expect(exportDisposition('Roadmap 2027')).toBe('attachment; filename="Roadmap 2027.storymap.json"')
    expect(exportDisposition('Q3 "big" plan')).toBe(
      `attachment; filename="Q3 _big_ plan.storymap.json"; filename*=UTF-8''Q3%20%22big%22%20plan.storymap.json`,
    )
    expect(exportDisposition('Café ☕')).toBe(
      `attachment; filename="Caf_ _.storymap.json"; filename*=UTF-8''Caf%C3%A9%20%E2%98%95.storymap.json`,
    )
    expect(exportFilename('../../etc/passwd')).toBe('_.._etc_passwd.storymap.json')
    expect(exportFilename('a/b\\c\r\nd\u0000')).toBe('a_b_c__d_.storymap.json')
    expect(exportFilename('...')).toBe('project.storymap.json')
    expect(exportFilename('x'.repeat(300))).toBe(`${'x'.repeat(120)}.storymap.json`)
    expect(exportFilename('😀'.repeat(130))).toBe(`${'😀'.repeat(120)}.storymap.json`)
    expect(exportDisposition('bad \uD800 half')).toBe('attachment; filename="bad _ half.storymap.json"')
    expect(exportDisposition('100% (draft)')).toBe(
      `attachment; filename="100_ (draft).storymap.json"; filename*=UTF-8''100%25%20%28draft%29.storymap.json`,
    )
  })
})

describe('helpers', () => {
  it('formatPath writes paths as people read them', () => {
    expect(formatPath(['features', 12, 'milestoneId'])).toBe('features[12].milestoneId')
    expect(formatPath([])).toBe('')
  })

  it('ranksByGroup gives each group fresh ordered ranks', () => {
    const ranks = ranksByGroup(['a', 'b', 'a', 'a', 'b'])
    const a = [ranks[0], ranks[2], ranks[3]]
    expect([...a].sort()).toEqual(a)
    expect(ranks[1] < ranks[4]).toBe(true)
    expect(new Set(a).size).toBe(3)
    expect(ranksByGroup([])).toEqual([])
  })
})
