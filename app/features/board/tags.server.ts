import { and, eq, ne, sql } from 'drizzle-orm'
import { features, tags } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import {
  assertIdFree,
  findCard,
  findProject,
  publicFeature,
  publicTag,
  type FeatureRow,
  type Tx,
} from '../map/entities.server'
import type { Author } from './cards.server'

/**
 * A project's tags and the tags on its features (CONTRACT §12). A feature keeps its tag ids as a
 * JSON array (features.tag_ids), so a change of its tags is a change of the feature: the change
 * log, live events, undo and export see it like any other field.
 */

function findTag(tx: Tx, a: Author, id: string) {
  const row = tx
    .select()
    .from(tags)
    .where(and(eq(tags.id, id), eq(tags.workspaceId, a.workspaceId)))
    .get()
  if (!row) throw refuse.notFound('Tag not found.', 'tag_not_found')
  return row
}

/** Names are unique per project, ignoring case. */
function assertNameFree(tx: Tx, projectId: string, name: string, exceptId = '') {
  const taken = tx
    .select({ id: tags.id })
    .from(tags)
    .where(
      and(eq(tags.projectId, projectId), sql`lower(${tags.name}) = lower(${name})`, ne(tags.id, exceptId)),
    )
    .get()
  if (taken) throw refuse.conflict('tag_taken', `The project has a tag '${name}' already.`, 'name')
}

export function createTag(
  tx: Tx,
  a: Author,
  c: { id: string; projectId: string; name: string; color: string },
) {
  assertIdFree(tx, tags, c.id)
  findProject(tx, c.projectId, a.workspaceId)
  assertNameFree(tx, c.projectId, c.name)
  const row = tx
    .insert(tags)
    .values({
      id: c.id,
      workspaceId: a.workspaceId,
      projectId: c.projectId,
      name: c.name,
      color: c.color,
      createdAt: a.now,
    })
    .returning()
    .get()
  return publicTag(row)
}

export function changeTag(tx: Tx, a: Author, id: string, change: { name?: string; color?: string }) {
  const tag = findTag(tx, a, id)
  if (change.name !== undefined) assertNameFree(tx, tag.projectId, change.name, id)
  return publicTag(tx.update(tags).set(change).where(eq(tags.id, id)).returning().get())
}

/** Deletes a tag and takes it off every feature that had it (each such feature changes). */
export function deleteTag(tx: Tx, a: Author, id: string) {
  const tag = findTag(tx, a, id)
  tx.run(sql`update features set tag_ids = (select json_group_array(value) from json_each(features.tag_ids) where value <> ${id}),
    last_modified = ${a.now}, last_modified_by_name = ${a.name}
    where project_id = ${tag.projectId} and exists (select 1 from json_each(features.tag_ids) where value = ${id})`)
  tx.delete(tags).where(eq(tags.id, id)).run()
  return {}
}

/** Replaces a feature's tags; each must be a tag of the feature's project (else 400 `tag_invalid`). */
export function setFeatureTags(tx: Tx, a: Author, id: string, tagIds: string[]) {
  const feature = findCard(tx, 'feature', id, a.workspaceId) as FeatureRow
  const wanted = [...new Set(tagIds)]
  for (const tagId of wanted) {
    const tag = tx.select({ projectId: tags.projectId }).from(tags).where(eq(tags.id, tagId)).get()
    if (!tag || tag.projectId !== feature.projectId)
      throw refuse.invalid('tag_invalid', 'Every tag must be one of the feature’s project.')
  }
  const row = tx
    .update(features)
    .set({ tagIds: JSON.stringify(wanted), lastModified: a.now, lastModifiedByName: a.name })
    .where(eq(features.id, id))
    .returning()
    .get()
  return publicFeature(row)
}
