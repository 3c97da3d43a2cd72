import { expect, it } from 'vitest'
import { loadOrKeepShown, rememberShown } from '~/http/offline-loader'

it('keeps nothing on the server, where every board ever rendered would stay in memory', async () => {
  // Tests run in Node, as the server does (no document).
  rememberShown('board:p1', { bundleText: 'x'.repeat(1000) })
  const offline = () => Promise.reject(new TypeError('fetch failed'))
  await expect(loadOrKeepShown('board:p1', offline)).rejects.toThrow('fetch failed')
})

it('answers with the server data when it comes', async () => {
  await expect(loadOrKeepShown('board:p2', async () => ({ ok: true }))).resolves.toEqual({ ok: true })
})
