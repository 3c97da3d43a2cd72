import type { DeepPartial, LanguageModel } from 'ai'
import type { z } from 'zod'
import type { Env } from '~/lib/env-schema'
import { refuse } from '~/lib/errors'
import { logger } from '~/lib/logger.server'
import { AssistantError } from './assistant-errors'
import {
  ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
  DRAFT_MAP_SYSTEM_PROMPT,
  draftMapUserMessage,
  featureUserMessage,
  SPLIT_FEATURE_SYSTEM_PROMPT,
  type FeatureContext,
} from './assistant-prompts'
import {
  acceptanceCriteriaSchema,
  draftMapSchema,
  splitSuggestionsSchema,
  type AcceptanceCriteria,
  type DraftMap,
  type SplitSuggestions,
} from './assistant-schemas'
import { draftToMapFile, type MapFile } from './draft-map-file'

/**
 * The assistant's calls to the configured model (CONTRACT §16) through the AI SDK
 * (`ai` 7, `@ai-sdk/openai-compatible` 3): `POST {AI_BASE_URL}/chat/completions` with the
 * task's fixed system prompt, the user message, and the task's zod schema as the request's JSON
 * schema; the answer is checked with that schema. An unusable answer (not JSON, off the schema,
 * a 5xx or a dropped connection) is asked for once more, then `assistant_failed`; a 401 or 403
 * (or an unknown model) is `assistant_unavailable` at once; no answer within AI_TIMEOUT_SECONDS,
 * both tries together, is `assistant_timeout`. No HTTP answers and no writes here.
 */

export type AssistantConfig = { baseURL: string; apiKey?: string; model: string; timeoutSeconds: number }

/** The configuration, or null when AI_BASE_URL is unset (no assistant anywhere). */
export function assistantConfigOf(env: Env): AssistantConfig | null {
  if (!env.AI_BASE_URL || !env.AI_MODEL) return null
  return {
    baseURL: env.AI_BASE_URL,
    apiKey: env.AI_API_KEY,
    model: env.AI_MODEL,
    timeoutSeconds: env.AI_TIMEOUT_SECONDS,
  }
}

/** For the routes: the configuration, or 404 `assistant_off`. */
export function requireAssistant(env: Env): AssistantConfig {
  const config = assistantConfigOf(env)
  if (!config) throw refuse.notFound('The assistant is not set up on this server.', 'assistant_off')
  return config
}

/** Optional per call: the caller's signal (the browser went away); the call then ends with its reason. */
export type CallOptions = { signal?: AbortSignal }

// Loaded on first use (ADR 23): the AI SDK is a large part of the server's code, and only a server
// with AI_BASE_URL set ever calls it (not its page threads, never a server without the assistant).
const importSdk = async () => {
  const [ai, compat] = await Promise.all([import('ai'), import('@ai-sdk/openai-compatible')])
  return { ...ai, createOpenAICompatible: compat.createOpenAICompatible }
}
type Sdk = Awaited<ReturnType<typeof importSdk>>
let sdkLoaded: Promise<Sdk> | null = null
const loadSdk = () => (sdkLoaded ??= importSdk())

function modelOf(sdk: Sdk, config: AssistantConfig): LanguageModel {
  const provider = sdk.createOpenAICompatible({
    name: 'assistant',
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    supportsStructuredOutputs: true,
    includeUsage: true,
  })
  return provider.chatModel(config.model)
}

/**
 * `strictJsonSchema: false`: OpenAI's strict mode refuses schemas with length limits, which
 * ours need; the answer is checked with zod either way (docs/decisions/0033-assistant-model.md).
 * `maxRetries: 0`: the one retry is ours, the same for every kind of unusable answer.
 */
const CALL_SETTINGS = {
  maxRetries: 0,
  temperature: 0.4,
  providerOptions: { openaiCompatible: { strictJsonSchema: false } },
} as const

type Task<S extends z.ZodType> = { name: string; description: string; system: string; schema: S }

const TASKS = {
  draft: {
    name: 'story_map',
    description: 'A draft user story map',
    system: DRAFT_MAP_SYSTEM_PROMPT,
    schema: draftMapSchema,
  },
  split: {
    name: 'split_feature',
    description: 'Smaller features',
    system: SPLIT_FEATURE_SYSTEM_PROMPT,
    schema: splitSuggestionsSchema,
  },
  criteria: {
    name: 'acceptance_criteria',
    description: 'Acceptance criteria',
    system: ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
    schema: acceptanceCriteriaSchema,
  },
} satisfies Record<string, Task<z.ZodType>>

/** What went wrong with one try: worth one more try, or final. */
type Verdict = 'retry' | AssistantError

/** One deadline for both tries, ended early if the caller goes away. */
function deadlineOf(config: AssistantConfig, caller?: AbortSignal) {
  const timeout = AbortSignal.timeout(Math.round(config.timeoutSeconds * 1000))
  return { timeout, signal: caller ? AbortSignal.any([timeout, caller]) : timeout }
}

