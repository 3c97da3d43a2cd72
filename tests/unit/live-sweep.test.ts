import { describe, expect, it } from 'vitest'
import { checkSweep, sweepInSlices, type LiveStream } from '~/features/live/live-hub.server'

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

describe('the periodic access check (CONTRACT §6: within 5 s)', () => {
  /** A hub of `count` streams in projects of 50; `untilOf(i)` is what stream i's check says of time. */
  function checkedHub(count: number, untilOf: (i: number) => number | undefined) {
    const asked: number[] = []
    const byProject = new Map<string, Set<LiveStream>>()
    for (let i = 0; i < count; i++) {
      const project = `p${Math.floor(i / 50)}`
      if (!byProject.has(project)) byProject.set(project, new Set())
      byProject.get(project)!.add({
        viewer: null,
        access: null,
        check: () => {
          asked.push(i)
          return { ok: true, viewer: null, until: untilOf(i) }
        },
      } as unknown as LiveStream)
    }
    let mark: string | null = 'a'
    const hub = { byProject, closing: false, accessMark: () => mark, checkedMark: null as string | null }
    const sweep = checkSweep(hub as never)
    const round = async () => {
      const from = asked.length
      await sweep()
      return asked.slice(from)
    }
    return { round, sweep, asked, setMark: (m: string | null) => (mark = m) }
  }

  it('asks every stream when a write may have changed access, and otherwise only those whose time came', async () => {
    const later = Date.now() + 60_000
    // Streams 0–2: a session that ends later; 3: one that has just ended; 4: no end known.
    const hub = checkedHub(5, (i) => (i < 3 ? later : i === 3 ? Date.now() - 1 : undefined))
    expect(await hub.round()).toEqual([0, 1, 2, 3, 4]) // the first sweep asks all
    expect(await hub.round()).toEqual([3, 4]) // nothing written: only the due ones
    hub.setMark('b') // a level changed, a session ended …
    expect(await hub.round()).toEqual([0, 1, 2, 3, 4])
    expect(await hub.round()).toEqual([3, 4])
    hub.setMark(null) // no mark to go by: every sweep asks all
    expect(await hub.round()).toEqual([0, 1, 2, 3, 4])
    expect(await hub.round()).toEqual([0, 1, 2, 3, 4])
  })

  it('does not lose a write that came while a sweep was still going', async () => {
    const later = Date.now() + 60_000
    const hub = checkedHub(250, () => later)
    await hub.round()
    hub.setMark('b')
    const before = hub.asked.length
    const first = hub.sweep() // a full sweep, yielding between slices of about 100 streams
    hub.setMark('c') // a write while it runs
    await Promise.all([first, hub.sweep()]) // the second finds the first still going and does nothing
    expect(hub.asked.length - before).toBe(250)
    expect((await hub.round()).length).toBe(250) // the mark moved during the sweep: all again
    expect((await hub.round()).length).toBe(0)
  })
})
