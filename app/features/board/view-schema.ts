import { z } from 'zod'
import { MAX_FOLDED, MAX_FOLDED_ID, type MapView } from './overview'

const foldedIds = z.array(z.string().max(MAX_FOLDED_ID)).max(MAX_FOLDED)

/** The body of `PUT /v1/projects/{id}/view` and the answer of its GET (CONTRACT §15). */
export const mapViewSchema = z
  .object({
    collapsedWorkflows: foldedIds,
    collapsedMilestones: foldedIds,
    zoom: z.union([z.literal(100), z.literal(75), z.literal(50), z.literal(25)]),
  })
  .meta({
    id: 'MapView',
    description: 'Folded goals (workflows) and releases (milestones), and the zoom in %.',
  }) satisfies z.ZodType<MapView>
