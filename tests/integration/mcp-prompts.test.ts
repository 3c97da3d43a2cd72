import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
  DRAFT_MAP_SYSTEM_PROMPT,
  draftMapUserMessage,
  SPLIT_FEATURE_SYSTEM_PROMPT,
} from '~/features/assistant'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp, type Client } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/**
 * The assistant's MCP prompts (CONTRACT §10, §16) with the SDK's own client, on a server without
 * AI_BASE_URL: an assistant that brings its own model gets the same instructions and context.
 */
let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let ids: Awaited<ReturnType<typeof makeBoard>>
let secret: string
let reader: McpClient
let stranger: McpClient

async function token(client: Client, workspaceId: string, scope: 'read' | 'write') {
  const res = await client.post('/v1/account/tokens', { name: 'Assistant', workspaceId, scope })
  expect(res.status, res.text).toBe(201)
  return res.json.secret as string
}

async function connect(bearer: string) {
  const client = new McpClient({ name: 'storymap-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    }),
  )
  return client
}

const textOf = (result: { messages: { role: string; content: { type: string; text?: string } }[] }) => {
  expect(result.messages).toHaveLength(1)
  expect(result.messages[0].role).toBe('user')
  return result.messages[0].content.text ?? ''
}

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url)
  ids = await makeBoard(owner.client)
  secret = await token(owner.client, owner.workspaceId, 'read')
  const described = await owner.client.post(`/v1/features/${ids.feature}/description`, {
    description: `Check with ${owner.email}; the bot uses ${secret}.`,
  })
  expect(described.status, described.text).toBe(200)
  reader = await connect(secret)
  const other = await signUp(server.url)
  stranger = await connect(await token(other.client, other.workspaceId, 'write'))
})
afterAll(async () => {
  await reader?.close()
  await stranger?.close()
  await server?.stop()
})

describe('the assistant’s prompts', () => {
  it('are listed with their arguments', async () => {
    const { prompts } = await reader.listPrompts()
    const byName = Object.fromEntries(prompts.map((p) => [p.name, p]))
    expect(Object.keys(byName).sort()).toEqual(['acceptance_criteria', 'draft_story_map', 'split_feature'])
    expect(byName.draft_story_map.arguments).toEqual([
      expect.objectContaining({ name: 'description', required: true }),
    ])
    for (const name of ['split_feature', 'acceptance_criteria'])
      expect(byName[name].arguments).toEqual([expect.objectContaining({ name: 'featureId', required: true })])
    for (const prompt of prompts) expect(prompt.description).toBeTruthy()
  })

  it('draft_story_map: the fixed instructions, the answer’s schema and the description', async () => {
    const description = 'A shared calendar for a climbing club.'
    const text = textOf(await reader.getPrompt({ name: 'draft_story_map', arguments: { description } }))
    expect(text).toContain(DRAFT_MAP_SYSTEM_PROMPT)
    expect(text).toContain(draftMapUserMessage(description))
    expect(text).toContain('"releases"')
    await expect(
      reader.getPrompt({ name: 'draft_story_map', arguments: { description: '' } }),
    ).rejects.toThrow()
  })

  it('split_feature and acceptance_criteria: the feature’s context, read with the token, nothing written', async () => {
    const before = (await bundle(owner.client, ids.project)).version
    const split = textOf(
      await reader.getPrompt({ name: 'split_feature', arguments: { featureId: ids.feature } }),
    )
    expect(split).toContain(SPLIT_FEATURE_SYSTEM_PROMPT)
    for (const title of ['Feature', 'Release: Release', 'Goal: Goal', 'Activity: Activity'])
      expect(split).toContain(title)
    expect(split).toContain(`activityId ${ids.subworkflow}, releaseId ${ids.milestone}`)
    expect(split).toContain('"suggestions"')

    const criteria = textOf(
      await reader.getPrompt({ name: 'acceptance_criteria', arguments: { featureId: ids.feature } }),
    )
    expect(criteria).toContain(ACCEPTANCE_CRITERIA_SYSTEM_PROMPT)
    expect(criteria).toContain(`update_card tool (id ${ids.feature})`)
    for (const text of [split, criteria]) {
      expect(text).not.toContain(owner.email)
      expect(text).not.toContain(secret)
      expect(text).toContain('[e-mail address]')
    }
    expect((await bundle(owner.client, ids.project)).version).toBe(before)
  })

  it('another workspace’s feature, an unknown one and a malformed id are refused', async () => {
    for (const featureId of [ids.feature, uuid(), 'not-an-id'])
      await expect(stranger.getPrompt({ name: 'split_feature', arguments: { featureId } })).rejects.toThrow(
        /No feature with this id/,
      )
  })
})
