import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import {
  ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
  acceptanceCriteriaSchema,
  DRAFT_DESCRIPTION_MAX,
  DRAFT_MAP_SYSTEM_PROMPT,
  draftMapSchema,
  draftMapUserMessage,
  featureUserMessage,
  SPLIT_FEATURE_SYSTEM_PROMPT,
  splitSuggestionsSchema,
} from '~/features/assistant'
import { readFeaturePlace, type FeaturePlace } from '~/features/assistant/index.server'
import { DomainError } from '~/lib/errors'
import { isUuid } from '~/lib/ids'
import type { TokenAuth } from './api-token.server'

/**
 * The assistant's help as MCP prompts (CONTRACT §10, §16), for an assistant that brings its own
 * model: the same fixed instructions, the answer's JSON schema, and the same user message the
 * server's model gets (the description, or the feature's context read within the token's
 * workspace), plus how to apply the answer with the tools once the person accepts it. Reading
 * a feature is all a prompt does, so any token of the workspace may ask for one.
 */

type PromptResult = {
  description: string
  messages: { role: 'user'; content: { type: 'text'; text: string } }[]
}

function prompt(description: string, parts: string[]): PromptResult {
  return { description, messages: [{ role: 'user', content: { type: 'text', text: parts.join('\n\n') } }] }
}

const answerShape = (schema: z.ZodType) =>
  `Answer with one JSON object that matches this JSON schema:\n${JSON.stringify(z.toJSONSchema(schema))}`

function featureOf(auth: TokenAuth, featureId: string): FeaturePlace {
  const refused = () => new McpError(ErrorCode.InvalidParams, 'No feature with this id in this workspace.')
  if (!isUuid(featureId)) throw refused()
  try {
    return readFeaturePlace(auth.context.workspace.id, featureId.toLowerCase())
  } catch (error) {
    if (error instanceof DomainError) throw refused()
    throw error
  }
}

const featureId = z.string().describe('The feature’s id, as get_story_map shows it in brackets.')

/** Registers `draft_story_map`, `split_feature` and `acceptance_criteria` on a request's server. */
export function registerAssistantPrompts(server: McpServer, auth: TokenAuth) {
  server.registerPrompt(
    'draft_story_map',
    {
      title: 'Draft a story map',
      description: 'Drafts goals, activities, three releases and features for a product you describe.',
      argsSchema: {
        description: z
          .string()
          .trim()
          .min(1)
          .max(DRAFT_DESCRIPTION_MAX)
          .describe(`What the product is and who uses it (up to ${DRAFT_DESCRIPTION_MAX} characters).`),
      },
    },
    ({ description }) =>
      prompt('Draft a story map', [
        DRAFT_MAP_SYSTEM_PROMPT,
        answerShape(draftMapSchema),
        draftMapUserMessage(description),
        'Show the draft to the person first; nothing is added to a map until they accept it.',
      ]),
  )
  server.registerPrompt(
    'split_feature',
    {
      title: 'Split a feature',
      description: 'Suggests 3–6 smaller features that together do what one feature of a story map does.',
      argsSchema: { featureId },
    },
    (args) => {
      const { context, ids } = featureOf(auth, args.featureId)
      return prompt(`Split "${context.feature.title}" into smaller features`, [
        SPLIT_FEATURE_SYSTEM_PROMPT,
        answerShape(splitSuggestionsSchema),
        featureUserMessage(context),
        `Show the suggestions first. Add only those the person accepts, each with the add_feature tool (activityId ${ids.activityId}, releaseId ${ids.releaseId}).`,
      ])
    },
  )
  server.registerPrompt(
    'acceptance_criteria',
    {
      title: 'Acceptance criteria',
      description: 'Writes acceptance criteria for one feature of a story map.',
      argsSchema: { featureId },
    },
    (args) => {
      const { context } = featureOf(auth, args.featureId)
      return prompt(`Acceptance criteria for "${context.feature.title}"`, [
        ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
        answerShape(acceptanceCriteriaSchema),
        featureUserMessage(context),
        `Show the criteria first. If the person accepts them, append them to the feature's description under a "### Acceptance criteria" heading as a checklist ("- [ ] …"), with the update_card tool (id ${args.featureId.toLowerCase()}).`,
      ])
    },
  )
}
