import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { guardCell, projectToCsv, unguardCell } from '~/features/transfer/csv'
import { parseCsvImport } from '~/features/transfer/import-csv'
import { describeImport, ImportError, type ImportedMap } from '~/features/transfer/import-map'
import { ranksByGroup, rebalanceRanks } from '~/features/map/rank'

const HEADER =
  '"release_title","goal_title","activity_title","feature_title","feature_description","feature_status","feature_color","feature_annotations","feature_size"'

const refusal = (text: string) => {
  try {
    parseCsvImport(text)
  } catch (error) {
    if (error instanceof ImportError) return error.message
    throw error
  }
  throw new Error('not refused')
}

/** What the import model writes, as a bundle: ids by position, fresh ranks by group. */
function bundleOf(map: ImportedMap): ProjectBundle {
  const common = (prefix: string, i: number, rank: string, c: ImportedMap['milestones'][number]) => ({
    ...c,
    id: `${prefix}${i}`,
    workspaceId: 'w',
    projectId: 'p',
    rank,
    createdAt: '',
    createdBy: '',
    createdByName: '',
    lastModified: '',
    lastModifiedByName: '',
  })
  const activityRanks = ranksByGroup(map.subWorkflows.map((s) => s.workflow))
  const featureRanks = ranksByGroup(map.features.map((f) => `${f.milestone}:${f.subWorkflow}`))
  return {
    version: 1,
    project: {} as ProjectBundle['project'],
    milestones: map.milestones.map((c, i) => common('m', i, rebalanceRanks(map.milestones.length)[i], c)),
    workflows: map.workflows.map((c, i) => common('w', i, rebalanceRanks(map.workflows.length)[i], c)),
    subWorkflows: map.subWorkflows.map(({ workflow, ...c }, i) => ({
      ...common('s', i, activityRanks[i], c),
      workflowId: `w${workflow}`,
    })),
    features: map.features.map(({ milestone, subWorkflow, estimate, ...c }, i) => ({
      ...common('f', i, featureRanks[i], c),
      milestoneId: `m${milestone}`,
      subWorkflowId: `s${subWorkflow}`,
      estimate,
    })),
    featureComments: [],
    personas: [],
    workflowPersonas: [],
    tags: [],
  }
}

describe('the formula guard (CONTRACT §8)', () => {
  it('prefixes cells starting with = + - @ tab or carriage return, and import takes exactly one prefix off', () => {
    for (const value of ['=1+1', '+44 20', '-5', '@SUM(A1)', '\tx', '\rx']) {
      expect(guardCell(value)).toBe(`'${value}`)
      expect(unguardCell(guardCell(value))).toBe(value)
    }
    for (const value of ['plain', "'quoted", "don't", '', ' =not first', '1-2']) {
      expect(guardCell(value)).toBe(value)
      expect(unguardCell(value)).toBe(value)
    }
    expect(unguardCell("''=x")).toBe("''=x")
  })
})

