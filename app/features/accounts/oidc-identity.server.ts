import { and, desc, eq, gt } from 'drizzle-orm'
import crypto from 'node:crypto'
import { getDb } from '~/lib/db/db.server'
import { accounts, invites, oidcIdentities, workspaces } from '~/lib/db/schema'
import { normalizeEmail } from '~/lib/email-address'
import { refuse } from '~/lib/errors'
import {
  accountNameFor,
  decideSignIn,
  hasPassword,
  NO_PASSWORD,
  workspaceNameFor,
  type ProviderClaims,
} from './oidc'
import { getEnv } from '~/lib/env.server'
import type { Tx } from '~/features/map/entities.server'
import { joinByInvitation, type LiveInvitation } from '~/features/workspaces/index.server'
import { destroyAllSessions } from './session.server'
import { insertWorkspace, isWorkspaceNameTaken } from '~/features/workspaces/index.server'

/** Where a sign-in with the provider ends: an account to sign in and the page to land on, or a refusal. */
export type ProviderSignIn =
  | { ok: true; accountId: string; landing: string | null; message?: string }
  | { ok: false; refusal: 'unverified' | 'noAccount' | 'failed'; email?: string }

/** The newest pending invitation for an address, with its workspace's name. */
function liveInvitationFor(tx: Tx, email: string, now: Date): LiveInvitation | null {
  return (
    tx
      .select({ invite: invites, workspaceName: workspaces.name })
      .from(invites)
      .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
      .where(and(eq(invites.email, email), gt(invites.expiresAt, now.toISOString())))
      .orderBy(desc(invites.createdAt))
      .get() ?? null
  )
}

/** Links (or re-links, when the provider's subject for this account changed) the identity to an account. */
function link(tx: Tx, issuer: string, claims: ProviderClaims, accountId: string, email: string, now: Date) {
  tx.delete(oidcIdentities)
    .where(and(eq(oidcIdentities.accountId, accountId), eq(oidcIdentities.issuer, issuer)))
    .run()
  tx.insert(oidcIdentities)
    .values({ issuer, subject: claims.sub, accountId, email, createdAt: now.toISOString() })
    .run()
}

function insertAccount(tx: Tx, claims: ProviderClaims, email: string, now: Date) {
  return tx
    .insert(accounts)
    .values({
      id: crypto.randomUUID(),
      name: accountNameFor(claims, email),
      email,
      passwordHash: NO_PASSWORD,
      emailConfirmed: true,
      emailConfirmationPending: false,
      emailConfirmationSentTo: '',
      createdAt: now.toISOString(),
    })
    .returning()
    .get()
}

/**
 * What a sign-in with these provider claims does (CONTRACT §11), in one transaction: sign in the
 * linked account, or link the account with the verified e-mail, or create one through a pending
 * invitation or open sign-up. A refusal changes nothing.
 */
export function signInWithProvider(issuer: string, claims: ProviderClaims, now = new Date()): ProviderSignIn {
  const env = getEnv()
  return getDb().transaction(
    (tx): ProviderSignIn => {
      const linked = tx
        .select({ accountId: oidcIdentities.accountId })
        .from(oidcIdentities)
        .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, claims.sub)))
        .get()
      const email = claims.email ? normalizeEmail(claims.email) : ''
      const byEmail = email ? tx.select().from(accounts).where(eq(accounts.email, email)).get() : undefined
      const invitation = email && claims.emailVerified ? liveInvitationFor(tx, email, now) : null
      const decision = decideSignIn({
        claims,
        linkedAccountId: linked?.accountId ?? null,
        accountIdByEmail: byEmail?.id ?? null,
        invited: invitation !== null,
        signupOpen: env.SIGNUP === 'open',
      })
      switch (decision.kind) {
        case 'signIn':
          // Keep the address the provider gives now, for account settings.
          if (email && claims.emailVerified)
            tx.update(oidcIdentities)
              .set({ email })
              .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, claims.sub)))
              .run()
          return { ok: true, accountId: decision.accountId, landing: null }
        case 'link': {
          const account = byEmail!
          link(tx, issuer, claims, account.id, email, now)
          if (!account.emailConfirmed) {
            // The provider has verified the address this account never confirmed. Whoever set the
            // account up without proving the address may not keep a way in beside its owner: the
            // password is dropped (a reset sets a new one) and every session ends.
            tx.update(accounts)
              .set({ emailConfirmed: true, passwordHash: NO_PASSWORD })
              .where(eq(accounts.id, account.id))
              .run()
            destroyAllSessions(account.id, tx)
          }
          return { ok: true, accountId: account.id, landing: null }
        }
        case 'createInvited': {
          const account = insertAccount(tx, claims, email, now)
          link(tx, issuer, claims, account.id, email, now)
          const joined = joinByInvitation(tx, account, invitation!, now)
          return {
            ok: true,
            accountId: account.id,
            landing: `/${joined.workspaceName}`,
            message: 'Invitation accepted.',
          }
        }
        case 'createWithWorkspace': {
          const account = insertAccount(tx, claims, email, now)
          link(tx, issuer, claims, account.id, email, now)
          const name = workspaceNameFor(email, (n) => isWorkspaceNameTaken(tx, n))
          insertWorkspace(tx, account.id, name, now)
          return { ok: true, accountId: account.id, landing: `/${name}` }
        }
        case 'refuseUnverified':
          return { ok: false, refusal: 'unverified', email: decision.email }
        case 'refuseNoAccount':
          return { ok: false, refusal: 'noAccount', email: decision.email }
        case 'fail':
          return { ok: false, refusal: 'failed' }
      }
    },
    { behavior: 'immediate' },
  )
}

/** The identity linked to an account for this issuer (account settings), or null. */
export function findLinkedIdentity(accountId: string, issuer: string) {
  return (
    getDb()
      .select({ email: oidcIdentities.email, createdAt: oidcIdentities.createdAt })
      .from(oidcIdentities)
      .where(and(eq(oidcIdentities.accountId, accountId), eq(oidcIdentities.issuer, issuer)))
      .get() ?? null
  )
}

/** Unlinks the account's identity; only an account with a password may, so it keeps a way in. */
export function unlinkIdentity(account: { id: string; passwordHash: string }, issuer: string) {
  if (!hasPassword(account.passwordHash))
    throw refuse.forbidden('Set a password before you unlink single sign-on.', 'password_required')
  const removed = getDb()
    .delete(oidcIdentities)
    .where(and(eq(oidcIdentities.accountId, account.id), eq(oidcIdentities.issuer, issuer)))
    .run()
  if (removed.changes === 0) throw refuse.notFound('No linked identity.')
}
