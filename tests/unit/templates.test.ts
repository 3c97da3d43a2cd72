import { describe, expect, it } from 'vitest'
import {
  BUILT_IN_TEMPLATES,
  builtInTemplateSummaries,
  findBuiltInTemplate,
  isBuiltInTemplateId,
} from '~/features/templates/templates'
import { parseJsonImport } from '~/features/transfer/import-json'

/** CONTRACT §16: at least four built-in templates, each a realistic map in the §8 shape. */
describe('the built-in templates', () => {
  it('are at least four: an online shop, a mobile app’s onboarding, a SaaS first release, an internal tool', () => {
    expect(builtInTemplateSummaries().map((t) => [t.id, t.title])).toEqual([
      ['online-shop', 'Online shop'],
      ['mobile-onboarding', 'Mobile app onboarding'],
      ['saas-first-release', 'SaaS product: first release'],
      ['internal-tool', 'Internal tool: equipment requests'],
    ])
  })

  describe.each(BUILT_IN_TEMPLATES.map((t) => [t.id, t] as const))('%s', (_id, template) => {
    const map = parseJsonImport(JSON.stringify(template.map))

    it('is an export the import parser reads, with the format header', () => {
      expect(template.map).toMatchObject({ format: 'storymap', formatVersion: 1 })
      expect(map.title).toBe(template.title)
      expect(map.description.length).toBeGreaterThan(40)
    })

    it('has 3–5 goals, 8–15 activities, 3 releases, 20–40 features and a persona or two', () => {
      expect(map.workflows.length).toBeGreaterThanOrEqual(3)
      expect(map.workflows.length).toBeLessThanOrEqual(5)
      expect(map.subWorkflows.length).toBeGreaterThanOrEqual(8)
      expect(map.subWorkflows.length).toBeLessThanOrEqual(15)
      expect(map.milestones).toHaveLength(3)
      expect(map.features.length).toBeGreaterThanOrEqual(20)
      expect(map.features.length).toBeLessThanOrEqual(40)
      expect(map.personas.length).toBeGreaterThanOrEqual(1)
      expect(map.personas.length).toBeLessThanOrEqual(2)
    })

    it('lists its counts as GET /v1/templates shows them', () => {
      expect(template).toMatchObject({
        builtIn: true,
        goals: map.workflows.length,
        features: map.features.length,
        description: map.description,
      })
    })

    it('gives every feature a real description, and every goal, activity and release features', () => {
      for (const feature of map.features) {
        expect(feature.description.length, feature.title).toBeGreaterThanOrEqual(40)
        expect(feature.description).not.toMatch(/lorem|ipsum|\btodo\b|\btbd\b|placeholder|^description/i)
        expect(feature.description).not.toBe(feature.title)
      }
      const used = (key: 'milestone' | 'subWorkflow') => new Set(map.features.map((f) => f[key]))
      expect(used('milestone').size).toBe(3)
      expect(used('subWorkflow').size).toBe(map.subWorkflows.length)
      expect(new Set(map.subWorkflows.map((s) => s.workflow)).size).toBe(map.workflows.length)
    })

    it('has no title twice in one list, and each persona on at least one goal', () => {
      for (const list of [map.workflows, map.subWorkflows, map.milestones, map.features]) {
        const titles = list.map((c) => c.title)
        expect(new Set(titles).size).toBe(titles.length)
      }
      map.personas.forEach((persona, p) => {
        expect(persona.description.length, persona.name).toBeGreaterThan(40)
        expect(map.workflowPersonas.some((wp) => wp.persona === p)).toBe(true)
      })
    })

    it('has no comments, tags or authors to carry into a new project', () => {
      expect(map.comments).toEqual([])
      expect(map.tags).toEqual([])
      expect(JSON.stringify(template.map)).not.toMatch(/createdBy|workspaceId|[\w.+-]+@[\w-]+\.\w/)
    })
  })

  it('have ids that are words, found by id and never mistaken for a UUID', () => {
    expect(findBuiltInTemplate('internal-tool')?.title).toBe('Internal tool: equipment requests')
    expect(findBuiltInTemplate('nope')).toBeUndefined()
    expect(findBuiltInTemplate('toString')).toBeUndefined()
    expect(isBuiltInTemplateId('online-shop')).toBe(true)
    expect(isBuiltInTemplateId('constructor')).toBe(false)
    expect(isBuiltInTemplateId('5b0c1d2e-3f40-4152-8a6b-7c8d9e0f1a2b')).toBe(false)
  })

  it('summaries carry no map', () => {
    for (const summary of builtInTemplateSummaries()) {
      expect(Object.keys(summary).sort()).toEqual([
        'builtIn',
        'description',
        'features',
        'goals',
        'id',
        'title',
      ])
    }
  })
})
