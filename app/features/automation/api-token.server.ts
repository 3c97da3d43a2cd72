import { and, asc, eq, sql } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import { accounts, apiTokens, members, workspaces } from '~/lib/db/schema'
import {
  expiresAtFor,
  isExpired,
  lastUsedIsStale,
  prefixOf,
  TOKEN_PREFIX,
  TOKEN_RANDOM_LENGTH,
  type CreateTokenInput,
  type TokenScope,
} from './api-tokens'
import { refuse } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import { randomBase62, sameSecret, sha256 } from '~/lib/crypto.server'
import { getWorkspaceContextById, type WorkspaceContext } from '~/features/workspaces/index.server'

type TokenRow = typeof apiTokens.$inferSelect

/** A token as the API shows it: never its secret nor its hash. */
export function publicToken(row: TokenRow) {
  return {
    id: row.id,
    name: row.name,
    workspaceId: row.workspaceId,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
  }
}
export type PublicToken = ReturnType<typeof publicToken>

/** Makes a token for the account in one of its workspaces; the secret is in this answer only. */
export function createToken(accountId: string, input: CreateTokenInput, now = new Date()) {
  const context = getWorkspaceContextById(accountId, input.workspaceId, now)
  if (!context) throw refuse.forbidden('You are not a member of this workspace.', 'not_a_member')
  const secret = TOKEN_PREFIX + randomBase62(TOKEN_RANDOM_LENGTH)
  const row: TokenRow = {
    id: crypto.randomUUID(),
    secretHash: sha256(secret),
    prefix: prefixOf(secret),
    name: input.name,
    scope: input.scope,
    workspaceId: context.workspace.id,
    memberId: context.member.id,
    createdAt: now.toISOString(),
    expiresAt: expiresAtFor(now, input.expiresInDays),
    lastUsedAt: null,
  }
  getDb().insert(apiTokens).values(row).run()
  return { token: publicToken(row), secret }
}

/** The account's tokens in every workspace, newest first, with the workspace's name for lists. */
export function listAccountTokens(accountId: string) {
  return getDb()
    .select({ token: apiTokens, workspaceName: workspaces.name })
    .from(apiTokens)
    .innerJoin(members, eq(members.id, apiTokens.memberId))
    .innerJoin(workspaces, eq(workspaces.id, apiTokens.workspaceId))
    .where(eq(members.accountId, accountId))
    .orderBy(asc(workspaces.name), asc(apiTokens.createdAt))
    .all()
    .map(({ token, workspaceName }) => ({ ...publicToken(token), workspaceName }))
}

/** Revokes one of the account's own tokens; another's id is 404. */
export function revokeAccountToken(accountId: string, tokenId: string) {
  const owned = getDb()
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .innerJoin(members, eq(members.id, apiTokens.memberId))
    .where(and(eq(apiTokens.id, tokenId), eq(members.accountId, accountId)))
    .get()
  if (!owned) throw refuse.notFound('Token not found.', 'token_not_found')
  getDb().delete(apiTokens).where(eq(apiTokens.id, tokenId)).run()
}

function assertManagesTokens(ctx: WorkspaceContext) {
  if (!can(ctx, 'manageTokens'))
    throw refuse.forbidden('Only owners and admins manage the tokens of a workspace.', 'level_too_low')
}

/** Every member's tokens of the workspace (OWNER, ADMIN), with whose they are. */
export function listWorkspaceTokens(ctx: WorkspaceContext) {
  assertManagesTokens(ctx)
  return getDb()
    .select({
      token: apiTokens,
      memberName: accounts.name,
      memberEmail: accounts.email,
      memberId: members.id,
    })
    .from(apiTokens)
    .innerJoin(members, eq(members.id, apiTokens.memberId))
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(eq(apiTokens.workspaceId, ctx.workspace.id))
    .orderBy(asc(accounts.name), asc(apiTokens.createdAt))
    .all()
    .map(({ token, ...member }) => ({
      ...publicToken(token),
      member: { id: member.memberId, name: member.memberName, email: member.memberEmail },
    }))
}

export function revokeWorkspaceToken(ctx: WorkspaceContext, tokenId: string) {
  assertManagesTokens(ctx)
  const deleted = getDb()
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.workspaceId, ctx.workspace.id)))
    .run()
  if (deleted.changes === 0) throw refuse.notFound('Token not found.', 'token_not_found')
}

export type TokenAuth = { tokenId: string; name: string; scope: TokenScope; context: WorkspaceContext }

/**
 * The token a secret is, with its member's workspace context as of now (level and plan read
 * fresh); null for an unknown, revoked or expired secret. Marks the token used (once a minute).
 */
export function authenticateToken(secret: string, now = new Date()): TokenAuth | null {
  const hash = sha256(secret)
  const row = prepared('api-token-by-hash', (db) =>
    db
      .select({ token: apiTokens, accountId: members.accountId })
      .from(apiTokens)
      .innerJoin(members, eq(members.id, apiTokens.memberId))
      .where(eq(apiTokens.secretHash, sql.placeholder('hash')))
      .prepare(),
  ).get({ hash })
  if (!row || !sameSecret(row.token.secretHash, hash) || isExpired(row.token.expiresAt, now)) return null
  const context = getWorkspaceContextById(row.accountId, row.token.workspaceId, now)
  if (!context) return null
  if (lastUsedIsStale(row.token.lastUsedAt, now))
    getDb()
      .update(apiTokens)
      .set({ lastUsedAt: now.toISOString() })
      .where(eq(apiTokens.id, row.token.id))
      .run()
  return {
    tokenId: row.token.id,
    name: row.token.name,
    scope: row.token.scope,
    context: { ...context, via: row.token.name },
  }
}
