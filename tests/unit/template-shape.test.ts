import { describe, expect, it } from 'vitest'
import { newProjectSchema, templateTitleFormSchema } from '~/features/templates/template-forms'
import { findBuiltInTemplate, shapeOf } from '~/features/templates/templates'
import { shapeCounts } from '~/features/templates/ui/new-project-dialog'

/** What `New project` shows of a template (CONTRACT §16) and what its forms accept. */
describe('a template’s shape', () => {
  it('lists the goals in their order on the board, and counts the cards', () => {
    const shape = shapeOf({
      workflows: [
        { title: 'Pay', rank: 'm' },
        { title: 'Browse', rank: 'c' },
      ],
      subWorkflows: [{}, {}, {}],
      milestones: [{}],
      features: [{}, {}, {}, {}, {}],
    })
    expect(shape).toEqual({
      goalTitles: ['Browse', 'Pay'],
      goals: 2,
      activities: 3,
      releases: 1,
      features: 5,
    })
    expect(shapeCounts(shape)).toBe('2 goals, 3 activities, 1 release, 5 features')
  })

  it('of a built-in template', () => {
    const shape = shapeOf(findBuiltInTemplate('online-shop')!.map)
    expect(shapeCounts(shape)).toBe('4 goals, 10 activities, 3 releases, 32 features')
    expect(shape.goalTitles[0]).toBe('Find a product')
  })

  it('of an empty map', () => {
    expect(shapeCounts(shapeOf({}))).toBe('0 goals, 0 activities, 0 releases, 0 features')
  })
})

describe('the New project form', () => {
  it('takes Blank (no template) or a template id, with SPEC §5’s title messages', () => {
    expect(newProjectSchema.parse({ title: ' Roadmap ' })).toEqual({ title: 'Roadmap' })
    expect(newProjectSchema.parse({ title: 'Shop', templateId: 'online-shop' })).toEqual({
      title: 'Shop',
      templateId: 'online-shop',
    })
    const refused = newProjectSchema.safeParse({ title: 'x'.repeat(201), templateId: '../etc' })
    expect(refused.error?.issues.map((i) => i.message)).toEqual([
      'Project maximum 200 characters.',
      'Unknown template.',
    ])
  })

  it('asks a template’s title when renaming or saving one', () => {
    expect(templateTitleFormSchema.safeParse({}).error?.issues[0].message).toBe('Title required.')
    expect(templateTitleFormSchema.safeParse({ title: '  ' }).error?.issues[0].message).toBe(
      'Title required.',
    )
    expect(templateTitleFormSchema.parse({ title: ' Ours ' })).toEqual({ title: 'Ours' })
  })
})
