import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { projectToCsv } from '~/features/transfer/csv'

const card = (id: string, rank: string, title: string, extra: Record<string, unknown> = {}): any => ({
  id,
  workspaceId: 'w',
  rank,
  title,
  description: '',
  createdAt: '',
  createdBy: '',
  createdByName: '',
  lastModified: '',
  lastModifiedByName: '',
  color: '',
  status: 'OPEN' as const,
  annotations: '',
  ...extra,
})

const bundle: ProjectBundle = {
  version: 0,
  project: {
    kind: 'project',
    id: 'p',
    workspaceId: 'w',
    title: 'P',
    description: '',
    createdAt: '',
    createdBy: '',
    createdByName: '',
    lastModified: '',
    lastModifiedByName: '',
    externalLink: 'k',
  },
  milestones: [card('m2', 'n', 'Later', { projectId: 'p' }), card('m1', 'b', 'MVP', { projectId: 'p' })],
  workflows: [card('w1', 'c', 'Sign up', { projectId: 'p', color: 'WHITE' })],
  subWorkflows: [card('s1', 'c', 'Register', { workflowId: 'w1' })],
  features: [
    card('f2', 'z', 'Second', { projectId: 'p', milestoneId: 'm1', subWorkflowId: 's1', estimate: 3 }),
    card('f1', 'c', 'Say "hi", then go', {
      projectId: 'p',
      milestoneId: 'm1',
      subWorkflowId: 's1',
      estimate: 5,
      description: 'line one\nline two',
      color: 'RED',
      annotations: 'RISKY,IDEA',
      status: 'CLOSED',
    }),
    card('f3', 'c', 'Next', { projectId: 'p', milestoneId: 'm2', subWorkflowId: 's1', estimate: 0 }),
  ],
  featureComments: [],
  personas: [],
  workflowPersonas: [],
  tags: [],
}

describe('projectToCsv (SPEC §9)', () => {
  const csv = projectToCsv(bundle)

  it('has the columns in order and quotes every value, doubling inner quotes', () => {
    const [header, first] = csv.split('\r\n')
    expect(header).toBe(
      '"release_title","goal_title","activity_title","feature_title","feature_description","feature_status","feature_color","feature_annotations","feature_size"',
    )
    expect(first).toContain('"Say ""hi"", then go"')
    expect(
      csv
        .split('\r\n')
        .filter(Boolean)
        .slice(1)
        .every((line) => line.startsWith('"')),
    ).toBe(true)
  })

  it('lists features in board order with every field, round-tripping through a CSV parser', () => {
    const rows = parse(csv, { columns: true }) as Record<string, string>[]
    expect(rows.map((r) => r.feature_title)).toEqual(['Say "hi", then go', 'Second', 'Next'])
    expect(rows[0]).toEqual({
      release_title: 'MVP',
      goal_title: 'Sign up',
      activity_title: 'Register',
      feature_title: 'Say "hi", then go',
      feature_description: 'line one\nline two',
      feature_status: 'CLOSED',
      feature_color: 'RED',
      feature_annotations: 'RISKY,IDEA',
      feature_size: '5',
    })
    expect(rows[2].release_title).toBe('Later')
  })
})

describe('projectToCsv: the formula guard (CONTRACT §8)', () => {
  it("prefixes every column's formula-like cells with ', and nothing else", () => {
    const risky: ProjectBundle = {
      ...bundle,
      milestones: [card('m1', 'b', '=cmd', { projectId: 'p' })],
      workflows: [card('w1', 'c', '+Goal', { projectId: 'p' })],
      subWorkflows: [card('s1', 'c', '-Act', { workflowId: 'w1' })],
      features: [
        card('f1', 'c', '@user', {
          projectId: 'p',
          milestoneId: 'm1',
          subWorkflowId: 's1',
          estimate: 0,
          description: '\tindented',
        }),
        card('f2', 'd', "it's fine", {
          projectId: 'p',
          milestoneId: 'm1',
          subWorkflowId: 's1',
          estimate: 1,
          description: '\rstart',
        }),
      ],
    }
    const lines = projectToCsv(risky).split('\r\n')
    expect(lines[0]).toBe(projectToCsv(bundle).split('\r\n')[0])
    expect(lines[1]).toBe(`"'=cmd","'+Goal","'-Act","'@user","'\tindented","OPEN","","","0"`)
    expect(lines[2]).toBe(`"'=cmd","'+Goal","'-Act","it's fine","'\rstart","OPEN","","","1"`)
  })
})
