import Database from 'better-sqlite3'
import { asc, desc, eq, sql } from 'drizzle-orm'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

/**
 * The project read renders its JSON inside SQLite and keeps it until the database changes.
 * Here that text is held byte for byte to the `public*` mappers, and every kind of write
 * (through the model, or by another connection) is seen by the next read.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bundle-'))
process.env.DATABASE_PATH = path.join(dir, 'bundle.db')
process.env.APP_MODE = 'selfhosted'
process.env.BASE_URL = 'http://localhost:3000'

const { getDb, closeDatabase } = await import('~/lib/db/db.server')
// What follows every change (trash, webhooks, outboxes, e-mails), as the server registers it at start.
const { registerMapFollowers } = await import('../../server/map-followers')
registerMapFollowers()
const schema = await import('~/lib/db/schema')
const entities = await import('~/features/map/entities.server')
const { publicProject } = await import('~/features/map/project.server')
const { projectVersion } = await import('~/features/map/change-log.server')
const { createWorkspace, getWorkspaceContextById } = await import('~/features/workspaces/workspace.server')
const { executeBoardCommand } = await import('~/features/board/board.server')
const { getProjectBundle, getProjectBundleBytes, getPublicBundleBytes } =
  await import('~/features/map/project-bundle.server')

const uuid = () => crypto.randomUUID()
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
let ctx: NonNullable<ReturnType<typeof getWorkspaceContextById>>
let projectId: string

/** The bundle as the Drizzle queries and public mappers gave it before the JSON moved into SQL. */
/** The bundle as the mappers make it; the public link's shows no tracker link and no features' issues (CONTRACT §13, §14). */
function referenceJson(id: string, audience: 'member' | 'public' = 'member') {
  const db = getDb()
  const { milestones, workflows, subWorkflows, features, featureComments, personas, workflowPersonas } =
    schema
  const project = db.select().from(schema.projects).where(eq(schema.projects.id, id)).get()!
  return JSON.stringify({
    version: projectVersion(id), // CONTRACT §6: the change-log version comes first
    project:
      audience === 'member'
        ? { ...publicProject(project), github: null, tracker: null }
        : publicProject(project),
    milestones: db
      .select()
      .from(milestones)
      .where(eq(milestones.projectId, id))
      .orderBy(asc(milestones.rank))
      .all()
      .map(entities.publicMilestone),
    workflows: db
      .select()
      .from(workflows)
      .where(eq(workflows.projectId, id))
      .orderBy(asc(workflows.rank))
      .all()
      .map(entities.publicWorkflow),
    subWorkflows: db
      .select()
      .from(subWorkflows)
      .where(eq(subWorkflows.projectId, id))
      .orderBy(asc(subWorkflows.rank), asc(subWorkflows.id))
      .all()
      .map(entities.publicSubWorkflow),
    features: db
      .select()
      .from(features)
      .where(eq(features.projectId, id))
      .orderBy(asc(features.rank), asc(features.id))
      .all()
      .map(entities.publicFeature)
      .map(({ github, issue, ...feature }) =>
        audience === 'member' ? { ...feature, github, issue } : feature,
      ),
    featureComments: db
      .select()
      .from(featureComments)
      .where(eq(featureComments.projectId, id))
      .orderBy(desc(featureComments.createdAt), desc(featureComments.id))
      .all()
      .map(entities.publicComment),
    personas: db
      .select()
      .from(personas)
      .where(eq(personas.projectId, id))
      .orderBy(asc(personas.name), asc(personas.id))
      .all()
      .map(entities.publicPersona),
    workflowPersonas: db
      .select()
      .from(workflowPersonas)
      .where(eq(workflowPersonas.projectId, id))
      .orderBy(asc(workflowPersonas.id))
      .all()
      .map(entities.publicWorkflowPersona),
    tags: db
      .select()
      .from(schema.tags)
      .where(eq(schema.tags.projectId, id))
      .orderBy(sql`${schema.tags.name} collate nocase`, asc(schema.tags.id))
      .all()
      .map(entities.publicTag),
  })
}

