import { expect, test } from '@playwright/test'
import { signUpThroughForm } from './helpers'

test('the create project dialog shows the SPEC messages, then creates the project', async ({ page }) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  // An empty list points to the two ways to start (issue 43).
  await expect(page.getByText('No projects', { exact: true })).toBeVisible()
  await expect(
    page.getByText(
      'Start a story map with New project, or bring one in from a CSV or JSON file with Import project.',
    ),
  ).toBeVisible()
  await page.getByRole('link', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create project' })
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('Title required.')).toBeVisible()
  await dialog.getByLabel('Title').fill('   ')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('Project minimum 1 character.')).toBeVisible()
  await dialog.getByLabel('Title').fill('x'.repeat(201))
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('Project maximum 200 characters.')).toBeVisible()
  await dialog.getByRole('link', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('0 projects')).toBeVisible()

  await page.getByRole('link', { name: 'New project' }).click()
  await dialog.getByLabel('Title').fill('Roadmap')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: 'Roadmap', level: 1 })).toBeVisible()
  await page.getByRole('link', { name: 'Projects', exact: true }).first().click()
  await expect(page.getByText('1 project', { exact: true })).toBeVisible()
  await expect(page.getByText(new RegExp(`^Created .+ by ${user.name}$`))).toBeVisible()
})

test("an unknown project, or another workspace's, shows Project not found", async ({ page, browser }) => {
  const user = await signUpThroughForm(page)
  const response = await page.goto(`/${user.workspaceName}/projects/${crypto.randomUUID()}`)
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: 'Projects' }).click()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()

  // A project of someone else's workspace cannot be reached through one's own.
  await page.getByRole('link', { name: 'New project' }).click()
  await page.getByRole('dialog', { name: 'Create project' }).getByLabel('Title').fill('Private plans')
  await page.getByRole('dialog', { name: 'Create project' }).getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: 'Private plans', level: 1 })).toBeVisible()
  const projectId = new URL(page.url()).pathname.split('/').pop()!

  const other = await browser.newContext()
  const stranger = await other.newPage()
  const them = await signUpThroughForm(stranger)
  await stranger.goto(`/${them.workspaceName}/projects/${projectId}`)
  await expect(stranger.getByRole('heading', { name: 'Project not found' })).toBeVisible()
  await expect(stranger.getByText('Private plans')).toHaveCount(0)
  await other.close()
})
