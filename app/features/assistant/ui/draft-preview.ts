import type { MapFile } from '~/features/assistant'
import { countOf } from '~/lib/counts'

/** What the preview shows of a draft: names only, in the draft's order. */
export type DraftPreview = {
  title: string
  releases: string[]
  goals: { title: string; activities: { title: string; features: { title: string; release: number }[] }[] }[]
}

const EMPTY: DraftPreview = { title: '', releases: [], goals: [] }
const text = (value: unknown) => (typeof value === 'string' ? value : '')
const list = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v) => v && typeof v === 'object') : []

/** A streamed, unchecked draft (any part may be missing or half-written) read as far as it goes. */
export function previewOfPartial(raw: unknown): DraftPreview {
  if (!raw || typeof raw !== 'object') return EMPTY
  const draft = raw as Record<string, unknown>
  return {
    title: text(draft.title),
    releases: list(draft.releases).map((r) => text(r.title)),
    goals: list(draft.goals).map((goal) => ({
      title: text(goal.title),
      activities: list(goal.activities).map((activity) => ({
        title: text(activity.title),
        features: list(activity.cells).flatMap((cell) =>
          list(cell.features).map((f) => ({
            title: text(f.title),
            release: typeof cell.release === 'number' ? cell.release : -1,
          })),
        ),
      })),
    })),
  }
}

/** The finished map (§8 JSON) in the preview's terms. */
export function previewOfMap(map: MapFile): DraftPreview {
  const releases = map.milestones ?? []
  const activities = map.subWorkflows ?? []
  const features = map.features ?? []
  return {
    title: map.project?.title ?? '',
    releases: releases.map((r) => r.title),
    goals: (map.workflows ?? []).map((goal) => ({
      title: goal.title,
      activities: activities
        .filter((a) => a.workflowId === goal.id)
        .map((a) => ({
          title: a.title,
          features: features
            .filter((f) => f.subWorkflowId === a.id)
            .map((f) => ({ title: f.title, release: releases.findIndex((r) => r.id === f.milestoneId) })),
        })),
    })),
  }
}

/** `3 goals, 9 activities, 3 releases, 24 features`. */
export function previewCounts(preview: DraftPreview): string {
  const activities = preview.goals.flatMap((g) => g.activities)
  return [
    countOf(preview.goals.length, 'goal'),
    countOf(activities.length, 'activity', 'activities'),
    countOf(preview.releases.length, 'release'),
    countOf(activities.flatMap((a) => a.features).length, 'feature'),
  ].join(', ')
}
