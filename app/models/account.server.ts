import { and, eq, gt } from 'drizzle-orm'
import crypto from 'node:crypto'
import { getDb } from '~/db/db.server'
import { accounts, invites, members } from '~/db/schema'
import { refuse } from '~/domain/errors'
import { getEnv } from '~/utils/env.server'
import { sha256 } from '~/utils/crypto.server'
import { hashPassword, verifyPassword } from '~/utils/password.server'
import {
  insertWorkspace,
  isWorkspaceNameTaken,
  listAccountWorkspaces,
  publicSubscription,
  publicWorkspace,
} from './workspace.server'

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

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

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

/**
 * Creates the account, its workspace (OWNER) and that workspace's subscription in one
 * transaction. With SIGNUP=invite-only a valid invitation code is required, and the new
 * account joins the inviting workspace.
 */
export async function signup(input: SignupInput, now = new Date()): Promise<Account> {
  const env = getEnv()
  const db = getDb()
  const email = normalizeEmail(input.email)
  const invite = input.invitation
    ? db
        .select()
        .from(invites)
        .where(and(eq(invites.codeHash, sha256(input.invitation)), gt(invites.expiresAt, now.toISOString())))
        .get()
    : undefined
  if (env.SIGNUP === 'invite-only' && !invite) {
    throw refuse.forbidden(
      'Sign-up is by invitation only. Ask a workspace admin to invite you.',
      'signup_closed',
    )
  }
  if (!invite && !input.workspaceName)
    throw refuse.invalid('workspace_invalid', 'Workspace is invalid.', 'workspaceName')
  // Checked before the slow hash; checked again inside the transaction.
  if (findAccountByEmail(email)) throw refuse.conflict('email_taken', 'Email is already registered.', 'email')
  if (input.workspaceName && isWorkspaceNameTaken(db, input.workspaceName)) {
    throw refuse.conflict('workspace_taken', 'Workspace name is already registered.', 'workspaceName')
  }
  const passwordHash = await hashPassword(input.password)
  return db.transaction((tx) => {
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
    if (input.workspaceName) insertWorkspace(tx, account.id, input.workspaceName, now)
    if (invite) {
      tx.insert(members)
        .values({
          id: crypto.randomUUID(),
          workspaceId: invite.workspaceId,
          accountId: account.id,
          level: invite.level,
          createdAt: now.toISOString(),
        })
        .onConflictDoNothing()
        .run()
      tx.delete(invites).where(eq(invites.id, invite.id)).run()
    }
    return account
  })
}

/** The account for these credentials, or null. Takes the same time whether or not the address exists. */
export async function verifyLogin(email: string, password: string): Promise<Account | null> {
  const account = findAccountByEmail(email)
  const ok = await verifyPassword(account?.passwordHash, password)
  return ok && account ? account : null
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
