import { describe, expect, it } from 'vitest'
import {
  authorLabel,
  createTokenSchema,
  expiresAtFor,
  isExpired,
  lastUsedIsStale,
  readBearer,
  tokenInQuery,
  tokenRefusal,
} from '~/features/automation/api-tokens'

const secret = `smp_${'a1B2'.repeat(10)}`

describe('readBearer', () => {
  it('finds a well-formed bearer secret, in any case of the scheme', () => {
    expect(readBearer(`Bearer ${secret}`)).toEqual({ kind: 'token', secret })
    expect(readBearer(`bearer   ${secret} `)).toEqual({ kind: 'token', secret })
  })
  it('tells no header from a malformed one', () => {
    expect(readBearer(null)).toEqual({ kind: 'none' })
    for (const header of [
      '',
      'Bearer',
      'Bearer ',
      'Bearer smp_short',
      `Basic ${secret}`,
      `Bearer ${secret} extra`,
      `Bearer smp_${'é'.repeat(40)}`,
    ])
      expect(readBearer(header), header).toEqual({ kind: 'malformed' })
  })
})

describe('tokenRefusal', () => {
  it('keeps account, sign-in, workspace deletion and token management to sessions', () => {
    for (const [method, path] of [
      ['GET', '/v1/account/app'],
      ['POST', '/v1/account/tokens'],
      ['DELETE', '/v1/account/tokens/x'],
      ['POST', '/v1/users/login'],
      ['POST', '/v1/delete'],
      ['GET', '/v1/workspace/tokens'],
      ['DELETE', '/v1/workspace/tokens/x'],
    ])
      expect(tokenRefusal(method, path, 'write')?.code, path).toBe('token_not_allowed')
    expect(tokenRefusal('POST', '/v1/users/contact', 'write')).toBeNull()
  })
  it('lets a read token only read', () => {
    expect(tokenRefusal('GET', '/v1/projects', 'read')).toBeNull()
    expect(tokenRefusal('HEAD', '/v1/projects', 'read')).toBeNull()
    expect(tokenRefusal('POST', '/v1/features/x/rename', 'read')?.code).toBe('token_read_only')
    expect(tokenRefusal('DELETE', '/v1/features/x', 'read')?.code).toBe('token_read_only')
    expect(tokenRefusal('POST', '/v1/features/x/rename', 'write')).toBeNull()
  })
})

describe('lifetime', () => {
  const now = new Date('2026-11-25T10:00:00.000Z')
  it('expires after the days asked for, or never', () => {
    expect(expiresAtFor(now, 7)).toBe('2026-12-02T10:00:00.000Z')
    expect(expiresAtFor(now, null)).toBeNull()
    expect(isExpired('2026-11-25T10:00:00.000Z', now)).toBe(true)
    expect(isExpired('2026-11-25T10:00:01.000Z', now)).toBe(false)
    expect(isExpired(null, now)).toBe(false)
  })
  it('writes the last use at most once a minute', () => {
    expect(lastUsedIsStale(null, now)).toBe(true)
    expect(lastUsedIsStale('2026-11-25T09:59:30.000Z', now)).toBe(false)
    expect(lastUsedIsStale('2026-11-25T09:59:00.000Z', now)).toBe(true)
  })
})

describe('the rest', () => {
  it('refuses a token in the query string', () => {
    expect(tokenInQuery(new URLSearchParams(`access_token=x`))).toBe(true)
    expect(tokenInQuery(new URLSearchParams(`q=${secret}`))).toBe(true)
    expect(tokenInQuery(new URLSearchParams('q=small+maps'))).toBe(false)
  })
  it('validates a new token', () => {
    const workspaceId = '3f1c2b8e-8a0b-4d6c-9d1e-2f3a4b5c6d7e'
    expect(createTokenSchema.safeParse({ name: ' CI ', workspaceId, scope: 'read' }).data).toEqual({
      name: 'CI',
      workspaceId,
      scope: 'read',
    })
    expect(
      createTokenSchema.safeParse({ name: 'CI', workspaceId, scope: 'read', expiresInDays: 0 }).success,
    ).toBe(false)
    expect(
      createTokenSchema.safeParse({ name: 'CI', workspaceId, scope: 'read', expiresInDays: 1.5 }).success,
    ).toBe(false)
    expect(createTokenSchema.safeParse({ name: 'x'.repeat(101), workspaceId, scope: 'write' }).success).toBe(
      false,
    )
  })
  it('names the author with the token', () => {
    expect(authorLabel({ name: 'Ana', via: 'CI sync' })).toBe('Ana via CI sync')
    expect(authorLabel({ name: 'Ana' })).toBe('Ana')
  })
})
