import type { BoardCommand } from './board-commands'
import type { ProjectBundle, Tag } from '../map/bundle-types'
import type { EditMeta } from '../map/bundle-types'

type TagCommand = Extract<BoardCommand, { type: `tag.${string}` | 'feature.tags' }>

const byName = (a: Tag, b: Tag) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : 1)

/** The tag commands on a bundle, as the server applies them (CONTRACT §12); see applyCommand. */
export function applyTagCommand(b: ProjectBundle, command: TagCommand, meta: EditMeta): ProjectBundle {
  const tags = b.tags ?? []
  switch (command.type) {
    case 'tag.create': {
      if (tags.some((t) => t.id === command.id)) return b
      const tag: Tag = {
        kind: 'tag',
        id: command.id,
        workspaceId: b.project.workspaceId,
        projectId: command.projectId,
        name: command.name,
        color: command.color,
      }
      return { ...b, tags: [...tags, tag].sort(byName) }
    }
    case 'tag.rename':
      return {
        ...b,
        tags: tags.map((t) => (t.id === command.id ? { ...t, name: command.name } : t)).sort(byName),
      }
    case 'tag.color':
      return { ...b, tags: tags.map((t) => (t.id === command.id ? { ...t, color: command.color } : t)) }
    case 'tag.delete':
      return {
        ...b,
        tags: tags.filter((t) => t.id !== command.id),
        features: b.features.map((f) =>
          f.tagIds?.includes(command.id)
            ? {
                ...f,
                tagIds: f.tagIds.filter((id) => id !== command.id),
                lastModified: meta.now,
                lastModifiedByName: meta.name,
              }
            : f,
        ),
      }
    case 'feature.tags':
      return {
        ...b,
        features: b.features.map((f) =>
          f.id === command.id
            ? {
                ...f,
                tagIds: [...new Set(command.tagIds)],
                lastModified: meta.now,
                lastModifiedByName: meta.name,
              }
            : f,
        ),
      }
  }
}
