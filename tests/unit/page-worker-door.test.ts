import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { IN_THE_PAGE_WORKER, installMapDoor, openDoor } from '~/features/map/capture.server'
import { openDatabase } from '~/lib/db/db.server'
import { isPageWorker, markAsPageWorker } from '~/lib/page-worker-role.server'

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('storymap.page-worker')]
})

it('the door opens on the main thread, never in the page worker (its open boards would not hear of the change)', () => {
  const client = openDatabase(
    path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-door-')), 'storymap.db'),
  ).$client
  installMapDoor(client)
  expect(isPageWorker()).toBe(false)
  expect(() => openDoor(client, false)).not.toThrow()

  markAsPageWorker()
  expect(isPageWorker()).toBe(true)
  expect(() => openDoor(client, false)).toThrow(IN_THE_PAGE_WORKER)
  client.close()
})
