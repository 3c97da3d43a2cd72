import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { draftMap } from '~/features/assistant/assistant-model.server'
import { BUILT_IN_TEMPLATES } from '~/features/templates/templates'
import { logger } from '~/lib/logger.server'
import { bundle } from '../support/board'
import { signUp } from '../support/client'
import { FakeOpenAI } from '../support/fake-openai'
import { startServer, type RunningServer } from '../support/server'

/**
 * The maps CONTRACT §16 makes without a database — the built-in templates and the assistant's
 * draft — are exports the running app imports today (`POST /v1/projects/import`, CONTRACT §8):
 * the new project holds every goal, activity, release, feature and persona.
 */
let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let fake: FakeOpenAI

beforeAll(async () => {
  logger.level = 'error'
  server = await startServer()
  owner = await signUp(server.url, { name: 'Olive Owner' })
  fake = await new FakeOpenAI().start()
})
afterAll(async () => {
  await server?.stop()
  await fake?.stop()
})

async function importMap(map: unknown) {
  const res = await owner.client.post('/v1/projects/import', JSON.stringify(map), {
    'Content-Type': 'application/json',
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return bundle(owner.client, res.json.project.id)
}

const titles = (list: { title: string }[]) => list.map((c) => c.title).sort()

describe('maps made without a database, imported by the app', () => {
  it.each(BUILT_IN_TEMPLATES.map((t) => [t.id, t] as const))(
    'the %s template becomes a whole project',
    async (_id, template) => {
      const map = template.map
      const copy = await importMap(map)
      expect(copy.version).toBe(1)
      expect(copy.project.title).toBe(template.title)
      expect(titles(copy.workflows)).toEqual(titles(map.workflows!))
      expect(titles(copy.subWorkflows)).toEqual(titles(map.subWorkflows!))
      expect(titles(copy.milestones)).toEqual(titles(map.milestones!))
      expect(titles(copy.features)).toEqual(titles(map.features!))
      expect(copy.personas.map((p: { name: string }) => p.name).sort()).toEqual(
        map.personas!.map((p) => p.name).sort(),
      )
      expect(copy.workflowPersonas).toHaveLength(map.workflowPersonas!.length)
      const sized = copy.features.filter((f: { estimate: number }) => f.estimate > 0)
      expect(sized.length).toBe(map.features!.filter((f) => (f.estimate ?? 0) > 0).length)
    },
  )

  it('the assistant’s draft becomes a whole project', async () => {
    const config = { baseURL: fake.url, model: 'storymap-test-model', timeoutSeconds: 10 }
    const { draft, map } = await draftMap(
      config,
      'A booking app for a climbing gym: book a slot, rent shoes, pay.',
    )
    const copy = await importMap(map)
    expect(copy.project.title).toBe(draft.title)
    expect(copy.milestones).toHaveLength(3)
    expect(copy.workflows).toHaveLength(draft.goals.length)
    const features = draft.goals.flatMap((g) =>
      g.activities.flatMap((a) => a.cells.flatMap((c) => c.features)),
    )
    expect(copy.features).toHaveLength(features.length)
  })
})
