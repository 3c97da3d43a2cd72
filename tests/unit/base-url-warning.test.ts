import { describe, expect, it } from 'vitest'
import { listensOnLoopbackOnly, unsetBaseUrlWarning } from '~/lib/base-url-warning'

describe('the start warning about an unset BASE_URL', () => {
  it('tells loopback addresses from ones others can reach', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      'app.localhost',
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
    ])
      expect([host, listensOnLoopbackOnly(host)]).toEqual([host, true])
    for (const host of [
      undefined,
      '0.0.0.0',
      '::',
      '192.168.1.5',
      '10.0.0.2',
      'maps.example.com',
      '128.0.0.1',
    ])
      expect([host, listensOnLoopbackOnly(host)]).toEqual([host, false])
  })

  it('warns when BASE_URL is left to its default and others can reach the server', () => {
    const unset = { BASE_URL: 'http://localhost:3000', baseUrlDefaulted: true }
    expect(unsetBaseUrlWarning({ ...unset, HOST: undefined })).toBe(
      'BASE_URL is not set and the server listens on all interfaces: links in e-mails and the share link ' +
        'say http://localhost:3000; set BASE_URL to the address users open',
    )
    expect(unsetBaseUrlWarning({ ...unset, HOST: '0.0.0.0' })).toContain('listens on 0.0.0.0:')
    expect(unsetBaseUrlWarning({ ...unset, HOST: '127.0.0.1' })).toBeNull()
    expect(
      unsetBaseUrlWarning({ BASE_URL: 'https://maps.example.com', baseUrlDefaulted: false, HOST: '0.0.0.0' }),
    ).toBeNull()
  })
})
