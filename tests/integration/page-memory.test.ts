import { stringify } from 'csv-stringify/sync'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/**
 * A team opening a big board at once must not run the server out of memory. Each page's render
 * used to stay alive for 5 s after it was sent (an abort timer, and Remix's own stream timer
 * until the request's signal ended), a board's data several times over per load: with a small
 * heap, a burst of loads killed the process.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ NODE_OPTIONS: '--max-old-space-size=56' })
})
afterAll(async () => {
  await server?.stop()
})

const FEATURES = 1_500

function bigMapCsv() {
  const rows = Array.from({ length: FEATURES }, (_, i) => ({
    release_title: `Release ${Math.floor(i / 150) + 1}`,
    goal_title: `Goal ${(i % 15) + 1}`,
    activity_title: `Activity ${(i % 15) + 1}.${(Math.floor(i / 15) % 10) + 1}`,
    feature_title: `As a shopper I can do task number ${i + 1} of the big map`,
    feature_description: i % 5 === 0 ? 'Acceptance: the shopper sees the result at once.'.repeat(4) : '',
  }))
  return stringify(rows, { header: true })
}

it('answers a burst of loads of a 1,500-card board without holding each page after it is sent', async () => {
  const owner = await signUp(server.url)
  const imported = await owner.client.post('/v1/projects/import?title=Big', bigMapCsv(), {
    'Content-Type': 'text/csv',
  })
  expect(imported.status, imported.text).toBe(200)
  const boardPath = `/${owner.workspaceName}/projects/${imported.json.project.id}`

  for (let load = 0; load < 30; load++) {
    const page = await owner.client.get(boardPath)
    expect(page.status).toBe(200)
    expect(page.text).toContain('As a shopper I can do task number 1500 of the big map')
  }
  // Out of heap, Node aborts: a signal, not an exit code.
  expect(server.process.exitCode).toBeNull()
  expect(server.process.signalCode).toBeNull()
  expect(server.output()).not.toMatch(/heap out of memory/i)
}, 120_000)
