import { and, asc, eq, sql } from 'drizzle-orm'
import crypto from 'node:crypto'
import { getDb, type Db } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import { accounts, members, subscriptions, workspaces } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import type { Level } from '../map/permissions'
import { initialSubscription, isPlanActive } from '~/features/map/plan'
import { RESERVED_WORKSPACE_NAMES } from '~/lib/validation'
import { getEnv } from '~/lib/env.server'
import { accessCached } from '~/lib/db/access-cache.server'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

export type Workspace = typeof workspaces.$inferSelect
export type Subscription = typeof subscriptions.$inferSelect

/** What a workspace-scoped request knows about its caller. */
export type WorkspaceContext = {
  account: typeof accounts.$inferSelect
  member: typeof members.$inferSelect
  workspace: Workspace
  subscription: Subscription
  level: Level
  planActive: boolean
  /** The API token the request came with (CONTRACT §10): changes say `via` its name. */
  via?: string
}

export function publicWorkspace(w: Workspace) {
  return {
    id: w.id,
    name: w.name,
    createdAt: w.createdAt,
    allowExternalSharing: w.allowExternalSharing,
    euVat: w.euVat,
    externalBillingEmail: w.externalBillingEmail,
  }
}

export function publicSubscription(s: Subscription) {
  return {
    id: s.id,
    workspaceId: s.workspaceId,
    level: s.level,
    externalStatus: s.externalStatus,
    numberOfEditors: s.numberOfEditors,
    fromDate: s.fromDate,
    expirationDate: s.expirationDate,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
  }
}

export function isWorkspaceNameTaken(tx: Tx | Db, name: string): boolean {
  if (RESERVED_WORKSPACE_NAMES.has(name)) return true
  return (
    tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.name, name)).get() !== undefined
  )
}

/** Creates a workspace with its OWNER and its subscription, inside the caller's transaction. */
export function insertWorkspace(tx: Tx, accountId: string, name: string, now: Date) {
  if (isWorkspaceNameTaken(tx, name))
    throw refuse.conflict('workspace_taken', 'Workspace name is already registered.', 'workspaceName')
  const env = getEnv()
  const workspace = tx
    .insert(workspaces)
    .values({ id: crypto.randomUUID(), name, createdAt: now.toISOString() })
    .returning()
    .get()
  tx.insert(members)
    .values({
      id: crypto.randomUUID(),
      workspaceId: workspace.id,
      accountId,
      level: 'OWNER',
      createdAt: now.toISOString(),
    })
    .run()
  const plan = initialSubscription(env.APP_MODE, env.TRIAL_DAYS, now)
  tx.insert(subscriptions)
    .values({ id: crypto.randomUUID(), workspaceId: workspace.id, numberOfEditors: 1, ...plan })
    .run()
  return workspace
}

export function createWorkspace(accountId: string, name: string, now = new Date()) {
  const db = getDb()
  return db.transaction((tx) => publicWorkspace(insertWorkspace(tx, accountId, name, now)), {
    behavior: 'immediate',
  })
}

const contextColumns = {
  account: accounts,
  member: members,
  workspace: workspaces,
  subscription: subscriptions,
}

function toContext(
  row: Omit<WorkspaceContext, 'level' | 'planActive'> | undefined,
  now: Date,
): WorkspaceContext | null {
  if (!row) return null
  return { ...row, level: row.member.level, planActive: isPlanActive(row.subscription, now) }
}

function contextQuery() {
  return getDb()
    .select(contextColumns)
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .innerJoin(subscriptions, eq(subscriptions.workspaceId, members.workspaceId))
}

/**
 * The caller's membership of a workspace by id, or null when they are not a member: read again
 * whenever a write may have changed it (access-cache.server.ts).
 */
export function getWorkspaceContextById(accountId: string, workspaceId: string, now = new Date()) {
  const query = prepared('workspace-context-by-id', () =>
    contextQuery()
      .where(
        and(
          eq(members.accountId, sql.placeholder('accountId')),
          eq(members.workspaceId, sql.placeholder('workspaceId')),
        ),
      )
      .prepare(),
  )
  return toContext(
    accessCached('workspace-context-by-id', `${accountId}:${workspaceId}`, () =>
      query.get({ accountId, workspaceId }),
    ),
    now,
  )
}

/** The same by the workspace's name (every page under `/{workspace}`). */
export function getWorkspaceContextByName(accountId: string, name: string, now = new Date()) {
  const query = prepared('workspace-context-by-name', () =>
    contextQuery()
      .where(
        and(
          eq(members.accountId, sql.placeholder('accountId')),
          eq(workspaces.name, sql.placeholder('name')),
        ),
      )
      .prepare(),
  )
  return toContext(
    accessCached('workspace-context-by-name', `${accountId}:${name}`, () => query.get({ accountId, name })),
    now,
  )
}

/** Every workspace the account belongs to, with its membership and subscription, oldest first. */
export function listAccountWorkspaces(accountId: string) {
  return getDb()
    .select({ workspace: workspaces, member: members, subscription: subscriptions })
    .from(members)
    .innerJoin(workspaces, eq(workspaces.id, members.workspaceId))
    .innerJoin(subscriptions, eq(subscriptions.workspaceId, members.workspaceId))
    .where(eq(members.accountId, accountId))
    .orderBy(asc(workspaces.createdAt), asc(workspaces.name))
    .all()
}
