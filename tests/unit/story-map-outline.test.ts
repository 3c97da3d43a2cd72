import { describe, expect, it } from 'vitest'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { storyMapOutline } from '~/features/automation/story-map-outline'

const card = (id: string, title: string, extra: Record<string, unknown> = {}) => ({
  id,
  workspaceId: 'w',
  rank: 'a',
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
  projectId: 'p',
  ...extra,
})

const bundle = (): ProjectBundle =>
  ({
    version: 3,
    project: { kind: 'project', id: 'p', title: 'Shop', description: 'Sell coffee\nand more' },
    milestones: [card('r1', 'MVP'), card('r2', 'Later', { status: 'CLOSED' })],
    workflows: [card('g1', 'Buy'), card('g2', 'Help')],
    subWorkflows: [card('a1', 'Pay', { workflowId: 'g1' }), card('a2', 'Browse', { workflowId: 'g1' })],
    features: [
      card('f1', 'Pay by card', {
        subWorkflowId: 'a1',
        milestoneId: 'r1',
        estimate: 5,
        color: 'TEAL',
        annotations: 'RISKY,IDEA',
        description: '\nCards and wallets',
      }),
      card('f2', 'Refunds', { subWorkflowId: 'a1', milestoneId: 'r2', estimate: 0, status: 'CLOSED' }),
    ],
    featureComments: [{ featureId: 'f1' }, { featureId: 'f1' }],
    personas: [{ id: 'pe', name: 'Pat', role: 'Buyer' }],
    workflowPersonas: [{ id: 'wp', personaId: 'pe', workflowId: 'g1' }],
  }) as unknown as ProjectBundle

describe('storyMapOutline', () => {
  it('lists releases in order, then goals › activities with their features per release, every card with its id', () => {
    expect(storyMapOutline(bundle())).toBe(
      [
        'Story map "Shop" [p]',
        'Sell coffee',
        '2 goals, 2 activities, 2 releases, 2 features.',
        '',
        'Releases, top to bottom:',
        '  1. "MVP" [r1]',
        '  2. "Later" [r2] (closed)',
        '',
        'Goals › activities, left to right, with their features per release:',
        'Goal "Buy" [g1]',
        '  Personas: Pat (Buyer)',
        '  Activity "Pay" [a1]',
        '    In release "MVP":',
        '      - "Pay by card" [f1] (2 comments; size 5; colour teal; annotations: Risky, Idea)',
        '        Cards and wallets',
        '    In release "Later":',
        '      - "Refunds" [f2] (closed)',
        '  Activity "Browse" [a2]',
        '    (no features)',
        'Goal "Help" [g2]',
        '  (no activities)',
      ].join('\n'),
    )
  })

  it('says when a map is empty, and keeps a title on one line', () => {
    const empty = { ...bundle(), milestones: [], workflows: [], subWorkflows: [], features: [] }
    empty.project = { ...empty.project, title: 'Two\nlines', description: '' }
    expect(storyMapOutline(empty)).toBe(
      [
        'Story map "Two lines" [p]',
        '0 goals, 0 activities, 0 releases, 0 features.',
        '',
        'Releases, top to bottom:',
        '  (none)',
        '',
        'Goals › activities, left to right, with their features per release:',
        '  (none)',
      ].join('\n'),
    )
  })
})
