import { ANNOTATION_LABELS, annotationList } from '~/features/map/vocabulary'
import type { CardFields, Feature, ProjectBundle } from '~/features/map/bundle-types'
import { countOf } from '~/lib/counts'

/**
 * A story map as plain text an AI assistant can reason over (CONTRACT §10, `get_story_map`):
 * the releases in order, then each goal › activity with its features per release. Every card
 * carries its id in brackets, so the assistant can name it in the next tool call.
 */

function details(card: CardFields & { estimate?: number }, extra: string[] = []): string {
  const parts = [...extra]
  if (card.estimate) parts.push(`size ${card.estimate}`)
  if (card.color) parts.push(`colour ${card.color.toLowerCase()}`)
  const annotations = annotationList(card.annotations).map((a) => ANNOTATION_LABELS[a])
  if (annotations.length > 0) parts.push(`annotations: ${annotations.join(', ')}`)
  if (card.status === 'CLOSED') parts.push('closed')
  return parts.length > 0 ? ` (${parts.join('; ')})` : ''
}

const quoted = (title: string) => `"${title.replace(/\s+/g, ' ')}"`
const firstLine = (text: string, max = 200) => {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? ''
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

export function storyMapOutline(bundle: ProjectBundle): string {
  const {
    project,
    milestones,
    workflows,
    subWorkflows,
    features,
    featureComments,
    personas,
    workflowPersonas,
  } = bundle
  const lines: string[] = [`Story map ${quoted(project.title)} [${project.id}]`]
  if (project.description.trim()) lines.push(firstLine(project.description, 500))
  lines.push(
    `${countOf(workflows.length, 'goal')}, ${countOf(subWorkflows.length, 'activity', 'activities')}, ` +
      `${countOf(milestones.length, 'release')}, ${countOf(features.length, 'feature')}.`,
  )

  lines.push('', 'Releases, top to bottom:')
  if (milestones.length === 0) lines.push('  (none)')
  milestones.forEach((m, i) => lines.push(`  ${i + 1}. ${quoted(m.title)} [${m.id}]${details(m)}`))

  const comments = new Map<string, number>()
  for (const c of featureComments) comments.set(c.featureId, (comments.get(c.featureId) ?? 0) + 1)
  const personaById = new Map(personas.map((p) => [p.id, p]))
  const tagName = new Map((bundle.tags ?? []).map((t) => [t.id, t.name]))
  const cells = new Map<string, Feature[]>()
  for (const f of features) {
    const key = `${f.subWorkflowId}/${f.milestoneId}`
    cells.set(key, [...(cells.get(key) ?? []), f])
  }

  lines.push('', 'Goals › activities, left to right, with their features per release:')
  if (workflows.length === 0) lines.push('  (none)')
  for (const goal of workflows) {
    lines.push(`Goal ${quoted(goal.title)} [${goal.id}]${details(goal)}`)
    const onGoal = workflowPersonas
      .filter((wp) => wp.workflowId === goal.id)
      .map((wp) => personaById.get(wp.personaId))
      .filter((p) => p !== undefined)
    if (onGoal.length > 0)
      lines.push(`  Personas: ${onGoal.map((p) => (p.role ? `${p.name} (${p.role})` : p.name)).join(', ')}`)
    const activities = subWorkflows.filter((s) => s.workflowId === goal.id)
    if (activities.length === 0) lines.push('  (no activities)')
    for (const activity of activities) {
      lines.push(`  Activity ${quoted(activity.title)} [${activity.id}]${details(activity)}`)
      let any = false
      for (const release of milestones) {
        const cell = cells.get(`${activity.id}/${release.id}`) ?? []
        if (cell.length === 0) continue
        any = true
        lines.push(`    In release ${quoted(release.title)}:`)
        for (const f of cell) {
          const count = comments.get(f.id) ?? 0
          const names = (f.tagIds ?? []).flatMap((id) => tagName.get(id) ?? [])
          const extra = [
            ...(names.length > 0 ? [`tags: ${names.join(', ')}`] : []),
            ...(count > 0 ? [countOf(count, 'comment')] : []),
          ]
          lines.push(`      - ${quoted(f.title)} [${f.id}]${details(f, extra)}`)
          if (f.description.trim()) lines.push(`        ${firstLine(f.description)}`)
        }
      }
      if (!any) lines.push('    (no features)')
    }
  }
  return lines.join('\n')
}
