import { Webhook } from 'standardwebhooks'
import { describe, expect, it } from 'vitest'
import {
  checkUrlForm,
  createWebhookSchema,
  endpointWants,
  eventTypeOf,
  failedTooLong,
  payloadJson,
  retryDelayMs,
} from '~/features/automation/webhooks'
import { isPrivateAddress } from '~/features/automation/webhook-address.server'
import { signedHeaders } from '~/features/automation/webhook-sender.server'

describe('webhook URLs', () => {
  it('takes https, and http only when allowed; anything else is url_invalid', () => {
    expect(checkUrlForm('https://hooks.example.com/x', false).ok).toBe(true)
    expect(checkUrlForm('http://hooks.example.com/x', false)).toMatchObject({
      ok: false,
      code: 'url_not_allowed',
    })
    expect(checkUrlForm('http://hooks.example.com/x', true).ok).toBe(true)
    expect(checkUrlForm('ftp://hooks.example.com/x', true)).toMatchObject({ ok: false, code: 'url_invalid' })
    expect(checkUrlForm('not a url', true)).toMatchObject({ ok: false, code: 'url_invalid' })
    expect(checkUrlForm('https://user:pw@example.com/', true)).toMatchObject({
      ok: false,
      code: 'url_invalid',
    })
  })

  it('knows loopback, private, link-local and mapped addresses from public ones', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::5',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ])
      expect(isPrivateAddress(a), a).toBe(true)
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1'])
      expect(isPrivateAddress(a), a).toBe(false)
  })
})

describe('which endpoint gets which change', () => {
  it('calls comments alone `comment`, anything touching the project `project`, the rest `change`', () => {
    expect(eventTypeOf(['featureComment'])).toBe('comment')
    expect(eventTypeOf(['feature', 'featureComment'])).toBe('change')
    expect(eventTypeOf(['project', 'milestone'])).toBe('project')
    expect(eventTypeOf(['persona'])).toBe('change')
  })

  it('filters by project, events and disabled', () => {
    const all = { projectId: null, events: ['change'], disabledAt: null }
    expect(endpointWants(all, 'p1', 'change')).toBe(true)
    expect(endpointWants(all, 'p1', 'comment')).toBe(false)
    expect(endpointWants({ ...all, projectId: 'p2' }, 'p1', 'change')).toBe(false)
    expect(endpointWants({ ...all, disabledAt: 'x' }, 'p1', 'change')).toBe(false)
  })

  it('parses events into a set in a fixed order and refuses none', () => {
    expect(
      createWebhookSchema.parse({ url: 'https://x.test', events: ['project', 'change', 'change'] }).events,
    ).toEqual(['change', 'project'])
    expect(createWebhookSchema.safeParse({ url: 'https://x.test', events: [] }).success).toBe(false)
    expect(createWebhookSchema.safeParse({ url: 'https://x.test', events: ['moved'] }).success).toBe(false)
  })
})

describe('payload, signature, back-off', () => {
  it('puts type, workspace and project before the event fields', () => {
    const body = payloadJson('change', 'w', 'p', '{"version":3,"at":"t","by":{},"changes":[],"summary":"s"}')
    expect(JSON.parse(body)).toEqual({
      type: 'change',
      workspaceId: 'w',
      projectId: 'p',
      version: 3,
      at: 't',
      by: {},
      changes: [],
      summary: 's',
    })
  })

  it('signs so that the standardwebhooks verifier accepts it', () => {
    const secret = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')
    const payload = '{"type":"ping"}'
    const headers = signedHeaders({ url: 'https://x.test', secret, id: 'msg_1', payload }, new Date())
    expect(headers['webhook-signature']).toMatch(/^v1,/)
    expect(headers['user-agent']).toMatch(/^Storymap-Webhooks\//)
    expect(new Webhook(secret).verify(payload, headers)).toEqual({ type: 'ping' })
  })

  it('backs off about 10 s, 1 min, 10 min, 1 h, 6 h, and gives up after 24 h (both scaled)', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => retryDelayMs(n))).toEqual([
      10_000, 60_000, 600_000, 3_600_000, 21_600_000, 21_600_000, 21_600_000,
    ])
    expect(retryDelayMs(1, 0.001)).toBe(10)
    const since = '2026-01-01T00:00:00.000Z'
    expect(failedTooLong(since, new Date('2026-01-01T23:59:59.000Z'))).toBe(false)
    expect(failedTooLong(since, new Date('2026-01-02T00:00:00.000Z'))).toBe(true)
    expect(failedTooLong(since, new Date('2026-01-01T00:00:09.000Z'), 0.0001)).toBe(true)
  })
})
