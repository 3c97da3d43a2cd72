import { describe, expect, it } from 'vitest'
import { BoardOutbox } from '~/features/board/ui/board-outbox'
import type { BoardCommand } from '~/features/board/board-commands'

/** A fake network and clock: `online` can be switched, timers run when `tick` says so. */
function fakeEnvironment() {
  const sent: string[] = []
  const timers = new Set<{ fn: () => void; at: number }>()
  const onlineListeners = new Set<() => void>()
  let now = 0
  const net = {
    online: true,
    /** Answers per command title; missing: `{ok: true}`. */
    answers: new Map<string, { status: number; body: unknown }>(),
  }
  const env = {
    fetch: async (_url: string | URL | Request, init?: RequestInit) => {
      const command = JSON.parse(String(init?.body)) as { title?: string; id: string }
      if (!net.online) throw new TypeError('Failed to fetch')
      sent.push(command.title ?? command.id)
      const answer = net.answers.get(command.title ?? '') ?? { status: 200, body: { ok: true } }
      return new Response(JSON.stringify(answer.body), { status: answer.status })
    },
    isOnline: () => net.online,
    onOnline: (listener: () => void) => {
      onlineListeners.add(listener)
      return () => void onlineListeners.delete(listener)
    },
    setTimeout: (fn: () => void, ms: number) => {
      const timer = { fn, at: now + ms }
      timers.add(timer)
      return timer
    },
    clearTimeout: (handle: unknown) => void timers.delete(handle as { fn: () => void; at: number }),
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return {
    env: env as never,
    net,
    sent,
    async tick(ms: number) {
      now += ms
      for (const timer of [...timers].filter((t) => t.at <= now)) {
        timers.delete(timer)
        timer.fn()
      }
      await settle()
    },
    async goOnline() {
      net.online = true
      for (const listener of [...onlineListeners]) listener()
      await settle()
    },
    settle,
  }
}

const rename = (title: string): BoardCommand =>
  ({ type: 'card.rename', kind: 'feature', id: crypto.randomUUID(), title }) as BoardCommand

describe('BoardOutbox', () => {
  it('sends writes one at a time, in the order they were made', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    const answers = await Promise.all(
      ['A', 'B', 'C'].map((t) => outbox.send('/w/projects/p/commands', rename(t))),
    )
    expect(fake.sent).toEqual(['A', 'B', 'C'])
    expect(answers.every((a) => a.ok)).toBe(true)
    expect(outbox.getState()).toEqual({ offline: false, signedOut: false, waiting: 0 })
  })

  it('holds writes made offline, says so, and sends them in order when the network is back', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    fake.net.online = false
    const first = outbox.send('/c', rename('A'))
    const second = outbox.send('/c', rename('B'))
    await fake.tick(5000)
    expect(fake.sent).toEqual([])
    expect(outbox.getState().waiting).toBe(2)
    await fake.goOnline()
    await expect(first).resolves.toMatchObject({ ok: true })
    await expect(second).resolves.toMatchObject({ ok: true })
    expect(fake.sent).toEqual(['A', 'B'])
    expect(outbox.getState()).toEqual({ offline: false, signedOut: false, waiting: 0 })
  })

  it('goes again with back-off when the server does not answer, and marks the board offline meanwhile', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    let failures = 2
    const realFetch = (fake.env as { fetch: typeof fetch }).fetch
    ;(fake.env as { fetch: typeof fetch }).fetch = async (url, init) => {
      if (failures-- > 0) throw new TypeError('Failed to fetch')
      return realFetch(url, init)
    }
    const write = outbox.send('/c', rename('A'))
    await fake.settle()
    expect(outbox.getState().offline).toBe(true)
    await fake.tick(1000)
    expect(fake.sent).toEqual([])
    await fake.tick(2000)
    await expect(write).resolves.toMatchObject({ ok: true })
    expect(fake.sent).toEqual(['A'])
    expect(outbox.getState().offline).toBe(false)
  })

  it('answers a refusal with its status and message; a create repeated after a lost answer counts as done', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    fake.net.answers.set('Refused', {
      status: 403,
      body: { error: 'level_too_low', message: 'Viewers cannot edit.' },
    })
    await expect(outbox.send('/c', rename('Refused'))).resolves.toEqual({
      ok: false,
      status: 403,
      error: 'level_too_low',
      message: 'Viewers cannot edit.',
    })

    // The first attempt landed but its answer was lost; the repeat finds the id taken.
    let attempts = 0
    ;(fake.env as { fetch: typeof fetch }).fetch = async () => {
      attempts++
      if (attempts === 1) throw new TypeError('Failed to fetch')
      return new Response(JSON.stringify({ error: 'id_taken', message: 'This id is already used.' }), {
        status: 409,
      })
    }
    const create = outbox.send('/c', {
      type: 'feature.create',
      id: crypto.randomUUID(),
      title: 'New',
    } as BoardCommand)
    await fake.settle()
    await fake.tick(1000)
    await expect(create).resolves.toEqual({ ok: true })
    expect(attempts).toBe(2)
  })

  it('answers a 401 as a refusal on a page that offers no log-in', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    fake.net.answers.set('A', { status: 401, body: { error: 'unauthorized', message: 'Log in first.' } })
    await expect(outbox.send('/c', rename('A'))).resolves.toMatchObject({ ok: false, status: 401 })
    const release = outbox.holdWhileSignedOut()
    release()
    await expect(outbox.send('/c', rename('A'))).resolves.toMatchObject({ ok: false, status: 401 })
  })

  it('holds every write while the session has ended (401), says so, and sends them in order after the log-in', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    outbox.holdWhileSignedOut()
    fake.net.answers.set('A', { status: 401, body: { error: 'unauthorized', message: 'Log in first.' } })
    const first = outbox.send('/c', rename('A'))
    const second = outbox.send('/c', rename('B'))
    let settled = false
    void Promise.all([first, second]).then(() => (settled = true))
    await fake.settle()
    await fake.tick(60_000)
    expect(outbox.getState()).toEqual({ offline: false, signedOut: true, waiting: 2 })
    expect(fake.sent).toEqual(['A'])
    expect(settled).toBe(false)

    fake.net.answers.delete('A')
    outbox.signedInAgain()
    await expect(first).resolves.toMatchObject({ ok: true })
    await expect(second).resolves.toMatchObject({ ok: true })
    expect(fake.sent).toEqual(['A', 'A', 'B'])
    expect(outbox.getState()).toEqual({ offline: false, signedOut: false, waiting: 0 })
  })

  it('holds a write made after the stream found the session gone, until the log-in', async () => {
    const fake = fakeEnvironment()
    const outbox = new BoardOutbox(fake.env)
    outbox.holdWhileSignedOut()
    outbox.markSignedOut()
    fake.net.answers.set('A', { status: 401, body: { error: 'unauthorized', message: '' } })
    const write = outbox.send('/c', rename('A'))
    await fake.settle()
    expect(outbox.getState().signedOut).toBe(true)
    fake.net.answers.delete('A')
    outbox.signedInAgain()
    await expect(write).resolves.toMatchObject({ ok: true })
  })
})
