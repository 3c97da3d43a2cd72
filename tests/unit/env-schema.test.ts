import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/domain/env-schema'

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
  })

  it('derives BASE_URL from PORT and strips a trailing slash', () => {
    const a = parseEnv({ PORT: '8080' })
    expect(a.ok && a.env.BASE_URL).toBe('http://localhost:8080')
    const b = parseEnv({ BASE_URL: 'https://maps.example.com/' })
    expect(b.ok && b.env.BASE_URL).toBe('https://maps.example.com')
  })

  it('treats empty values as unset', () => {
    const result = parseEnv({ PORT: '', SMTP_URL: '  ' })
    expect(result.ok && result.env.PORT).toBe(3000)
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
    const result = parseEnv({ TRIAL_DAYS: '0', SMTP_URL: 'smtps://user:pass@mail.example.com:465', APP_MODE: 'hosted' })
    expect(result.ok && result.env.TRIAL_DAYS).toBe(0)
  })
})
