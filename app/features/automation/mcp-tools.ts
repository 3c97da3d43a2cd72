import { z } from 'zod'
import { ANNOTATIONS, COLORS, ESTIMATE_MAX, TITLE_MAX } from '~/features/map/vocabulary'

/**
 * The MCP tools of CONTRACT §10: names, what an assistant reads to choose one, and their inputs.
 * Inputs are loose on purpose (ids are plain strings): a bad id or a too-long title must come
 * back as a tool error in words from the same checks as /v1, not as a protocol error.
 */

const id = (what: string) => z.string().describe(what)
const title = z.string().describe(`The title, 1–${TITLE_MAX} characters.`)
const description = z.string().optional().describe('A description, Markdown allowed.')
const color = z
  .string()
  .optional()
  .describe(`A colour: ${COLORS.join(', ')}, or "" for none.`)
const annotations = z
  .array(z.string())
  .optional()
  .describe(`Annotations, any of: ${ANNOTATIONS.join(', ')}. Replaces the card's annotations.`)
const size = z.number().optional().describe(`A feature's size, a whole number 0–${ESTIMATE_MAX} (0: none).`)

const IDS = 'Ids are UUIDs as get_story_map shows them in brackets.'
const WRITES =
  'Needs a token with write scope. The change shows live on open boards, in the activity as "… via <token name>", and undo takes it back.'

export const MCP_TOOLS = {
  list_projects: {
    title: 'List story maps',
    description:
      "Lists the story maps (projects) of the token's workspace: id, title and how many goals, activities, releases and features each has.",
    input: {},
    writes: false,
  },
  get_story_map: {
    title: 'Read a story map',
    description: `Reads a whole story map as an outline: releases top to bottom, then goals › activities left to right with the features in each release (size, colour, annotations, closed, comments), every card with its id. structuredContent holds the full JSON bundle. ${IDS}`,
    input: { projectId: id('The project (story map) id, from list_projects.') },
    writes: false,
  },
  search_cards: {
    title: 'Search features',
    description:
      "Finds features of a story map whose title, description or comments contain every word of the query, as the board's search does (case and accents ignored). Answers each with its id, release and activity.",
    input: {
      projectId: id('The project id.'),
      query: z.string().describe('Words to find, e.g. "pay card".'),
    },
    writes: false,
  },
  add_goal: {
    title: 'Add a goal',
    description: `Adds a goal (a column group at the top) at the end of the map's goals. Answers its id. ${WRITES}`,
    input: { projectId: id('The project id.'), title, description, color, annotations },
    writes: true,
  },
  add_activity: {
    title: 'Add an activity',
    description: `Adds an activity (a column) at the end of a goal's activities. Answers its id. ${WRITES}`,
    input: { goalId: id('The goal it goes under.'), title, description, color, annotations },
    writes: true,
  },
  add_release: {
    title: 'Add a release',
    description: `Adds a release (a row) at the bottom of the map. Answers its id. ${WRITES}`,
    input: { projectId: id('The project id.'), title, description, color, annotations },
    writes: true,
  },
  add_feature: {
    title: 'Add a feature',
    description: `Adds a feature card at the end of the cell of an activity and a release. Answers its id. ${WRITES}`,
    input: {
      activityId: id('The activity (column) it goes in.'),
      releaseId: id('The release (row) it goes in.'),
      title,
      description,
      size,
      color,
      annotations,
    },
    writes: true,
  },
  update_card: {
    title: 'Change a card',
    description: `Changes any of title, description, size (features only), colour, annotations and status (OPEN or CLOSED) of a goal, activity, release or feature, as one change. ${IDS} ${WRITES}`,
    input: {
      id: id('The card id.'),
      title: title.optional(),
      description,
      size,
      color,
      annotations,
      status: z.string().optional().describe('OPEN or CLOSED.'),
    },
    writes: true,
  },
  move_card: {
    title: 'Move a card',
    description: `Moves a card: a feature to another cell (activityId and releaseId), an activity under another goal (goalId), or a goal or release within its list. It goes before beforeId, or at the end without it. ${IDS} ${WRITES}`,
    input: {
      id: id('The card to move.'),
      goalId: id('For an activity: the goal it goes under.').optional(),
      activityId: id('For a feature: the activity of its new cell.').optional(),
      releaseId: id('For a feature: the release of its new cell.').optional(),
      beforeId: id('The card of the same list it goes before; left out: at the end.').optional(),
    },
    writes: true,
  },
  delete_card: {
    title: 'Delete a card',
    description: `Deletes a goal, activity, release or feature with everything under it, to the project's trash (restorable for 30 days; undo also brings it back). ${WRITES}`,
    input: { id: id('The card id.') },
    writes: true,
  },
  add_comment: {
    title: 'Comment on a feature',
    description: `Adds a comment to a feature as the token's member. ${WRITES}`,
    input: {
      featureId: id('The feature id.'),
      text: z.string().describe('The comment, up to 10,000 characters.'),
    },
    writes: true,
  },
  undo: {
    title: 'Undo',
    description: `Undoes the token member's most recent change on a story map that is not undone yet (made on the board, by the API or by these tools). Answers what it undid. ${WRITES}`,
    input: { projectId: id('The project id.') },
    writes: true,
  },
} satisfies Record<string, { title: string; description: string; input: z.ZodRawShape; writes: boolean }>

export type McpToolName = keyof typeof MCP_TOOLS
