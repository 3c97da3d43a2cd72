import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/lib/env-schema'

describe('parseEnv: the assistant (CONTRACT §2, §16)', () => {
  it('is off by default, with a 60-second wait', () => {
    const result = parseEnv({})
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.env.AI_BASE_URL).toBeUndefined()
    expect(result.env.AI_API_KEY).toBeUndefined()
    expect(result.env.AI_MODEL).toBeUndefined()
    expect(result.env.AI_TIMEOUT_SECONDS).toBe(60)
  })

  it('accepts an address with a model, with or without a key, and strips a trailing slash', () => {
    const local = parseEnv({ AI_BASE_URL: 'http://localhost:11434/v1/', AI_MODEL: 'llama3.1' })
    expect(local.ok && local.env).toMatchObject({
      AI_BASE_URL: 'http://localhost:11434/v1',
      AI_MODEL: 'llama3.1',
    })
    expect(local.ok && local.env.AI_API_KEY).toBeUndefined()
    const hosted = parseEnv({
      AI_BASE_URL: 'https://api.openai.com/v1',
      AI_MODEL: 'gpt-4o-mini',
      AI_API_KEY: 'sk-test',
      AI_TIMEOUT_SECONDS: '90',
    })
    expect(hosted.ok && hosted.env).toMatchObject({ AI_API_KEY: 'sk-test', AI_TIMEOUT_SECONDS: 90 })
  })

  it('treats empty values as unset', () => {
    const result = parseEnv({ AI_BASE_URL: ' ', AI_MODEL: '', AI_TIMEOUT_SECONDS: '' })
    expect(result.ok && result.env.AI_BASE_URL).toBeUndefined()
    expect(result.ok && result.env.AI_TIMEOUT_SECONDS).toBe(60)
  })

  it.each([
    [{ AI_BASE_URL: 'http://localhost:11434/v1' }, 'AI_MODEL'],
    [{ AI_BASE_URL: 'http://localhost:11434/v1', AI_API_KEY: 'sk-test' }, 'AI_MODEL'],
    [{ AI_MODEL: 'llama3.1' }, 'AI_BASE_URL'],
    [{ AI_API_KEY: 'sk-test' }, 'AI_BASE_URL'],
    [{ AI_BASE_URL: 'not a url', AI_MODEL: 'm' }, 'AI_BASE_URL'],
    [{ AI_BASE_URL: 'ftp://models.example.com/v1', AI_MODEL: 'm' }, 'AI_BASE_URL'],
    [{ AI_TIMEOUT_SECONDS: '0' }, 'AI_TIMEOUT_SECONDS'],
    [{ AI_TIMEOUT_SECONDS: 'soon' }, 'AI_TIMEOUT_SECONDS'],
    [{ AI_TIMEOUT_SECONDS: '-5' }, 'AI_TIMEOUT_SECONDS'],
  ])('refuses %j with a one-line message naming %s', (raw, name) => {
    const result = parseEnv(raw)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toMatch(new RegExp(`^Invalid environment variable ${name}=`))
    expect(result.message).not.toContain('\n')
  })

  it('never prints the key when it is set without an address', () => {
    const result = parseEnv({ AI_API_KEY: 'sk-secret-value' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toBe(
      'Invalid environment variable AI_BASE_URL=(unset): must be set when AI_API_KEY is set',
    )
  })
})
