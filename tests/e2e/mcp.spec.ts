import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { expect, test } from '@playwright/test'
import { card } from './board-helpers'
import { openSeededBoard } from './map-fixture'

/** An AI assistant adds a card over MCP (CONTRACT §10); the open board shows it without a reload, and says who. */
test('an open board shows a card an MCP call adds, live', async ({ page, baseURL }) => {
  const map = await openSeededBoard(page, baseURL!)
  const made = await map.owner.client.post('/v1/account/tokens', {
    name: 'Claude',
    workspaceId: map.owner.workspaceId,
    scope: 'write',
  })
  expect(made.status).toBe(201)
  const assistant = new McpClient({ name: 'e2e', version: '1.0.0' })
  await assistant.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseURL), {
      requestInit: { headers: { Authorization: `Bearer ${made.json.secret}` } },
    }),
  )
  const navigations: string[] = []
  page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()))

  const answer = await assistant.callTool({
    name: 'add_feature',
    arguments: {
      activityId: map.ids.get('Pay'),
      releaseId: map.ids.get('MVP'),
      title: 'Pay with a QR code',
      size: 3,
    },
  })
  expect(answer.isError).toBeFalsy()
  await expect(card(page, 'Feature', 'Pay with a QR code')).toBeVisible()
  expect(navigations).toEqual([])

  await page.getByRole('button', { name: 'Activity', exact: true }).click()
  const latest = page.getByRole('complementary', { name: 'Activity' }).getByRole('listitem').first()
  await expect(latest).toContainText("Added feature 'Pay with a QR code'")
  await expect(latest).toContainText('via Claude')
  await assistant.close()
})
