import type { ProjectBundle } from '../map/bundle-types'

/** The names of the card's place on the map, outermost first (a feature: release › goal › activity). */
export type CardPlace = { label: 'Release' | 'Goal' | 'Activity'; title: string }[]

type PlaceBundle = Pick<ProjectBundle, 'milestones' | 'workflows' | 'subWorkflows' | 'features'>

/**
 * Where a card sits, for its dialog: a feature in its release, goal and activity; an activity in
 * its goal; goals and releases are places themselves (empty). A part that is gone (deleted while
 * the dialog is open) is left out.
 */
export function cardPlace(bundle: PlaceBundle, kind: string, id: string): CardPlace {
  const goalOf = (workflowId: string) => bundle.workflows.find((w) => w.id === workflowId)
  const place: CardPlace = []
  if (kind === 'feature') {
    const feature = bundle.features.find((f) => f.id === id)
    if (!feature) return place
    const release = bundle.milestones.find((m) => m.id === feature.milestoneId)
    const activity = bundle.subWorkflows.find((s) => s.id === feature.subWorkflowId)
    const goal = activity ? goalOf(activity.workflowId) : undefined
    if (release) place.push({ label: 'Release', title: release.title })
    if (goal) place.push({ label: 'Goal', title: goal.title })
    if (activity) place.push({ label: 'Activity', title: activity.title })
  } else if (kind === 'subworkflow') {
    const activity = bundle.subWorkflows.find((s) => s.id === id)
    const goal = activity ? goalOf(activity.workflowId) : undefined
    if (goal) place.push({ label: 'Goal', title: goal.title })
  }
  return place
}
