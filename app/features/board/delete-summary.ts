import { byRank } from './board-grid'
import type { ProjectBundle } from '../map/bundle-types'
import { countOf } from '~/lib/counts'

type DeleteBundle = Pick<ProjectBundle, 'subWorkflows' | 'features'>

/** At most this many titles are named in a list; the rest are counted (`and 4 more`). */
const NAMED = 5

function named(titles: string[], one: string, many: string): string {
  const shown = titles.slice(0, NAMED).map((t) => `‘${t}’`)
  const rest = titles.length - shown.length
  return `${countOf(titles.length, one, many)} (${shown.join(', ')}${rest > 0 ? ` and ${rest} more` : ''})`
}

const featuresOf = (bundle: DeleteBundle, where: (f: DeleteBundle['features'][number]) => boolean) =>
  bundle.features
    .filter(where)
    .sort(byRank)
    .map((f) => f.title)

/**
 * What goes with a card when it is deleted, named, for the delete confirmation (issue 43): a
 * goal's activities and their features, an activity's or a release's features, closed ones
 * too (a delete takes everything under the card). Null when nothing goes with it. Pure.
 */
export function deletedWith(bundle: DeleteBundle, kind: string, id: string): string | null {
  let activities: string[] = []
  let features: string[] = []
  if (kind === 'workflow') {
    const under = bundle.subWorkflows.filter((s) => s.workflowId === id).sort(byRank)
    activities = under.map((s) => s.title)
    features = under.flatMap((s) => featuresOf(bundle, (f) => f.subWorkflowId === s.id))
  } else if (kind === 'subworkflow') {
    features = featuresOf(bundle, (f) => f.subWorkflowId === id)
  } else if (kind === 'milestone') {
    features = featuresOf(bundle, (f) => f.milestoneId === id)
  }
  const parts = [
    ...(activities.length > 0 ? [named(activities, 'activity', 'activities')] : []),
    ...(features.length > 0 ? [named(features, 'feature', 'features')] : []),
  ]
  if (parts.length === 0) return null
  return `With it go its ${parts.join(' and its ')}.`
}
