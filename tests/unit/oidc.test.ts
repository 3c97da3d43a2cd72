import { describe, expect, it } from 'vitest'
import {
  accountNameFor,
  decideSignIn,
  hasPassword,
  NO_PASSWORD,
  oidcTexts,
  readClaims,
  workspaceNameFor,
  type SignInFacts,
} from '~/features/accounts/oidc'

const facts = (
  over: Omit<Partial<SignInFacts>, 'claims'> & { claims?: Partial<SignInFacts['claims']> } = {},
): SignInFacts => ({
  linkedAccountId: null,
  accountIdByEmail: null,
  invited: false,
  signupOpen: true,
  ...over,
  claims: { sub: 'sub-1', email: 'Ann@Example.com', emailVerified: true, name: 'Ann', ...over.claims },
})

describe('oidcTexts (CONTRACT §11, word for word)', () => {
  it('names the provider in every text', () => {
    const t = oidcTexts('Keycloak')
    expect(t.button).toBe('Sign in with Keycloak')
    expect(t.failed).toBe('Sign-in with Keycloak failed. Try again.')
    expect(t.notVerified('a@b.c')).toBe('Sign-in with Keycloak failed: a@b.c is not verified.')
    expect(t.noAccount('a@b.c')).toBe('No account for a@b.c. Ask for an invitation.')
    expect(t.signedInAs('a@b.c')).toBe('Signed in with Keycloak as a@b.c')
  })
})

describe('decideSignIn', () => {
  it('signs in the account linked to the subject, whatever the e-mail says', () => {
    expect(decideSignIn(facts({ linkedAccountId: 'acc-1', claims: { emailVerified: false } }))).toEqual({
      kind: 'signIn',
      accountId: 'acc-1',
    })
  })

  it('never links or creates on an unverified e-mail', () => {
    const decision = decideSignIn(
      facts({ accountIdByEmail: 'acc-2', invited: true, claims: { emailVerified: false } }),
    )
    expect(decision).toEqual({ kind: 'refuseUnverified', email: 'Ann@Example.com' })
  })

  it('links the account with the verified e-mail', () => {
    expect(decideSignIn(facts({ accountIdByEmail: 'acc-2', invited: true }))).toEqual({
      kind: 'link',
      accountId: 'acc-2',
      email: 'Ann@Example.com',
    })
  })

  it('creates an account through a pending invitation, even when sign-up is invite-only', () => {
    expect(decideSignIn(facts({ invited: true, signupOpen: false })).kind).toBe('createInvited')
  })

  it('creates an account with a first workspace when sign-up is open, else refuses', () => {
    expect(decideSignIn(facts()).kind).toBe('createWithWorkspace')
    expect(decideSignIn(facts({ signupOpen: false }))).toEqual({
      kind: 'refuseNoAccount',
      email: 'Ann@Example.com',
    })
  })

  it('fails without an e-mail', () => {
    expect(decideSignIn(facts({ claims: { email: undefined } }))).toEqual({ kind: 'fail' })
  })
})

describe('readClaims', () => {
  it('reads the ID token, and UserInfo only for the same subject', () => {
    expect(readClaims({ sub: 's', email: 'a@b.c', email_verified: true, name: ' Ann ' })).toEqual({
      sub: 's',
      email: 'a@b.c',
      emailVerified: true,
      name: 'Ann',
    })
    expect(readClaims({ sub: 's' }, { sub: 's', email: 'a@b.c', email_verified: 'true' })).toMatchObject({
      email: 'a@b.c',
      emailVerified: true,
    })
    expect(readClaims({ sub: 's' }, { sub: 'other', email: 'a@b.c', email_verified: true })).toMatchObject({
      email: undefined,
      emailVerified: false,
    })
  })

  it('counts only true as verified, and needs a subject', () => {
    expect(readClaims({ sub: 's', email: 'a@b.c', email_verified: 'yes' })?.emailVerified).toBe(false)
    expect(readClaims({ sub: 's', email: 'a@b.c' })?.emailVerified).toBe(false)
    expect(readClaims({ email: 'a@b.c' })).toBeNull()
  })
})

describe('new accounts', () => {
  it('take the name from the provider, else the local part', () => {
    expect(accountNameFor({ sub: 's', emailVerified: true, name: 'Ann Lee' }, 'ann@x.io')).toBe('Ann Lee')
    expect(accountNameFor({ sub: 's', emailVerified: true }, 'ann.lee@x.io')).toBe('ann.lee')
  })

  it('get a workspace named from the local part, made unique', () => {
    const taken = new Set(['janedoe', 'janedoe2'])
    expect(workspaceNameFor('Jane.Doe+maps@example.com', (n) => taken.has(n))).toBe('janedoe3')
    expect(workspaceNameFor('bob@example.com', () => false)).toBe('bob')
    expect(workspaceNameFor('x@example.com', () => false)).toBe('xworkspace')
    expect(workspaceNameFor('..@example.com', () => false)).toBe('workspace')
  })

  it('have no password', () => {
    expect(hasPassword(NO_PASSWORD)).toBe(false)
    expect(hasPassword('$argon2id$v=19$...')).toBe(true)
  })
})