describe('parseCsvImport', () => {
  it('builds releases, goals and activities in order of first appearance and features in row order', () => {
    const map = parseCsvImport(
      [
        HEADER,
        '"MVP","Browse","Search","Find","","OPEN","","","3"',
        '"MVP","Buy","Pay","Card","multi\nline","CLOSED","RED","IDEA,RISKY","0"',
        '"Later","Browse","Search","Again","","","","",""',
        '"MVP","Browse","Filter","Narrow","","","","",""',
        '"MVP","Browse","Search","Find 2","","","","",""',
      ].join('\r\n'),
    )
    expect(map.title).toBeNull()
    expect(map.milestones.map((m) => m.title)).toEqual(['MVP', 'Later'])
    expect(map.workflows.map((w) => [w.title, w.color])).toEqual([
      ['Browse', 'WHITE'],
      ['Buy', 'WHITE'],
    ])
    expect(map.subWorkflows.map((s) => [s.title, s.workflow])).toEqual([
      ['Search', 0],
      ['Pay', 1],
      ['Filter', 0],
    ])
    expect(map.features.map((f) => [f.title, f.milestone, f.subWorkflow])).toEqual([
      ['Find', 0, 0],
      ['Card', 0, 1],
      ['Again', 1, 0],
      ['Narrow', 0, 2],
      ['Find 2', 0, 0],
    ])
    expect(map.features[1]).toMatchObject({
      description: 'multi\nline',
      status: 'CLOSED',
      color: 'RED',
      annotations: 'RISKY,IDEA',
      estimate: 0,
    })
    expect(map.features[2]).toMatchObject({ status: 'OPEN', color: '', annotations: '', estimate: 0 })
  })

  it('an activity of the same title under another goal is another activity', () => {
    const map = parseCsvImport('release_title,goal_title,activity_title,feature_title\nR,G1,A,F\nR,G2,A,F\n')
    expect(map.subWorkflows.map((s) => s.workflow)).toEqual([0, 1])
  })

  it('reads spreadsheet files: any column order and case, extra columns, BOM, tabs, blank and empty rows, loose values', () => {
    const map = parseCsvImport(
      '\uFEFFFeature_Title\tnotes\tRelease_Title\tgoal_title\tactivity_title\tfeature_color\tfeature_annotations\tfeature_status\n' +
        "'=A1\tx\tR\tG\tA\t green \trisky, idea\tclosed\n" +
        '\t\t\t\t\t\t\t\n' +
        '\n' +
        '\ty\tR\tG\tA2\t\t\t\n',
    )
    expect(map.features).toEqual([
      {
        title: '=A1',
        description: '',
        status: 'CLOSED',
        color: 'GREEN',
        annotations: 'RISKY,IDEA',
        estimate: 0,
        milestone: 0,
        subWorkflow: 0,
        tags: [],
      },
    ])
    expect(map.subWorkflows.map((s) => s.title)).toEqual(['A', 'A2'])
  })

  it('names the line where the bad row starts', () => {
    const file = (row: string) => `${HEADER}\n"R","G","A","two\nlines","","","","",""\n${row}\n`
    expect(refusal(file('"R","G","A","F","","","","","12.5"'))).toBe(
      'line 4: feature_size must be a whole number 0–999',
    )
    expect(refusal(file('"R","G","A","F","","MAYBE","","",""'))).toBe(
      'line 4: feature_status must be OPEN or CLOSED',
    )
    expect(refusal(file('"R","","A","F","","","","",""'))).toBe('line 4: goal_title is required')
    expect(refusal(file('"R","G"," ","F","","","","",""'))).toBe('line 4: activity_title is required')
    expect(refusal(file(`"R","G","A","F","${'d'.repeat(10_001)}","","","",""`))).toBe(
      'line 4: feature_description must be at most 10000 characters',
    )
  })

  it('refuses a missing or repeated column, an empty file and broken quoting', () => {
    expect(refusal('release_title,goal_title,feature_title\n')).toBe('line 1: missing column activity_title')
    expect(refusal('release_title,goal_title,activity_title,feature_title,Feature_Title\n')).toBe(
      'line 1: the column feature_title appears twice',
    )
    expect(refusal('')).toBe('the file is empty')
    expect(refusal('\n\n')).toBe('the file is empty')
    expect(refusal(`${HEADER}\n"R","G","A","F`)).toMatch(/a quoted value is never closed$/)
  })

  it('counts every card against the 20,000 limit, refusing on the row that passes it', () => {
    const rows = (n: number) => Array.from({ length: n }, (_, i) => `R,G,A,F${i}`).join('\n')
    const header = 'release_title,goal_title,activity_title,feature_title\n'
    expect(parseCsvImport(header + rows(19_997)).features).toHaveLength(19_997)
    expect(refusal(header + rows(19_998))).toMatch(
      /^the file holds 20,001 cards .*at most 20,000 can be imported$/,
    )
  })

  it('CSV → import → CSV gives the same file', () => {
    const csv = [
      HEADER,
      `"MVP","Browse","Search","'=SUM(A1)","'@here\nand ""there""","OPEN","RED","RISKY,IDEA","5"`,
      `"MVP","Browse","Search","Second","","CLOSED","","","0"`,
      `"Later","'+Buy","'-Pay","Third","'\tTabbed","OPEN","BLUE","","999"`,
      '',
    ].join('\r\n')
    expect(projectToCsv(bundleOf(parseCsvImport(csv)))).toBe(csv)
  })

  it('reads docs/sample-storymap.csv, which is a file as Export CSV writes it', () => {
    const sample = fs.readFileSync(new URL('../../docs/sample-storymap.csv', import.meta.url), 'utf8')
    const map = parseCsvImport(sample)
    expect(describeImport(map)).toBe('2 goals, 4 activities, 3 releases, 11 features')
    expect(projectToCsv(bundleOf(map))).toBe(sample)
  })
})
