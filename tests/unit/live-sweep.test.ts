import { describe, expect, it } from 'vitest'
import { sweepInSlices, type LiveStream } from '~/features/live/live-hub.server'

/** 40 projects of 5 streams each, as the capacity bench's teams (issue 34). */
function hubOf(projects: number, perProject: number) {
  const byProject = new Map<string, Set<LiveStream>>()
  for (let p = 0; p < projects; p++)
    byProject.set(`p${p}`, new Set(Array.from({ length: perProject }, () => ({}) as LiveStream)))
  return { byProject, closing: false }
}

describe('a sweep over every live stream (checks, keep-alives)', () => {
  it('visits every project once and lets other work run between slices of about 100 streams', async () => {
    const hub = hubOf(40, 5)
    const visits: string[] = []
    const sweep = sweepInSlices(hub, (projectId) => visits.push(projectId))
    let otherWorkRanAfter = -1
    setImmediate(() => (otherWorkRanAfter = visits.length))
    await sweep()
    expect(visits).toEqual([...hub.byProject.keys()])
    // Work queued when the sweep began ran after its first slice, not after the whole sweep.
    expect(otherWorkRanAfter).toBe(20)
  })

  it('stops when the server is shutting down, and never runs twice at once', async () => {
    const hub = hubOf(60, 5)
    let visits = 0
    const sweep = sweepInSlices(hub, () => {
      visits += 1
      if (visits === 25) hub.closing = true
    })
    await Promise.all([sweep(), sweep()])
    expect(visits).toBe(25)
  })
})
