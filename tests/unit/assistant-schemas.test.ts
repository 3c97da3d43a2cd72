import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  acceptanceCriteriaSchema,
  DRAFT_LIMITS,
  draftDescriptionSchema,
  draftMapSchema,
  splitSuggestionsSchema,
  type DraftMap,
} from '~/features/assistant/assistant-schemas'
import { draftToMapFile } from '~/features/assistant/draft-map-file'
import { parseJsonImport } from '~/features/transfer/import-json'
import { describeImport } from '~/features/transfer/import-map'

const feature = (title: string) => ({ title, description: `${title}, described in a sentence.` })

const draft: DraftMap = {
  title: 'Corner bakery shop',
  description: 'Order bread and cakes online for pick-up.',
  releases: [
    { title: 'Walking skeleton', description: 'Order and pay for pick-up.' },
    { title: 'Regulars', description: 'Accounts and favourites.' },
    { title: 'Later', description: '' },
  ],
  goals: [
    {
      title: 'Choose what to buy',
      activities: [
        {
          title: 'Browse the counter',
          cells: [
            { release: 0, features: [feature('List of today’s bakes'), feature('Photo per bake')] },
            { release: 2, features: [feature('Allergen filter')] },
            { release: 0, features: [feature('Sold-out badge')] },
          ],
        },
        { title: 'Pick a pick-up time', cells: [{ release: 0, features: [feature('Time slots')] }] },
      ],
    },
    {
      title: 'Pay and collect',
      activities: [{ title: 'Pay', cells: [{ release: 1, features: [feature('Saved cards')] }] }],
    },
  ],
  personas: [
    {
      name: 'Maya',
      role: 'Regular on her way to work',
      description: 'Orders every morning.',
      goals: [0, 1, 1, 4],
    },
  ],
}

describe('the assistant’s answer schemas (CONTRACT §16)', () => {
  it('accepts a draft within the limits', () => {
    expect(draftMapSchema.parse(draft)).toEqual(draft)
  })

  it.each([
    ['two releases', { ...draft, releases: draft.releases.slice(0, 2) }],
    ['a title over 200 characters', { ...draft, title: 'x'.repeat(201) }],
    ['a blank title', { ...draft, title: '   ' }],
    [
      'six goals',
      { ...draft, goals: Array.from({ length: DRAFT_LIMITS.goals.max + 1 }, () => draft.goals[0]) },
    ],
    ['a goal without activities', { ...draft, goals: [{ title: 'Empty', activities: [] }] }],
    [
      'a cell of five features',
      {
        ...draft,
        goals: [
          {
            title: 'G',
            activities: [{ title: 'A', cells: [{ release: 0, features: Array(5).fill(feature('F')) }] }],
          },
        ],
      },
    ],
    [
      'a release index past the third',
      {
        ...draft,
        goals: [
          { title: 'G', activities: [{ title: 'A', cells: [{ release: 3, features: [feature('F')] }] }] },
        ],
      },
    ],
    ['three personas', { ...draft, personas: Array(3).fill(draft.personas[0]) }],
    ['a missing list', { ...draft, personas: undefined }],
  ])('refuses a draft with %s', (_what, value) => {
    expect(draftMapSchema.safeParse(value).success).toBe(false)
  })

  it('asks for 3–6 split suggestions with a title and a description', () => {
    const three = { suggestions: [feature('A'), feature('B'), feature('C')] }
    expect(splitSuggestionsSchema.safeParse(three).success).toBe(true)
    expect(splitSuggestionsSchema.safeParse({ suggestions: three.suggestions.slice(0, 2) }).success).toBe(
      false,
    )
    expect(splitSuggestionsSchema.safeParse({ suggestions: Array(7).fill(feature('A')) }).success).toBe(false)
    expect(
      splitSuggestionsSchema.safeParse({ suggestions: [{ title: 'A' }, feature('B'), feature('C')] }).success,
    ).toBe(false)
  })

  it('asks for a list of short acceptance criteria', () => {
    expect(acceptanceCriteriaSchema.parse({ criteria: [' Shows the total '] })).toEqual({
      criteria: ['Shows the total'],
    })
    expect(acceptanceCriteriaSchema.safeParse({ criteria: [] }).success).toBe(false)
    expect(acceptanceCriteriaSchema.safeParse({ criteria: ['x'.repeat(301)] }).success).toBe(false)
    expect(acceptanceCriteriaSchema.safeParse({ criteria: 'Shows the total' }).success).toBe(false)
  })

  it('takes a product description of 1–4,000 characters', () => {
    expect(draftDescriptionSchema.safeParse('A bakery').success).toBe(true)
    expect(draftDescriptionSchema.safeParse('x'.repeat(4000)).success).toBe(true)
    expect(draftDescriptionSchema.safeParse('x'.repeat(4001)).error?.issues[0].message).toBe(
      'Maximum 4000 characters.',
    )
    expect(draftDescriptionSchema.safeParse('  ').error?.issues[0].message).toBe('Minimum 1 character.')
  })

  it('sends every limit in the JSON schema, with every property required', () => {
    const schema = z.toJSONSchema(draftMapSchema) as any
    expect(schema.required).toEqual(['title', 'description', 'releases', 'goals', 'personas'])
    expect(schema.properties.releases).toMatchObject({ minItems: 3, maxItems: 3 })
    expect(schema.properties.title).toMatchObject({ minLength: 1, maxLength: 200 })
    const cell = schema.properties.goals.items.properties.activities.items.properties.cells.items
    expect(cell.properties.release).toMatchObject({ type: 'integer', minimum: 0, maximum: 2 })
    expect(cell.properties.features).toMatchObject({ minItems: 1, maxItems: 4 })
    expect(cell.required).toEqual(['release', 'features'])
  })
})

