import type { Theme } from './theme'
import { and, count, eq, inArray, ne } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { accounts, members, workspaces } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import { planAccountDeletion } from '~/features/workspaces'
import { isOwner } from '~/features/map/permissions'
import { hasPassword } from './oidc'
import { getEnv } from '~/lib/env.server'
import { sendMail } from '~/lib/email.server'
import { resetPasswordMessage, verifyEmailMessage } from '~/features/notifications/index.server'
import { hashPassword } from './password.server'
import { findAccountByEmail, normalizeEmail, type Account } from './account.server'
import { consumeAccountKey, hasLiveAccountKey, issueAccountKey } from './account-key.server'
import { destroyAllSessions } from './session.server'
import { deleteWorkspaces } from '~/features/map/door.server'

export const KEY_INVALID = 'This link is invalid or has expired.'
export const MAIL_FAILED = 'Something went wrong.'

/** Where a verification link goes: the pending new address, else the current one. */
function verificationAddress(account: Account) {
  return account.emailConfirmationPending && account.emailConfirmationSentTo
    ? account.emailConfirmationSentTo
    : account.email
}

/** Sends a fresh verification link (after sign-up, e-mail change or on request). False when the mail failed. */
export function sendVerificationMail(account: Account, now = new Date()): Promise<boolean> {
  const to = verificationAddress(account)
  const key = issueAccountKey('verify', account.id, to, now)
  return sendMail(verifyEmailMessage(to, account.name, key))
}

/** POST /account/resend. */
export async function resendVerification(account: Account) {
  if (account.emailConfirmed && !account.emailConfirmationPending) {
    throw refuse.invalid('already_verified', 'Your email is already verified.')
  }
  if (!(await sendVerificationMail(account))) throw refuse.unavailable('mail_failed', MAIL_FAILED)
}

/** Starts an e-mail change: the address changes only once the link sent to it is opened. */
export async function requestEmailChange(account: Account, newEmail: string) {
  const email = normalizeEmail(newEmail)
  const other = findAccountByEmail(email)
  if (other && other.id !== account.id)
    throw refuse.conflict('email_taken', 'Email is already registered.', 'email')
  const updated = getDb()
    .update(accounts)
    .set({ emailConfirmationPending: true, emailConfirmationSentTo: email })
    .where(eq(accounts.id, account.id))
    .returning()
    .get()
  if (!(await sendVerificationMail(updated))) throw refuse.unavailable('mail_failed', MAIL_FAILED)
}

/** Opens a verification link: the account's address becomes the verified one. */
export function verifyEmail(key: string, now = new Date()) {
  const verified = getDb().transaction(
    (tx) => {
      const row = consumeAccountKey('verify', key, now, tx)
      if (!row) return null // an expired key is deleted all the same
      const taken = tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.email, row.email), ne(accounts.id, row.accountId)))
        .get()
      if (taken) throw refuse.conflict('email_taken', 'Email is already registered.')
      return tx
        .update(accounts)
        .set({ email: row.email, emailConfirmed: true, emailConfirmationPending: false })
        .where(eq(accounts.id, row.accountId))
        .returning()
        .get()
    },
    { behavior: 'immediate' },
  )
  if (!verified) throw refuse.invalid('key_invalid', KEY_INVALID)
  return verified
}

/** Sends a reset link when the address belongs to an account; the caller answers the same either way. */
export async function requestPasswordReset(email: string, now = new Date()) {
  const account = findAccountByEmail(email)
  if (!account) return
  // With single sign-on only, reset links serve the accounts that have a password (CONTRACT §11).
  if (getEnv().OIDC_ONLY && !hasPassword(account.passwordHash)) return
  const key = issueAccountKey('reset', account.id, account.email, now)
  // Not awaited, so the answer takes as long for an unknown address; sendMail logs its own failures.
  void sendMail(resetPasswordMessage(account.email, account.name, key))
}

/**
 * Sets a new password with a reset key and ends every session of the account, in one transaction:
 * the key is used up, the password changed and the old sessions ended together, or none of it.
 */
export async function setPasswordWithKey(key: string, password: string, now = new Date()) {
  // Checked before the slow hash; used up (and so checked again) inside the transaction.
  if (!hasLiveAccountKey('reset', key, now)) {
    consumeAccountKey('reset', key, now) // an expired key is deleted when tried
    throw refuse.invalid('key_invalid', KEY_INVALID)
  }
  const passwordHash = await hashPassword(password)
  const changed = getDb().transaction(
    (tx) => {
      const row = consumeAccountKey('reset', key, now, tx)
      if (!row) return false
      if (getEnv().OIDC_ONLY) {
        const target = tx
          .select({ passwordHash: accounts.passwordHash })
          .from(accounts)
          .where(eq(accounts.id, row.accountId))
          .get()
        if (!target || !hasPassword(target.passwordHash)) return false
      }
      tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, row.accountId)).run()
      destroyAllSessions(row.accountId, tx)
      return true
    },
    { behavior: 'immediate' },
  )
  if (!changed) throw refuse.invalid('key_invalid', KEY_INVALID)
}

/** Keeps the account's colour theme (CONTRACT §12). */
export function changeTheme(accountId: string, theme: Theme) {
  getDb().update(accounts).set({ theme }).where(eq(accounts.id, accountId)).run()
}

export function changeName(account: Account, name: string) {
  return getDb()
    .update(accounts)
    .set({ name: name.trim() })
    .where(eq(accounts.id, account.id))
    .returning()
    .get()
}

/**
 * Deletes the account with its sessions and memberships, and every workspace where it was the
 * only member. Refused while it is the last OWNER of a workspace with other members.
 */
export function deleteAccount(account: Account) {
  deleteWorkspaces((tx) => {
    const own = tx
      .select({ workspaceId: members.workspaceId, workspaceName: workspaces.name, level: members.level })
      .from(members)
      .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
      .where(eq(members.accountId, account.id))
      .all()
    const ids = own.map((m) => m.workspaceId)
    const counts = ids.length
      ? tx
          .select({ workspaceId: members.workspaceId, level: members.level, n: count() })
          .from(members)
          .where(inArray(members.workspaceId, ids))
          .groupBy(members.workspaceId, members.level)
          .all()
      : []
    const plan = planAccountDeletion(
      own.map((m) => {
        const rows = counts.filter((c) => c.workspaceId === m.workspaceId)
        return {
          ...m,
          memberCount: rows.reduce((sum, c) => sum + c.n, 0),
          ownerCount: rows.filter((c) => isOwner(c.level)).reduce((sum, c) => sum + c.n, 0),
        }
      }),
    )
    if (!plan.ok) throw refuse.forbidden(plan.message, 'last_owner')
    tx.delete(accounts).where(eq(accounts.id, account.id)).run()
    return plan.deleteWorkspaceIds
  })
}
