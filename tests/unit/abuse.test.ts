import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  emailKey,
  honeypotFilled,
  LIMIT_POLICIES,
  limitedRequestOf,
  normalizePath,
  tooManyMessage,
} from '~/http/abuse'
import { redactPath } from '~/lib/log-redaction'

describe('limitedRequestOf', () => {
  it('limits the five actions on the API and on their pages', () => {
    expect(limitedRequestOf('POST', '/v1/users/login')).toMatchObject({
      action: 'login',
      surface: 'api',
      accountField: 'email',
    })
    expect(limitedRequestOf('POST', '/account/login')).toMatchObject({ action: 'login', surface: 'form' })
    expect(limitedRequestOf('POST', '/v1/users/signup')).toMatchObject({ action: 'signup', surface: 'api' })
    expect(limitedRequestOf('POST', '/account/signup?invitation=x')).toMatchObject({
      action: 'signup',
      surface: 'form',
    })
    expect(limitedRequestOf('POST', '/v1/users/reset/Ann%40Example.com')).toMatchObject({
      action: 'reset',
      surface: 'api',
      accountFromPath: 'ann@example.com',
    })
    expect(limitedRequestOf('POST', '/account/reset?index')).toMatchObject({
      action: 'reset',
      surface: 'form',
    })
    expect(limitedRequestOf('POST', '/v1/users/contact')).toMatchObject({
      action: 'contact',
      accountField: 'sender',
    })
    expect(limitedRequestOf('POST', '/account/contact')).toMatchObject({ action: 'contact', surface: 'form' })
    expect(limitedRequestOf('POST', '/v1/invites')).toMatchObject({
      action: 'invite',
      accountFromSession: true,
    })
    expect(limitedRequestOf('POST', '/v1/invites/0b7c/resend')).toMatchObject({
      action: 'invite',
      surface: 'api',
    })
    expect(limitedRequestOf('POST', '/acme/settings')).toMatchObject({
      action: 'invite',
      surface: 'form',
      intents: ['invite', 'resendInvite'],
    })
  })

  it('matches every spelling the router accepts: case, trailing slash, dot segments, escapes, .data', () => {
    for (const path of [
      '/ACCOUNT/Login',
      '/account/login/',
      '/x/../account/login',
      '/./account/login',
      '/account/%6Cogin',
      '/account/login.data',
      '//account//login',
      '/V1/Users/Login',
    ]) {
      expect([path, limitedRequestOf('POST', path)?.action]).toEqual([path, 'login'])
    }
  })

  it('leaves other requests alone', () => {
    expect(limitedRequestOf('GET', '/account/login')).toBeNull()
    expect(limitedRequestOf('POST', '/account/reset/some-key')).toBeNull()
    expect(limitedRequestOf('POST', '/account/settings')).toBeNull()
    expect(limitedRequestOf('POST', '/v1/invites/x')).toBeNull()
    expect(limitedRequestOf('DELETE', '/v1/invites/x')).toBeNull()
    expect(limitedRequestOf('POST', '/v1/projects/x')).toBeNull()
  })

  it('never throws, whatever the path', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('GET', 'POST', 'PUT'), (path, method) => {
        limitedRequestOf(method, path)
        expect(normalizePath(path).startsWith('/')).toBe(true)
      }),
    )
  })
})

describe('keys, messages and the honeypot', () => {
  it('keys an account by its address as typed, in one case', () => {
    expect(emailKey(' Ann@Example.COM ')).toBe('email:ann@example.com')
    expect(emailKey('')).toBeNull()
    expect(emailKey(42)).toBeNull()
    expect(emailKey('x'.repeat(400))).toBeNull()
  })

  it('says when to come back', () => {
    expect(tooManyMessage(900)).toBe('Too many attempts. Please try again in 15 minutes.')
    expect(tooManyMessage(61)).toBe('Too many attempts. Please try again in 2 minutes.')
    expect(tooManyMessage(5)).toBe('Too many attempts. Please try again in a minute.')
  })

  it('policies: a window and limits per IP above those per account', () => {
    for (const policy of Object.values(LIMIT_POLICIES)) {
      expect(policy.windowMs).toBeGreaterThan(0)
      expect(policy.perIp).toBeGreaterThan(policy.perAccount)
    }
  })

  it('a honeypot is filled by any value, empty or absent when left alone', () => {
    expect(honeypotFilled(null)).toBe(false)
    expect(honeypotFilled('')).toBe(false)
    expect(honeypotFilled('http://spam.example')).toBe(true)
  })
})

describe('redactPath', () => {
  it('hides keys, codes and addresses in paths', () => {
    expect(redactPath('/account/reset/abcDEF123')).toBe('/account/reset/:key')
    expect(redactPath('/account/verify/abc.data')).toBe('/account/verify/:key')
    expect(redactPath('/account/invitation/abc')).toBe('/account/invitation/:key')
    expect(redactPath('/v1/users/verify/abc')).toBe('/v1/users/verify/:key')
    expect(redactPath('/v1/users/invite/abc')).toBe('/v1/users/invite/:key')
    expect(redactPath('/v1/users/reset/ann@example.com')).toBe('/v1/users/reset/:email')
    expect(redactPath('/v1/account/emailupdate/ann@example.com')).toBe('/v1/account/emailupdate/:email')
    expect(redactPath('/link/k3y/f/123')).toBe('/link/:key/f/123')
    expect(redactPath('/v1/link/k3y')).toBe('/v1/link/:key')
    expect(redactPath('//ACCOUNT/Reset/k3y?x=1')).toBe('/ACCOUNT/Reset/:key')
  })

  it('keeps other paths', () => {
    expect(redactPath('/account/reset')).toBe('/account/reset')
    expect(redactPath('/v1/projects/0b7c')).toBe('/v1/projects/0b7c')
  })
})
