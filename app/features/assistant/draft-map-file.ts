import { AVATARS } from '~/features/map/vocabulary'
import { rebalanceRanks } from '~/features/map/rank'
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '~/features/map/export-format'
import type { MapFile } from '~/features/transfer'
import { newId } from '~/lib/uuid'
import type { DraftMap } from './assistant-schemas'

/**
 * A drafted map in the §8 export shape (CONTRACT §8, §16), the answer of
 * `POST /v1/assistant/draft-map` and what `Create` imports: new ids throughout, ranks in the
 * draft's order, no authors or times on cards. Cells that name the same release are merged;
 * a persona's link to a goal the draft does not have is dropped. Pure.
 */
export type { MapFile }

type Card = {
  id: string
  rank: string
  title: string
  description: string
  color: ''
  status: 'OPEN'
  annotations: ''
}

const card = (id: string, rank: string, title: string, description = ''): Card => ({
  id,
  rank,
  title,
  description,
  color: '',
  status: 'OPEN',
  annotations: '',
})

export function draftToMapFile(draft: DraftMap, options: { now?: Date; newId?: () => string } = {}): MapFile {
  const id = options.newId ?? newId
  const releaseIds = draft.releases.map(() => id())
  const releaseRanks = rebalanceRanks(draft.releases.length)
  const goalIds = draft.goals.map(() => id())
  const goalRanks = rebalanceRanks(draft.goals.length)

  const activities = draft.goals.flatMap((goal, g) =>
    goal.activities.map((activity) => ({ activity, goal: g, id: id() })),
  )
  const activityRanks = rebalanceRanks(activities.length)

  const features = activities.flatMap(({ activity, id: activityId }) =>
    releaseIds.flatMap((releaseId, r) =>
      activity.cells
        .filter((cell) => cell.release === r)
        .flatMap((cell) => cell.features)
        .map((feature) => ({ feature, releaseId, activityId })),
    ),
  )
  const featureRanks = rebalanceRanks(features.length)

  const personas = draft.personas.map((persona, p) => ({
    id: id(),
    avatar: AVATARS[p % AVATARS.length],
    name: persona.name,
    role: persona.role,
    description: persona.description,
    goals: [...new Set(persona.goals)].filter((g) => g < goalIds.length),
  }))

  return {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: (options.now ?? new Date()).toISOString(),
    project: { title: draft.title, description: draft.description },
    milestones: draft.releases.map((release, r) =>
      card(releaseIds[r], releaseRanks[r], release.title, release.description),
    ),
    workflows: draft.goals.map((goal, g) => card(goalIds[g], goalRanks[g], goal.title)),
    subWorkflows: activities.map(({ activity, goal, id: activityId }, a) => ({
      ...card(activityId, activityRanks[a], activity.title),
      workflowId: goalIds[goal],
    })),
    features: features.map(({ feature, releaseId, activityId }, f) => ({
      ...card(id(), featureRanks[f], feature.title, feature.description),
      milestoneId: releaseId,
      subWorkflowId: activityId,
      estimate: 0,
      tagIds: [],
    })),
    featureComments: [],
    personas: personas.map(({ goals: _goals, ...persona }) => persona),
    workflowPersonas: personas.flatMap((persona) =>
      persona.goals.map((g) => ({ personaId: persona.id, workflowId: goalIds[g] })),
    ),
    tags: [],
  }
}
