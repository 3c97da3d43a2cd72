import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { liveVersionReached, setLiveVersion } from '~/features/board/ui/live/live-version'
import {
  forgetOwnEdit,
  loadAfterOwnEdit,
  noteOwnEdit,
  ownEditPending,
} from '~/features/board/ui/live/own-edits'
import { rememberShown } from '~/http/offline-loader'

const P = 'p1'
const KEY = `board:${P}`
const rename = { type: 'card.rename', kind: 'feature', id: 'f1', title: 'Price filter' } as const
const answer = (version: number) => ({
  ok: true,
  version,
  history: { undo: `Renamed feature 'Filters' to 'Price filter'`, redo: null },
})
const shown = { bundleText: 'map text', title: 'Shop', history: { undo: null, redo: null } }

describe('the version a live board shows', () => {
  afterEach(() => setLiveVersion(P, null))

  it('is reached at once, later, or never: the stream down, the time up, or the reload cancelled', async () => {
    expect(await liveVersionReached(P, 1, 1000)).toBe(false) // no live board
    setLiveVersion(P, 4)
    expect(await liveVersionReached(P, 4, 1000)).toBe(true)
    const later = liveVersionReached(P, 6, 1000)
    setLiveVersion(P, 5)
    setLiveVersion(P, 6)
    expect(await later).toBe(true)
    const down = liveVersionReached(P, 9, 1000)
    setLiveVersion(P, null)
    expect(await down).toBe(false)
    setLiveVersion(P, 6)
    expect(await liveVersionReached(P, 9, 20)).toBe(false)
    const controller = new AbortController()
    const cancelled = liveVersionReached(P, 9, 1000, controller.signal)
    controller.abort()
    expect(await cancelled).toBe(false)
    expect(await liveVersionReached('other', 1, 1000)).toBe(false)
  })
})

describe('the board data after one’s own edit', () => {
  const fromServer = vi.fn(async () => ({
    ...shown,
    bundleText: 'fresh map',
    history: { undo: 'from the server', redo: null },
  }))
  const signal = () => new AbortController().signal

  beforeEach(() => {
    vi.stubGlobal('document', {})
    rememberShown(KEY, shown)
    fromServer.mockClear()
    forgetOwnEdit()
  })
  afterEach(() => {
    setLiveVersion(P, null)
    vi.unstubAllGlobals()
  })

  it('is the page as shown with the edit’s undo state, once the live board has the edit; the server is not asked', async () => {
    setLiveVersion(P, 6)
    noteOwnEdit(P, rename, answer(7))
    expect(ownEditPending(P)).toBe(true)
    const data = loadAfterOwnEdit(P, KEY, signal(), fromServer)
    setLiveVersion(P, 7)
    expect(await data).toEqual({ ...shown, history: answer(7).history })
    expect(fromServer).not.toHaveBeenCalled()
    expect(ownEditPending(P)).toBe(false)
    // The next reload, for anything else, asks the server.
    expect((await loadAfterOwnEdit(P, KEY, signal(), fromServer)).bundleText).toBe('fresh map')
  })

  it('comes from the server without a live stream, after undo or a change to the project, and when the edit is stale or forgotten', async () => {
    noteOwnEdit(P, rename, answer(7))
    expect((await loadAfterOwnEdit(P, KEY, signal(), fromServer)).bundleText).toBe('fresh map') // not live
    expect(ownEditPending(P)).toBe(false)
    setLiveVersion(P, 9)
    for (const command of [
      { type: 'history.undo', requestId: crypto.randomUUID() },
      { type: 'card.rename', kind: 'project', id: P, title: 'New name' },
      { type: 'feature.watch', featureId: 'f1', watching: true },
    ] as const) {
      noteOwnEdit(P, command, answer(9))
      expect(ownEditPending(P)).toBe(false)
    }
    noteOwnEdit(P, rename, { ok: true }) // an answer without the version
    expect(ownEditPending(P)).toBe(false)
    noteOwnEdit(P, rename, answer(9), Date.now() - 11_000)
    expect(ownEditPending(P)).toBe(false)
    noteOwnEdit(P, rename, answer(9))
    forgetOwnEdit()
    await loadAfterOwnEdit(P, KEY, signal(), fromServer)
    noteOwnEdit(P, rename, answer(9))
    expect(
      await loadAfterOwnEdit('another-project', 'board:another-project', signal(), fromServer),
    ).toMatchObject({ bundleText: 'fresh map' })
    expect(fromServer).toHaveBeenCalledTimes(3)
  })

  it('stays pending when its reload is cancelled (a dialog closed at once), so the next move reloads', async () => {
    setLiveVersion(P, 6)
    noteOwnEdit(P, rename, answer(7))
    const controller = new AbortController()
    const cancelled = loadAfterOwnEdit(P, KEY, controller.signal, async () => {
      throw new DOMException('cancelled', 'AbortError')
    })
    controller.abort()
    await expect(cancelled).rejects.toThrow('cancelled')
    expect(ownEditPending(P)).toBe(true)
    setLiveVersion(P, 7)
    expect(await loadAfterOwnEdit(P, KEY, signal(), fromServer)).toEqual({
      ...shown,
      history: answer(7).history,
    })
  })
})
