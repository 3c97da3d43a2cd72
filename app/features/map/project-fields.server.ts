import { singleton } from '~/lib/singleton.server'

/**
 * A field another feature adds to the project as members see it in the bundle (a tracker's link:
 * `github`, `tracker`), read at each render. Registered at start by the composition root
 * (server/map-followers.ts), in every thread that renders maps; the kernel names no feature.
 * The public link shows none of them.
 */
export type ProjectField = { name: string; read: (projectId: string) => unknown }

const registry = () => singleton('map-project-fields', () => ({ fields: [] as ProjectField[] }))

/** Registers a field; a second one of the same name replaces the first. */
export function registerProjectField(field: ProjectField) {
  const { fields } = registry()
  const at = fields.findIndex((f) => f.name === field.name)
  if (at === -1) fields.push(field)
  else fields[at] = field
}

/** The registered fields' values for a project, in registration order. */
export function memberFieldsOf(projectId: string): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const field of registry().fields) values[field.name] = field.read(projectId)
  return values
}
