import { statement } from '~/lib/db/prepared.server'
import { refuse } from '~/lib/errors'
import { NEIGHBOURS_MAX, type FeatureContext } from './assistant-prompts'

/**
 * What the assistant may know of a feature (CONTRACT §16): its title and description, the titles
 * of its release, goal and activity, and its neighbours' titles, read by the feature's id within
 * the caller's workspace only (another workspace's feature is 404, as on every feature route).
 * The ids come along for whoever applies the suggestions (MCP's tools); they are never sent to
 * the model, whose message is built from the titles alone (assistant-prompts.ts).
 */
export type FeaturePlace = {
  context: FeatureContext
  ids: { projectId: string; releaseId: string; activityId: string }
}

type Row = {
  title: string
  description: string
  projectId: string
  releaseId: string
  activityId: string
  release: string
  activity: string
  goal: string
}

const FEATURE = `select f.title, f.description, f.project_id as projectId, f.milestone_id as releaseId,
    f.subworkflow_id as activityId, m.title as release, s.title as activity, w.title as goal
  from features f join milestones m on m.id = f.milestone_id join subworkflows s on s.id = f.subworkflow_id
    join workflows w on w.id = s.workflow_id
  where f.id = ? and f.workspace_id = ?`

const NEIGHBOURS = `select title from features
  where subworkflow_id = ? and milestone_id = ? and workspace_id = ? and id <> ?
  order by rank limit ${NEIGHBOURS_MAX}`

export function readFeaturePlace(workspaceId: string, featureId: string): FeaturePlace {
  const row = statement(FEATURE).get(featureId, workspaceId) as Row | undefined
  if (!row) throw refuse.notFound('Feature not found.', 'feature_not_found')
  const neighbours = statement(NEIGHBOURS).all(row.activityId, row.releaseId, workspaceId, featureId) as {
    title: string
  }[]
  return {
    context: {
      feature: { title: row.title, description: row.description },
      release: { title: row.release },
      goal: { title: row.goal },
      activity: { title: row.activity },
      neighbours: neighbours.map(({ title }) => ({ title })),
    },
    ids: { projectId: row.projectId, releaseId: row.releaseId, activityId: row.activityId },
  }
}