describe('draftToMapFile: a draft in the §8 JSON shape', () => {
  let n = 0
  const ids = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`

  it('passes the import parser, with the draft’s order, cells merged and bad persona links dropped', () => {
    const file = draftToMapFile(draft, { now: new Date('2026-01-02T03:04:05Z'), newId: ids })
    expect(file).toMatchObject({
      format: 'storymap',
      formatVersion: 1,
      exportedAt: '2026-01-02T03:04:05.000Z',
    })
    const map = parseJsonImport(JSON.stringify(file))
    expect(describeImport(map)).toBe('2 goals, 3 activities, 3 releases, 6 features')
    expect(map.title).toBe('Corner bakery shop')
    expect(map.milestones.map((m) => m.title)).toEqual(['Walking skeleton', 'Regulars', 'Later'])
    expect(map.subWorkflows.map((s) => [s.title, s.workflow])).toEqual([
      ['Browse the counter', 0],
      ['Pick a pick-up time', 0],
      ['Pay', 1],
    ])
    const cells = map.features.map((f) => [f.title, f.milestone, f.subWorkflow])
    expect(cells).toEqual([
      ['List of today’s bakes', 0, 0],
      ['Photo per bake', 0, 0],
      ['Sold-out badge', 0, 0],
      ['Allergen filter', 2, 0],
      ['Time slots', 0, 1],
      ['Saved cards', 1, 2],
    ])
    expect(map.features[0].description).toBe('List of today’s bakes, described in a sentence.')
    expect(map.personas).toMatchObject([
      { name: 'Maya', role: 'Regular on her way to work', avatar: 'avatar00' },
    ])
    expect(map.workflowPersonas).toEqual([
      { workflow: 0, persona: 0 },
      { workflow: 1, persona: 0 },
    ])
  })

  it('gives new ids every time', () => {
    const a = draftToMapFile(draft)
    const b = draftToMapFile(draft)
    const idsOf = (file: typeof a) =>
      [...file.milestones!, ...file.workflows!, ...file.subWorkflows!, ...file.features!].map((c) => c.id)
    expect(new Set([...idsOf(a), ...idsOf(b)]).size).toBe(idsOf(a).length * 2)
    expect(idsOf(a).every((id) => /^[0-9a-f-]{36}$/.test(id))).toBe(true)
  })

  it('turns the largest draft the schema allows into a map the parser takes', () => {
    const big = (i: number) => feature(`Feature ${i}`)
    const largest: DraftMap = {
      ...draft,
      goals: Array.from({ length: 5 }, (_, g) => ({
        title: `Goal ${g}`,
        activities: Array.from({ length: 5 }, (_, a) => ({
          title: `Activity ${g}.${a}`,
          cells: [0, 1, 2].map((release) => ({ release, features: [1, 2, 3, 4].map(big) })),
        })),
      })),
    }
    expect(draftMapSchema.safeParse(largest).success).toBe(true)
    const map = parseJsonImport(JSON.stringify(draftToMapFile(largest)))
    expect(describeImport(map)).toBe('5 goals, 25 activities, 3 releases, 300 features')
  })
})
