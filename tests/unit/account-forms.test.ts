import { beforeAll, describe, expect, it } from 'vitest'
import {
  contactSchema,
  emailChangeSchema,
  resetRequestSchema,
  setPasswordSchema,
} from '~/features/accounts/account-forms'
import { inviteSchema, levelChangeSchema } from '~/features/workspaces/workspace-forms'

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0].message

describe('account form schemas (SPEC §5 texts)', () => {
  it('reset request', () => {
    expect(firstMessage(resetRequestSchema.safeParse({}))).toBe('Email required.')
    expect(firstMessage(resetRequestSchema.safeParse({ email: 'x' }))).toBe('Email invalid.')
    expect(resetRequestSchema.parse({ email: ' a@b.co ' })).toEqual({ email: 'a@b.co' })
  })
  it('new password', () => {
    expect(firstMessage(setPasswordSchema.safeParse({ key: 'k' }))).toBe('Password required.')
    expect(firstMessage(setPasswordSchema.safeParse({ key: 'k', password: '12345' }))).toBe(
      'Password minimum 6 characters.',
    )
    expect(firstMessage(setPasswordSchema.safeParse({ key: 'k', password: 'x'.repeat(201) }))).toBe(
      'Password maximum 200 characters.',
    )
  })
  it('email change', () => {
    expect(firstMessage(emailChangeSchema.safeParse({}))).toBe('Required.')
    expect(firstMessage(emailChangeSchema.safeParse({ email: 'nope' }))).toBe('Invalid email address.')
  })
  it('contact: topic defaults to general, body 1..10000, sender an email', () => {
    expect(contactSchema.parse({ body: 'hi', sender: 'a@b.co' }).topic).toBe('general')
    expect(contactSchema.safeParse({ topic: 'other', body: 'hi', sender: 'a@b.co' }).success).toBe(false)
    expect(firstMessage(contactSchema.safeParse({ body: '', sender: 'a@b.co' }))).toBe('Minimum 1 character.')
    expect(firstMessage(contactSchema.safeParse({ body: 'x'.repeat(10001), sender: 'a@b.co' }))).toBe(
      'Maximum 10000 characters.',
    )
    expect(firstMessage(contactSchema.safeParse({ body: 'x', sender: 'a' }))).toBe('Invalid email address.')
  })
  it('invite: email "Invalid." and required, level defaults to VIEWER', () => {
    expect(inviteSchema.parse({ email: 'a@b.co' }).level).toBe('VIEWER')
    expect(firstMessage(inviteSchema.safeParse({ email: 'x', level: 'VIEWER' }))).toBe('Invalid.')
    expect(firstMessage(inviteSchema.safeParse({ level: 'VIEWER' }))).toBe('Required.')
    expect(inviteSchema.safeParse({ email: 'a@b.co', level: 'ROOT' }).success).toBe(false)
  })
  it('role change needs a level', () => {
    expect(firstMessage(levelChangeSchema.safeParse({}))).toBe('Required.')
    expect(levelChangeSchema.parse({ level: 'ADMIN' })).toEqual({ level: 'ADMIN' })
  })
})

describe('e-mail messages', () => {
  beforeAll(() => {
    process.env.BASE_URL = 'https://storymap.example'
    process.env.SESSION_SECRET = 'unit-test-secret-unit-test-secret'
  })

  it('carry absolute links and escape user strings in HTML only', async () => {
    const { invitationMessage, verifyEmailMessage, resetPasswordMessage } =
      await import('~/features/notifications/email-messages.server')
    const invite = invitationMessage('a@b.co', '<i>Eve</i> & co', 'acme', 'EDITOR', 'CODE123')
    expect(invite.text).toContain('https://storymap.example/account/invitation/CODE123')
    expect(invite.text).toContain('<i>Eve</i> & co')
    expect(invite.html).toContain('&lt;i&gt;Eve&lt;/i&gt; &amp; co')
    expect(invite.html).not.toContain('<i>Eve</i>')
    expect(verifyEmailMessage('a@b.co', 'Ann', 'KEY').text).toContain(
      'https://storymap.example/account/verify/KEY',
    )
    expect(resetPasswordMessage('a@b.co', 'Ann', 'KEY').text).toContain(
      'https://storymap.example/account/reset/KEY',
    )
  })
})
