import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/lib/env-schema'

describe('parseEnv', () => {
  it('applies every documented default', () => {
    const result = parseEnv({})
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.env).toMatchObject({
      PORT: 3000,
      DATABASE_PATH: './data/storymap.db',
      BASE_URL: 'http://localhost:3000',
      APP_MODE: 'selfhosted',
      TRIAL_DAYS: 14,
      SIGNUP: 'open',
      MAIL_FROM: 'Storymap <no-reply@localhost>',
      TEAM_PLAN_PRICE: 9,
      BUSINESS_PLAN_PRICE: 19,
      RATE_LIMIT: 'on',
    })
    expect(result.env.HOST).toBeUndefined()
    expect(result.env.SESSION_SECRET).toBeUndefined()
    expect(result.env.METRICS_TOKEN).toBeUndefined() // no /metrics endpoint
  })

  it('derives BASE_URL from PORT and strips a trailing slash', () => {
    const a = parseEnv({ PORT: '8080' })
    expect(a.ok && a.env.BASE_URL).toBe('http://localhost:8080')
    const b = parseEnv({ BASE_URL: 'https://maps.example.com/' })
    expect(b.ok && b.env.BASE_URL).toBe('https://maps.example.com')
    expect([a.ok && a.env.baseUrlDefaulted, b.ok && b.env.baseUrlDefaulted]).toEqual([true, false])
  })

  it('treats empty values as unset', () => {
    const result = parseEnv({ PORT: '', SMTP_URL: '  ', METRICS_TOKEN: ' ' })
    expect(result.ok && result.env.PORT).toBe(3000)
    expect(result.ok && result.env.METRICS_TOKEN).toBeUndefined()
  })

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_MODE', 'cloud'],
    ['TRIAL_DAYS', '-3'],
    ['TRIAL_DAYS', '1.5'],
    ['SIGNUP', 'closed'],
    ['SMTP_URL', 'http://mail.example.com'],
    ['BASE_URL', 'ftp://example.com'],
    ['CONTACT_EMAIL', 'not-an-address'],
    ['RATE_LIMIT', 'maybe'],
    ['SESSION_SECRET', 'short'],
    ['TEAM_PLAN_PRICE', '0'],
  ])('refuses %s=%s with a one-line message naming it', (name, value) => {
    const result = parseEnv({ [name]: value })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toContain(name)
    expect(result.message).not.toContain('\n')
  })

  it('accepts TRIAL_DAYS=0 and smtps URLs', () => {
    const result = parseEnv({
      TRIAL_DAYS: '0',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      APP_MODE: 'hosted',
    })
    expect(result.ok && result.env.TRIAL_DAYS).toBe(0)
  })
})

describe('parseEnv: single sign-on (CONTRACT §11)', () => {
  const sso = {
    OIDC_ISSUER: 'https://idp.example.com/realms/team',
    OIDC_CLIENT_ID: 'storymap',
    OIDC_CLIENT_SECRET: 's3cret',
  }

  it('is off by default, with the documented defaults for the button and the scopes', () => {
    const result = parseEnv({})
    expect(result.ok && result.env).toMatchObject({
      OIDC_NAME: 'SSO',
      OIDC_SCOPES: 'openid email profile',
      OIDC_ONLY: false,
    })
    expect(result.ok && result.env.OIDC_ISSUER).toBeUndefined()
  })

  it('accepts the issuer, client id and secret together, a name, scopes and OIDC_ONLY', () => {
    const result = parseEnv({
      ...sso,
      OIDC_NAME: 'Keycloak',
      OIDC_SCOPES: ' openid  email ',
      OIDC_ONLY: 'true',
    })
    expect(result.ok && result.env).toMatchObject({
      ...sso,
      OIDC_NAME: 'Keycloak',
      OIDC_SCOPES: 'openid email',
      OIDC_ONLY: true,
    })
  })

  it.each([
    [{ OIDC_ISSUER: sso.OIDC_ISSUER }, 'OIDC_CLIENT_ID'],
    [{ OIDC_ISSUER: sso.OIDC_ISSUER, OIDC_CLIENT_ID: 'storymap' }, 'OIDC_CLIENT_SECRET'],
    [{ OIDC_CLIENT_ID: 'storymap', OIDC_CLIENT_SECRET: 'x' }, 'OIDC_ISSUER'],
    [{ ...sso, OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER'],
    [{ ...sso, OIDC_ISSUER: 'ftp://idp.example.com' }, 'OIDC_ISSUER'],
    [{ ...sso, OIDC_SCOPES: 'email profile' }, 'OIDC_SCOPES'],
    [{ ...sso, OIDC_ONLY: 'yes' }, 'OIDC_ONLY'],
    [{ OIDC_ONLY: 'true' }, 'OIDC_ONLY'],
  ])('refuses %j with a one-line message naming %s', (raw, name) => {
    const result = parseEnv(raw)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toContain(name)
    expect(result.message).not.toContain('\n')
  })
})

describe('parseEnv: GitLab and Jira sync (CONTRACT §2, §14)', () => {
  it('polls every 60 s, refuses http:// trackers, and allows private addresses only when self-hosted', () => {
    const selfhosted = parseEnv({})
    expect(selfhosted.ok && selfhosted.env).toMatchObject({
      TRACKER_POLL_SECONDS: 60,
      TRACKER_ALLOW_HTTP: false,
      TRACKER_ALLOW_PRIVATE: true,
    })
    const hosted = parseEnv({ APP_MODE: 'hosted' })
    expect(hosted.ok && hosted.env.TRACKER_ALLOW_PRIVATE).toBe(false)
  })

  it('takes the values given, whatever the mode', () => {
    const result = parseEnv({
      APP_MODE: 'hosted',
      TRACKER_POLL_SECONDS: '1',
      TRACKER_ALLOW_HTTP: 'true',
      TRACKER_ALLOW_PRIVATE: 'true',
    })
    expect(result.ok && result.env).toMatchObject({
      TRACKER_POLL_SECONDS: 1,
      TRACKER_ALLOW_HTTP: true,
      TRACKER_ALLOW_PRIVATE: true,
    })
    const selfhosted = parseEnv({ TRACKER_ALLOW_PRIVATE: 'false' })
    expect(selfhosted.ok && selfhosted.env.TRACKER_ALLOW_PRIVATE).toBe(false)
  })

  it.each([
    ['TRACKER_POLL_SECONDS', '0'],
    ['TRACKER_POLL_SECONDS', '1.5'],
    ['TRACKER_POLL_SECONDS', 'often'],
    ['TRACKER_ALLOW_HTTP', 'yes'],
    ['TRACKER_ALLOW_PRIVATE', '1'],
  ])('refuses %s=%s with a one-line message naming it', (name, value) => {
    const result = parseEnv({ [name]: value })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toContain(name)
    expect(result.message).not.toContain('\n')
  })
})
