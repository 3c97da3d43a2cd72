import type { Statement } from 'better-sqlite3'
import type { Db } from '~/lib/db/db.server'
import { jsonObjectSql, LIST_SPECS, tableNameOf, type EntitySpec } from './entity-json.server'
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '~/features/map/export-format'
import { publicProject, type Project } from './project.server'

/**
 * Renders a whole story map as the API's JSON text inside SQLite: each row becomes its
 * `json_object(...)` there (app/features/map/entity-json.server.ts), and the lists are joined here. No
 * row objects are built in JavaScript and nothing is stringified twice, which is what made a
 * 4,000-card map slow.
 */

/** `select json_object('kind','feature','id',"id",…) from "features" where project_id = ? order by …` */
export function listSql(spec: EntitySpec & { orderBy: string }): string {
  return `select ${jsonObjectSql(spec)} from "${tableNameOf(spec)}" where project_id = ? order by ${spec.orderBy}`
}

const LIST_SQL = Object.entries(LIST_SPECS).map(([name, spec]) => [name, listSql(spec)] as const)

/** The public link's lists: features without their GitHub issue (CONTRACT §13). */
const PUBLIC_LIST_SQL = Object.entries(LIST_SPECS).map(([name, spec]) => {
  if (name !== 'features') return [name, listSql(spec)] as const
  const { github: _github, issue: _issue, ...fields } = spec.fields
  return [name, listSql({ ...spec, fields })] as const
})

const listStatements = new WeakMap<Db['$client'], Map<string, Statement>>()

/** Each list's statement, prepared once per connection (every board load reads all of them). */
function listStatement(db: Db, audience: Audience, name: string, sql: string): Statement {
  let statements = listStatements.get(db.$client)
  if (!statements) listStatements.set(db.$client, (statements = new Map()))
  const key = `${audience}:${name}`
  let statement = statements.get(key)
  if (!statement) statements.set(key, (statement = db.$client.prepare(sql).pluck()))
  return statement
}

/** Who reads a bundle: a member (everything), or the public link (no tracker link or issues). */
export type Audience = 'member' | 'public'

/**
 * The JSON text of `GET /v1/projects/{id}` for this project row at this change-log version;
 * run it inside a read transaction.
 */
export function renderBundleJson(
  db: Db,
  project: Project,
  version: number,
  audience: Audience = 'member',
  /** What other features add to the project for members (project-fields.server.ts). */
  memberFields: Record<string, unknown> = {},
): string {
  const shown =
    audience === 'member' ? { ...publicProject(project), ...memberFields } : publicProject(project)
  const parts = [`{"version":${version}`, `"project":${JSON.stringify(shown)}`]
  for (const [name, sql] of audience === 'member' ? LIST_SQL : PUBLIC_LIST_SQL) {
    const rows = listStatement(db, audience, name, sql).all(project.id) as string[]
    parts.push(`"${name}":[${rows.join(',')}]`)
  }
  return parts.join(',') + '}'
}

/**
 * The export file (CONTRACT §8) from a rendered bundle: the format header in place of the
 * change-log `version`, which is not part of an export, and the project without its
 * `externalLink` (the share key is access, not content); the lists are the bundle's as they are.
 */
export function exportJsonOf(bundleJson: string, project: Project, exportedAt: string): string {
  const { externalLink: _key, ...exported } = publicProject(project)
  // The project object (with its GitHub link, never exported) ends where the first list begins.
  const lists = bundleJson.slice(bundleJson.indexOf(',"milestones":['))
  return `{"format":"${EXPORT_FORMAT}","formatVersion":${EXPORT_FORMAT_VERSION},"exportedAt":${JSON.stringify(exportedAt)},"project":${JSON.stringify(exported)}${lists}`
}
