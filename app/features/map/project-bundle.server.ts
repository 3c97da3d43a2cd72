import type Database from 'better-sqlite3'
import { and, eq, sql } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import { projects, subscriptions, workspaces } from '~/lib/db/schema/index'
import { refuse } from '~/lib/errors'
import { canShareExternally } from '~/features/map/plan'
import type {
  PublicComment,
  PublicFeature,
  PublicMilestone,
  PublicPersona,
  PublicProject,
  PublicSubWorkflow,
  PublicWorkflow,
  PublicWorkflowPersona,
  PublicTag,
} from './entities.server'
import { projectVersion } from '~/features/map/change-log.server'
import { chooseEncoding, compress, type EncodedBody, type Encoding } from './bundle-encoding.server'
import { exportJsonOf, renderBundleJson, type Audience } from './project-bundle-json.server'
import { memberFieldsOf } from './project-fields.server'
import type { Project } from './project.server'

/**
 * A whole story map (CONTRACT §3): cards by rank, personas by name, comments newest first, and
 * the change-log version it shows (CONTRACT §6).
 */
export type ProjectBundle = {
  version: number
  project: PublicProject
  milestones: PublicMilestone[]
  workflows: PublicWorkflow[]
  subWorkflows: PublicSubWorkflow[]
  features: PublicFeature[]
  featureComments: PublicComment[]
  personas: PublicPersona[]
  workflowPersonas: PublicWorkflowPersona[]
  tags: PublicTag[]
}

/**
 * The rendered JSON of recently read maps, per database connection, with its bytes compressed
 * once per map version (gzip and brotli) for the API. An entry is good while the project's
 * change-log version is the same (every write this server makes to a map is logged) and no
 * other connection has committed (SQLite's `data_version`), so a write to one map leaves the
 * others cached. At most MAX_ENTRIES maps are kept, least recently used first out.
 */
type Rendered = {
  key: string
  /** UTF-8 only: a JavaScript string of a big map takes twice the room (two bytes a character once any is outside Latin-1). */
  bytes: Uint8Array<ArrayBuffer>
  compressed: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>
}
const MAX_ENTRIES = 8
const renderedByConnection = new WeakMap<Database.Database, Map<string, Rendered>>()

/**
 * The key of a map's rendered JSON: its version, other connections' commits, and for members the
 * fields other features add (a tracker link's status and last sync change without a change to the map).
 */
function cacheKey(version: number, fields: Record<string, unknown> | null): string {
  const outside = prepared('data-version', (db) =>
    db.$client.prepare('select data_version from pragma_data_version').pluck(),
  ).get() as number
  return `${version}:${outside}:${fields ? JSON.stringify(fields) : ''}`
}

/**
 * A map's JSON as a page's loader gets it: the kept bytes, and the text when it was just rendered
 * (a page thread renders most maps anew, as others write between two loads: it then neither
 * decodes the bytes it just encoded nor keeps a second copy of the map; issue 34).
 */
export type FreshBundle = { rendered: Rendered; text: string }

/** The map's JSON, from memory when the map has not changed; call inside a read transaction. */
function bundleJsonOf(project: Project, audience: Audience = 'member'): Rendered {
  return freshBundleJsonOf(project, audience).rendered
}

function freshBundleJsonOf(
  project: Project,
  audience: Audience = 'member',
): { rendered: Rendered; text: string | null } {
  const db = getDb()
  let rendered = renderedByConnection.get(db.$client)
  if (!rendered) renderedByConnection.set(db.$client, (rendered = new Map()))
  // One read of the added fields serves the key and the render (the public link shows none).
  const fields = audience === 'member' ? memberFieldsOf(project.id) : null
  // One read of the version too, for the key and the render (inside the caller's read transaction).
  const version = projectVersion(project.id)
  const key = cacheKey(version, fields)
  const slot = `${audience}:${project.id}`
  const cached = rendered.get(slot)
  rendered.delete(slot) // re-inserted below: the Map stays in least-recently-used order
  if (cached && cached.key === key) {
    rendered.set(slot, cached)
    return { rendered: cached, text: null }
  }
  const json = renderBundleJson(db, project, version, audience, fields ?? {})
  const entry: Rendered = { key, bytes: new TextEncoder().encode(json), compressed: {} }
  rendered.set(slot, entry)
  if (rendered.size > MAX_ENTRIES) rendered.delete(rendered.keys().next().value!)
  return { rendered: entry, text: json }
}

const freshOf = ({ rendered, text }: { rendered: Rendered; text: string | null }): FreshBundle => ({
  rendered,
  text: text ?? jsonOf(rendered),
})

/**
 * Drops the kept JSON of a project whose row changed outside the change log (a new share key),
 * so no read serves the old one. Other connections see the write through `data_version`.
 */
export function forgetRenderedProject(projectId: string) {
  const rendered = renderedByConnection.get(getDb().$client)
  rendered?.delete(`member:${projectId}`)
  rendered?.delete(`public:${projectId}`)
}

/** The project of this workspace (the caller has checked membership), or 404. */
function findProjectRow(workspaceId: string, projectId: string): Project {
  const query = prepared('project-row', (db) =>
    db
      .select()
      .from(projects)
      .where(
        and(
          eq(projects.id, sql.placeholder('projectId')),
          eq(projects.workspaceId, sql.placeholder('workspaceId')),
        ),
      )
      .prepare(),
  )
  const project = query.get({ projectId, workspaceId })
  if (!project) throw refuse.notFound('Project not found.', 'project_not_found')
  return project
}

/**
 * The project of a share link: only while the project is shared and its workspace allows
 * external sharing on an active trial or paid plan (SPEC §6, CONTRACT §8). Every refusal looks
 * the same as an unknown key.
 */