beforeAll(() => {
  const accountId = uuid()
  getDb()
    .insert(schema.accounts)
    .values({
      id: accountId,
      name: 'Zoë "Bundle" Tester',
      email: `b${Date.now()}@example.com`,
      passwordHash: 'x',
    })
    .run()
  const ws = createWorkspace(accountId, `bundle${Date.now()}`)
  ctx = getWorkspaceContextById(accountId, ws.id)!
  projectId = executeBoardCommand(ctx, { type: 'project.create', id: uuid(), title: 'Map "one"\n\tλ' }).id
  const run = (command: Parameters<typeof executeBoardCommand>[1]) => executeBoardCommand(ctx, command)
  const goal = run({ type: 'workflow.create', id: uuid(), projectId, title: 'Goal \\ with backslash' })
  const release = run({ type: 'milestone.create', id: uuid(), projectId, title: 'Release </script>' })
  const activity = run({ type: 'subworkflow.create', id: uuid(), workflowId: goal.id, title: 'Activity 🚀' })
  for (let i = 0; i < 5; i++) {
    const feature = run({
      type: 'feature.create',
      id: uuid(),
      milestoneId: release.id,
      subWorkflowId: activity.id,
      title: `F${i} \u0001 "q"`,
    })
    run({
      type: 'card.description',
      kind: 'feature',
      id: feature.id,
      description: `Line one\nLine two\r\n\u2028 ${i}`,
    })
    run({ type: 'feature.estimate', id: feature.id, estimate: i * 3 })
    run({ type: 'card.color', kind: 'feature', id: feature.id, color: 'RED' })
    run({ type: 'card.annotations', kind: 'feature', id: feature.id, annotations: 'RISKY,IDEA' })
    run({
      type: 'comment.create',
      id: uuid(),
      featureId: feature.id,
      post: `Comment ${i} with "quotes" and émoji 😀`,
    })
  }
  run({ type: 'card.close', kind: 'subworkflow', id: activity.id })
  run({
    type: 'persona.create',
    id: uuid(),
    projectId,
    avatar: 'avatar03',
    name: 'Pat',
    role: 'Buyer',
    description: 'Likes *markdown*',
    workflowId: goal.id,
    workflowPersonaId: uuid(),
  })
})
afterAll(() => {
  closeDatabase()
  fs.rmSync(dir, { recursive: true, force: true })
})

it('renders the same JSON, byte for byte, as the public mappers', () => {
  expect(text(getProjectBundleBytes(ctx.workspace.id, projectId))).toBe(referenceJson(projectId))
  expect(getProjectBundle(ctx.workspace.id, projectId)).toEqual(JSON.parse(referenceJson(projectId)))
})

it('serves a repeated read from memory and sees every write after it', () => {
  const first = getProjectBundleBytes(ctx.workspace.id, projectId)
  expect(getProjectBundleBytes(ctx.workspace.id, projectId)).toBe(first)

  const feature = getProjectBundle(ctx.workspace.id, projectId).features[0]
  executeBoardCommand(ctx, {
    type: 'card.rename',
    kind: 'feature',
    id: feature.id,
    title: 'Renamed in the model',
  })
  expect(text(getProjectBundleBytes(ctx.workspace.id, projectId))).toContain('Renamed in the model')

  // Another connection (a script, a restore) writes: SQLite's data_version tells this one.
  const other = new Database(process.env.DATABASE_PATH!)
  other.prepare('update features set title = ? where id = ?').run('Renamed elsewhere', feature.id)
  other.close()
  const after = text(getProjectBundleBytes(ctx.workspace.id, projectId))
  expect(after).toContain('Renamed elsewhere')
  expect(after).toBe(referenceJson(projectId))
})

it('checks the project and the share link on every read, cached or not', () => {
  getProjectBundleBytes(ctx.workspace.id, projectId)
  expect(() => getProjectBundleBytes(uuid(), projectId)).toThrow(
    expect.objectContaining({ code: 'project_not_found' }),
  )
  const link = getProjectBundle(ctx.workspace.id, projectId).project.externalLink
  expect(text(getPublicBundleBytes(link))).toBe(referenceJson(projectId, 'public'))
  getDb()
    .update(schema.workspaces)
    .set({ allowExternalSharing: false })
    .where(eq(schema.workspaces.id, ctx.workspace.id))
    .run()
  expect(() => getPublicBundleBytes(link)).toThrow(expect.objectContaining({ code: 'not_found' }))
})
