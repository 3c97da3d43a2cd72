import { expect, request, test } from '@playwright/test'
import { signUpThroughForm } from './helpers'

/**
 * A member makes an API token in account settings, a script uses it, the board says which
 * changes came through it, and once revoked it is refused (CONTRACT §10).
 */
test('make a token, script the map with it, see it in Activity and workspace settings, revoke it', async ({
  page,
  baseURL,
}) => {
  const user = await signUpThroughForm(page)
  await page.goto('/account/settings')
  const section = page.getByRole('region', { name: 'API tokens' })
  await expect(section.getByText('No tokens yet.')).toBeVisible()

  // A name is required, and the form says so without losing the other choices.
  await section.getByLabel('Scope').selectOption('Read and write')
  await section.getByRole('button', { name: 'Create token' }).click()
  await expect(section.getByText('Name is required.')).toBeVisible()
  await expect(section.getByLabel('Scope')).toHaveValue('write')

  await section.getByLabel('Token name').fill('CI sync')
  await section.getByRole('button', { name: 'Create token' }).click()
  await expect(section.getByRole('status')).toContainText('Copy it now: it will not be shown again.')
  const secret = await section.getByLabel('New token').inputValue()
  expect(secret).toMatch(/^smp_[0-9A-Za-z]{32,}$/)
  await expect(section.getByRole('button', { name: 'Copy token' })).toBeVisible()
  await expect(section.getByLabel('Token name')).toHaveValue('')
  await expect(section.getByRole('row', { name: /CI sync/ })).toContainText('Never')

  // A script, with no cookie: it makes a project and a goal in the member's workspace.
  const script = await request.newContext({
    baseURL,
    extraHTTPHeaders: { Authorization: `Bearer ${secret}` },
  })
  const projectId = crypto.randomUUID()
  expect((await script.post(`/v1/projects/${projectId}`, { data: { title: 'Scripted map' } })).status()).toBe(
    200,
  )
  const goal = await script.post(`/v1/workflows/${crypto.randomUUID()}`, {
    data: { projectId, title: 'Checkout' },
  })
  expect(goal.status()).toBe(200)

  // The secret is not shown again; the list says when the token was last used.
  await page.reload()
  await expect(section.getByLabel('New token')).toHaveCount(0)
  expect(await page.content()).not.toContain(secret)
  await expect(section.getByRole('row', { name: /CI sync/ })).not.toContainText('Never')

  // The board shows who did it, and through which token.
  await page.goto(`/${user.workspaceName}/projects/${projectId}`)
  await expect(page.getByRole('link', { name: /^Checkout \(goal/ })).toBeVisible()
  await page.getByRole('button', { name: 'Activity', exact: true }).click()
  const activity = page.getByRole('complementary', { name: 'Activity' })
  await expect(activity.getByRole('listitem').first()).toContainText(`${user.name} via CI sync`)

  // The workspace's owner sees every member's tokens there too.
  await page.goto(`/${user.workspaceName}/settings`)
  const workspaceTokens = page.getByRole('region', { name: 'API tokens' })
  await expect(workspaceTokens.getByRole('row', { name: /CI sync/ })).toContainText(user.name)

  // Revoking asks once more, then the script is refused at once.
  await page.goto('/account/settings')
  await section.getByRole('link', { name: 'Revoke CI sync' }).click()
  await expect(section.getByText('Scripts using it stop working at once.')).toBeVisible()
  await section.getByRole('button', { name: 'Revoke token' }).click()
  await expect(page.getByRole('status').getByText('Token revoked.')).toBeVisible()
  await expect(section.getByText('No tokens yet.')).toBeVisible()
  const refused = await script.get('/v1/projects')
  expect(refused.status()).toBe(401)
  expect((await refused.json()).error).toBe('invalid_token')
  await script.dispose()
})
