import { parseWithZod } from '@conform-to/zod/v4'
import { describe, expect, it } from 'vitest'
import { createWorkspaceSchema, loginSchema, signupSchema } from '~/lib/validation'

function errorsOf(schema: Parameters<typeof parseWithZod>[1]['schema'], fields: Record<string, string>) {
  const formData = new FormData()
  for (const [k, v] of Object.entries(fields)) formData.set(k, v)
  const submission = parseWithZod(formData, { schema })
  return submission.status === 'success' ? {} : (submission.reply().error ?? {})
}

describe('log-in form (SPEC §5)', () => {
  it('requires both fields with SPEC texts', () => {
    expect(errorsOf(loginSchema, { email: '', password: '' })).toEqual({
      email: ['Email required.'],
      password: ['Password required.'],
    })
  })
  it('checks the address and the password length', () => {
    expect(errorsOf(loginSchema, { email: 'nope', password: '12345' })).toEqual({
      email: ['Email invalid.'],
      password: ['Password minimum 6 characters.'],
    })
    expect(errorsOf(loginSchema, { email: 'a@b.co', password: 'x'.repeat(201) })).toEqual({
      password: ['Password maximum 200 characters.'],
    })
    expect(errorsOf(loginSchema, { email: 'a@b.co', password: 'x'.repeat(200) })).toEqual({})
  })
})

describe('sign-up form (SPEC §5)', () => {
  const ok = { workspaceName: 'acme2', name: 'Ann', email: 'ann@example.com', password: 'secret' }
  it('accepts a valid form', () => {
    expect(errorsOf(signupSchema, ok)).toEqual({})
  })
  it('says what is wrong with the workspace name', () => {
    expect(errorsOf(signupSchema, { ...ok, workspaceName: 'Acme' }).workspaceName).toEqual([
      'Lowercase alphanumerics only. Spaces not allowed.',
    ])
    expect(errorsOf(signupSchema, { ...ok, workspaceName: 'my team' }).workspaceName).toEqual([
      'Lowercase alphanumerics only. Spaces not allowed.',
    ])
    expect(errorsOf(signupSchema, { ...ok, workspaceName: 'a' }).workspaceName).toEqual([
      'Minimum 2 characters.',
    ])
    expect(errorsOf(signupSchema, { ...ok, workspaceName: 'a'.repeat(201) }).workspaceName).toEqual([
      'Maximum 200 characters.',
    ])
    expect(errorsOf(signupSchema, { ...ok, workspaceName: '' }).workspaceName).toEqual(['Required.'])
  })
  it('uses the sign-up texts for the other fields', () => {
    expect(errorsOf(signupSchema, { ...ok, name: '', email: '', password: '' })).toEqual({
      name: ['Required.'],
      email: ['Required.'],
      password: ['Required.'],
    })
    expect(errorsOf(signupSchema, { ...ok, email: 'x@', password: '123' })).toEqual({
      email: ['Invalid email address.'],
      password: ['Minimum 6 characters.'],
    })
    expect(errorsOf(signupSchema, { ...ok, name: 'n'.repeat(201) })).toEqual({
      name: ['Maximum 200 characters.'],
    })
  })
  it('needs no workspace name through an invitation, and says Required. beside the other errors without one', () => {
    const { workspaceName: _workspaceName, ...invited } = ok
    expect(errorsOf(signupSchema, { ...invited, invitation: 'CODE' })).toEqual({})
    expect(errorsOf(signupSchema, { ...invited, name: '' })).toEqual({
      workspaceName: ['Required.'],
      name: ['Required.'],
    })
  })
})

describe('create-workspace form', () => {
  it('has the workspace name rules', () => {
    expect(errorsOf(createWorkspaceSchema, { name: '' })).toEqual({ name: ['Required.'] })
    expect(errorsOf(createWorkspaceSchema, { name: 'x' })).toEqual({ name: ['Minimum 2 characters.'] })
    expect(errorsOf(createWorkspaceSchema, { name: 'team42' })).toEqual({})
  })
})