export function findSharedProjectRow(externalLink: string, now: Date): Project {
  const notFound = refuse.notFound('Project not found.', 'not_found')
  if (externalLink.length === 0 || externalLink.length > 200) throw notFound
  const row = getDb()
    .select({ project: projects, workspace: workspaces, subscription: subscriptions })
    .from(projects)
    .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
    .innerJoin(subscriptions, eq(subscriptions.workspaceId, projects.workspaceId))
    .where(eq(projects.externalLink, externalLink))
    .get()
  if (!row || !row.project.sharingEnabled) throw notFound
  if (!canShareExternally(row.subscription, row.workspace.allowExternalSharing, now)) throw notFound
  return row.project
}

// Each read runs in one transaction so the lists are consistent with each other and with the version.
const readProject = (find: () => Project, audience: Audience = 'member') =>
  getDb().transaction(() => bundleJsonOf(find(), audience))

const bytesOf = (rendered: Rendered) => rendered.bytes
const jsonOf = (rendered: Rendered) => new TextDecoder().decode(rendered.bytes)

/** The map's bytes in the encoding the client asked for: compressed once (off the main thread), then served as they are. */
function bodyOf(rendered: Rendered, acceptEncoding: string | null): Promise<EncodedBody> {
  const encoding = chooseEncoding(acceptEncoding)
  const bytes = bytesOf(rendered)
  if (!encoding) return Promise.resolve({ body: bytes, encoding: null })
  const promise = (rendered.compressed[encoding] ??= compress(bytes, encoding))
  return promise.then((body) => ({ body, encoding }))
}

/** The map of a project of this workspace (the caller has checked membership), or 404. */
export function getProjectBundle(workspaceId: string, projectId: string): ProjectBundle {
  return JSON.parse(jsonOf(readProject(() => findProjectRow(workspaceId, projectId))))
}

/**
 * The same map as UTF-8 JSON bytes, with the few project fields a page needs around it. A page
 * passes the map on as text (bundle-text.ts): Remix would otherwise encode every card of the map
 * object by object into the page (turbo-stream), and the browser decode it again, on every load.
 * The bytes are the kept copy: read them, never change them.
 */
export function getProjectBundleForPage(workspaceId: string, projectId: string): BundleForPage {
  return getDb().transaction(() => {
    const project = findProjectRow(workspaceId, projectId)
    const { rendered, text } = freshOf(freshBundleJsonOf(project))
    return {
      bytes: bytesOf(rendered),
      text,
      project: { id: project.id, title: project.title, externalLink: project.externalLink },
    }
  })
}

/** The map's kept UTF-8 JSON and the same as text (see FreshBundle), with the few project fields a page needs. */
export type BundleForPage = {
  bytes: Uint8Array
  text: string
  project: { id: string; title: string; externalLink: string }
}

/** The same map as UTF-8 JSON bytes. */
export function getProjectBundleBytes(workspaceId: string, projectId: string): Uint8Array<ArrayBuffer> {
  return bytesOf(readProject(() => findProjectRow(workspaceId, projectId)))
}

/** The same map ready to send (`GET /v1/projects/{id}`), compressed as `Accept-Encoding` allows. */
export function getProjectBundleBody(workspaceId: string, projectId: string, acceptEncoding: string | null) {
  return bodyOf(
    readProject(() => findProjectRow(workspaceId, projectId)),
    acceptEncoding,
  )
}

/** The read-only map behind a share link, or 404. */
export function getPublicBundle(externalLink: string, now = new Date()): ProjectBundle {
  return JSON.parse(jsonOf(readProject(() => findSharedProjectRow(externalLink, now), 'public')))
}

/** The same map as UTF-8 JSON bytes. */
export function getPublicBundleBytes(externalLink: string, now = new Date()): Uint8Array<ArrayBuffer> {
  return bytesOf(readProject(() => findSharedProjectRow(externalLink, now), 'public'))
}

/** The same map as UTF-8 JSON bytes and text (see FreshBundle). */
export function getPublicBundleForPage(
  externalLink: string,
  now = new Date(),
): { bytes: Uint8Array; text: string } {
  return getDb().transaction(() => {
    const { rendered, text } = freshOf(freshBundleJsonOf(findSharedProjectRow(externalLink, now), 'public'))
    return { bytes: bytesOf(rendered), text }
  })
}

/** The same map ready to send (`GET /v1/link/{key}`), compressed as `Accept-Encoding` allows. */
export function getPublicBundleBody(externalLink: string, acceptEncoding: string | null, now = new Date()) {
  return bodyOf(
    readProject(() => findSharedProjectRow(externalLink, now), 'public'),
    acceptEncoding,
  )
}

/** A project's export file (CONTRACT §8) and its title, for the download's name. */
export type ProjectExport = { title: string; json: string }

const readExport = (find: () => Project, exportedAt: Date, audience: Audience = 'member'): ProjectExport =>
  getDb().transaction(() => {
    const project = find()
    return {
      title: project.title,
      json: exportJsonOf(jsonOf(bundleJsonOf(project, audience)), project, exportedAt.toISOString()),
    }
  })

/** `GET /v1/projects/{id}/export`: a project of this workspace (the caller has checked membership), or 404. */
export function getProjectExport(workspaceId: string, projectId: string, now = new Date()): ProjectExport {
  return readExport(() => findProjectRow(workspaceId, projectId), now)
}

/** `GET /v1/link/{key}/export`: the map behind a share link while sharing is on, or 404. */
export function getPublicExport(externalLink: string, now = new Date()): ProjectExport {
  return readExport(() => findSharedProjectRow(externalLink, now), now, 'public')
}