function judge(
  sdk: Sdk,
  error: unknown,
  timeout: AbortSignal,
  caller: AbortSignal | undefined,
  task: string,
): Verdict {
  if (caller?.aborted) throw caller.reason ?? error
  if (timeout.aborted) return new AssistantError('assistant_timeout', { cause: error })
  const status = sdk.APICallError.isInstance(error) ? error.statusCode : undefined
  if (status === 401 || status === 403 || status === 404) {
    logger.warn({ task, status }, 'assistant: the model refused the request')
    return new AssistantError('assistant_unavailable', { cause: error })
  }
  // Not JSON, off the schema, a 5xx, a dropped connection: worth asking once more. No answer text is logged.
  const name = error instanceof Error ? error.name : typeof error
  logger.warn(
    { task, error: name, status, sdk: sdk.AISDKError.isInstance(error) },
    'assistant: unusable answer',
  )
  return 'retry'
}

/** Asks twice at most; the first unusable answer is asked for again, the second is `assistant_failed`. */
async function ask<S extends z.ZodType>(
  config: AssistantConfig,
  task: Task<S>,
  prompt: string,
  options: CallOptions,
): Promise<z.output<S>> {
  const { timeout, signal } = deadlineOf(config, options.signal)
  const sdk = await loadSdk()
  const model = modelOf(sdk, config)
  let last: unknown
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const result = await sdk.generateText({
        ...CALL_SETTINGS,
        model,
        instructions: task.system,
        prompt,
        output: sdk.Output.object({ name: task.name, description: task.description, schema: task.schema }),
        abortSignal: signal,
      })
      return result.output as z.output<S>
    } catch (error) {
      const verdict = judge(sdk, error, timeout, options.signal, task.name)
      if (verdict !== 'retry') throw verdict
      last = error
    }
  }
  throw new AssistantError('assistant_failed', { cause: last })
}

/** `Draft a map`, whole: the draft and its §8 JSON (new ids). */
export async function draftMap(
  config: AssistantConfig,
  description: string,
  options: CallOptions = {},
): Promise<{ draft: DraftMap; map: MapFile }> {
  const draft = await ask(config, TASKS.draft, draftMapUserMessage(description), options)
  return { draft, map: draftToMapFile(draft) }
}

/** `Split into smaller features`. */
export async function suggestSplit(
  config: AssistantConfig,
  context: FeatureContext,
  options: CallOptions = {},
): Promise<SplitSuggestions['suggestions']> {
  return (await ask(config, TASKS.split, featureUserMessage(context), options)).suggestions
}

/** `Acceptance criteria`. */
export async function suggestCriteria(
  config: AssistantConfig,
  context: FeatureContext,
  options: CallOptions = {},
): Promise<AcceptanceCriteria['criteria']> {
  return (await ask(config, TASKS.criteria, featureUserMessage(context), options)).criteria
}

/** What the draft's stream yields: partial previews, a restart when the first answer was unusable, the end. */
export type DraftStreamEvent =
  | { type: 'partial'; draft: DeepPartial<DraftMap> }
  | { type: 'retry' }
  | { type: 'done'; draft: DraftMap; map: MapFile }

/**
 * `Draft a map`, streamed: partial drafts as the model writes them (not yet checked: a preview
 * only), then the checked draft and its §8 JSON. An unusable first answer yields `retry` (the
 * preview starts again) and is asked for once more; failures throw AssistantError as `draftMap`.
 */
export async function* streamDraftMap(
  config: AssistantConfig,
  description: string,
  options: CallOptions = {},
): AsyncGenerator<DraftStreamEvent, void, undefined> {
  const { timeout, signal } = deadlineOf(config, options.signal)
  const sdk = await loadSdk()
  const model = modelOf(sdk, config)
  const task = TASKS.draft
  let last: unknown
  for (let attempt = 1; attempt <= 2; attempt++) {
    if (attempt > 1) yield { type: 'retry' }
    // A failed call ends the stream quietly; onError is where its reason (e.g. a 401) arrives.
    let failure: unknown
    try {
      const result = sdk.streamText({
        ...CALL_SETTINGS,
        model,
        instructions: task.system,
        prompt: draftMapUserMessage(description),
        output: sdk.Output.object({ name: task.name, description: task.description, schema: task.schema }),
        abortSignal: signal,
        onError: ({ error }) => {
          failure ??= error
        },
      })
      for await (const partial of result.partialOutputStream) yield { type: 'partial', draft: partial }
      const draft = await result.output
      yield { type: 'done', draft, map: draftToMapFile(draft) }
      return
    } catch (error) {
      const verdict = judge(sdk, failure ?? error, timeout, options.signal, task.name)
      if (verdict !== 'retry') throw verdict
      last = failure ?? error
    }
  }
  throw new AssistantError('assistant_failed', { cause: last })
}
