import { eq } from 'drizzle-orm'
import crypto from 'node:crypto'
import { getDb } from '~/lib/db/db.server'
import { accounts } from '~/lib/db/schema'
import { normalizeEmail } from '~/lib/email-address'
import { refuse } from '~/lib/errors'
import { hasPassword, oidcTexts, PASSWORD_LOGIN_DISABLED } from './oidc'
import { getEnv } from '~/lib/env.server'
import { hashPassword, verifyPassword } from './password.server'
import {
  insertWorkspace,
  isWorkspaceNameTaken,
  listAccountWorkspaces,
  publicSubscription,
  publicWorkspace,
} from '~/features/workspaces/index.server'
import { assertInvitedEmail, findLiveInvitation, joinByInvitation } from '~/features/workspaces/index.server'

export type Account = typeof accounts.$inferSelect

export function publicAccount(a: Account) {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    emailConfirmed: a.emailConfirmed,
    emailConfirmationPending: a.emailConfirmationPending,
    emailConfirmationSentTo: a.emailConfirmationSentTo,
  }
}

export { normalizeEmail }

export function findAccountByEmail(email: string): Account | undefined {
  return getDb()
    .select()
    .from(accounts)
    .where(eq(accounts.email, normalizeEmail(email)))
    .get()
}

export type SignupInput = {
  workspaceName?: string
  name: string
  email: string
  password: string
  invitation?: string
}

/** Where a new account starts: its own workspace, or the one whose invitation it came with. */
export type SignupResult = { account: Account; workspaceName: string; joined: boolean }

/**
 * Creates the account in one transaction, with either its own workspace (OWNER) and that
 * workspace's subscription, or, given an invitation code, a membership of the inviting
 * workspace only (any workspace name sent along is ignored). An invitation is for the address
 * it was sent to. With SIGNUP=invite-only the invitation is required.
 */
export async function signup(input: SignupInput, now = new Date()): Promise<SignupResult> {
  assertPasswordLoginAllowed()
  const env = getEnv()
  const db = getDb()
  const email = normalizeEmail(input.email)
  const invitation = input.invitation ? findLiveInvitation(db, input.invitation, now) : null
  if (env.SIGNUP === 'invite-only' && !invitation) {
    throw refuse.forbidden(
      'Sign-up is by invitation only. Ask a workspace admin to invite you.',
      'signup_closed',
    )
  }
  if (invitation) assertInvitedEmail(invitation, email)
  else if (!input.workspaceName)
    throw refuse.invalid('workspace_invalid', 'Workspace is invalid.', 'workspaceName')
  const workspaceName = invitation ? null : input.workspaceName
  // Checked before the slow hash; checked again inside the transaction.
  if (findAccountByEmail(email)) throw refuse.conflict('email_taken', 'Email is already registered.', 'email')
  if (workspaceName && isWorkspaceNameTaken(db, workspaceName)) {
    throw refuse.conflict('workspace_taken', 'Workspace name is already registered.', 'workspaceName')
  }
  const passwordHash = await hashPassword(input.password)
  return db.transaction(
    (tx) => {
      if (tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.email, email)).get()) {
        throw refuse.conflict('email_taken', 'Email is already registered.', 'email')
      }
      const account = tx
        .insert(accounts)
        .values({
          id: crypto.randomUUID(),
          name: input.name.trim(),
          email,
          passwordHash,
          emailConfirmationPending: true,
          emailConfirmationSentTo: email,
          createdAt: now.toISOString(),
        })
        .returning()
        .get()
      if (workspaceName) {
        insertWorkspace(tx, account.id, workspaceName, now)
        return { account, workspaceName, joined: false }
      }
      // Read again inside the transaction: the code may have been used or cancelled during the hash.
      const joined = joinByInvitation(tx, account, findLiveInvitation(tx, input.invitation ?? '', now), now)
      return { account, workspaceName: joined.workspaceName, joined: true }
    },
    { behavior: 'immediate' },
  )
}

/**
 * The account for these credentials, or null. Takes the same time whether or not the address
 * exists, or has a password (an account made by single sign-on has none).
 */
export async function verifyLogin(email: string, password: string): Promise<Account | null> {
  const account = findAccountByEmail(email)
  const hash = account && hasPassword(account.passwordHash) ? account.passwordHash : undefined
  const ok = await verifyPassword(hash, password)
  return ok && account ? account : null
}

/** With OIDC_ONLY on, password log-in and sign-up are refused (CONTRACT §11): 403 `password_login_disabled`. */
export function assertPasswordLoginAllowed() {
  const env = getEnv()
  if (env.OIDC_ONLY)
    throw refuse.forbidden(oidcTexts(env.OIDC_NAME).passwordLoginDisabled, PASSWORD_LOGIN_DISABLED)
}

/** GET /v1/account/app: everything the signed-in application needs to start. */
export function getAppState(account: Account) {
  const rows = listAccountWorkspaces(account.id)
  return {
    mode: getEnv().APP_MODE,
    account: publicAccount(account),
    workspaces: rows.map((r) => publicWorkspace(r.workspace)),
    memberships: rows.map((r) => ({
      id: r.member.id,
      accountId: account.id,
      workspaceId: r.workspace.id,
      name: account.name,
      email: account.email,
      level: r.member.level,
      createdAt: r.member.createdAt,
    })),
    subscriptions: rows.map((r) => publicSubscription(r.subscription)),
  }
}
