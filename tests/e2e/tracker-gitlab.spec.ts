import { expect, test } from '@playwright/test'
import { DEVELOPER, FakeGitlab } from '../support/fake-gitlab'
import { buildSmallMap, card, settle } from './board-helpers'

/**
 * GitLab through the Tracker dialog (CONTRACT §14), against the fake GitLab on loopback: link,
 * create an issue from the card, send the release, close the issue on GitLab, see it closed and
 * counted as done live, undo (the issue reopens).
 */
const PATH = 'acme/shop'
let gitlab: FakeGitlab

test.beforeAll(async () => {
  gitlab = await new FakeGitlab().start({ prefix: '/gitlab' })
  gitlab.addProject(PATH)
  gitlab.addToken('glpat-e2e', { projects: { [PATH]: DEVELOPER }, expiresAt: '2099-12-31' })
})
test.afterAll(async () => {
  await gitlab?.stop()
})

test('link GitLab, create an issue, send the release, close on GitLab, see it live and done in progress, undo', async ({
  page,
}) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'Tracker' }).click()
  const dialog = page.getByRole('dialog', { name: 'Tracker' })
  await expect(dialog.getByText('This project is not linked to a tracker.')).toBeVisible()
  await dialog.getByLabel('Tracker').selectOption('gitlab')
  await expect(dialog.getByText('with the api scope')).toBeVisible()
  await dialog.getByLabel('GitLab address').fill(gitlab.url)
  await dialog.getByLabel('Project (group/name)').fill(PATH)
  await dialog.getByLabel('Token').fill('wrong')
  await dialog.getByRole('button', { name: 'Link', exact: true }).click()
  await expect(dialog.getByRole('alert')).toContainText('The tracker refused the token')
  await dialog.getByLabel('Token').fill('glpat-e2e')
  await dialog.getByRole('button', { name: 'Link', exact: true }).click()
  await expect(dialog.getByRole('status')).toHaveText(`Linked to GitLab ${PATH}.`)
  await expect(dialog.getByRole('region', { name: 'Link' })).toContainText(`Linked to GitLab ${PATH} by`)
  await expect(dialog.getByText('The token expires on 2099-12-31.')).toBeVisible()
  expect(await page.content()).not.toContain('glpat-e2e')
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()

  await card(page, 'Feature', 'Card payment').click()
  const feature = page.getByRole('dialog', { name: 'Feature card' })
  await feature.getByRole('button', { name: 'Create issue' }).click()
  await expect(feature.getByRole('link', { name: '#1' })).toBeFocused()
  await feature.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(card(page, 'Feature', 'Card payment').getByTestId('card-issue')).toHaveText('#1')
  expect(gitlab.issue(PATH, 1)).toMatchObject({ title: 'Card payment', state: 'opened' })
  await settle(page)

  await card(page, 'Release', 'MVP').click()
  const release = page.getByRole('dialog', { name: 'Release card' })
  await release.getByRole('button', { name: 'Send to tracker' }).click()
  await expect(release.getByRole('status')).toHaveText('Created 2 issues.')
  await release.getByRole('button', { name: 'Close', exact: true }).click()
  expect(gitlab.milestones(PATH).map((m) => m.title)).toEqual(['MVP'])
  await settle(page)

  // An issue closed on GitLab is done on the board (CONTRACT §15), Show closed or not.
  const progress = page.getByRole('region', { name: 'Release MVP' }).locator('.progress-text')
  await expect(progress).toHaveText('0 of 3 done')
  await expect(card(page, 'Goal', 'Shop').locator('.card-progress')).toHaveAttribute('data-text', '0/3')
  await gitlab.edit(PATH, 1, { state: 'closed' })
  await expect(progress).toHaveText('1 of 3 done', { timeout: 15_000 })
  await expect(card(page, 'Feature', 'Card payment')).toHaveCount(0)
  await expect(card(page, 'Goal', 'Shop').locator('.card-progress')).toHaveAttribute('data-text', '1/3')
  await expect(card(page, 'Activity', 'Pay').locator('.card-progress')).toHaveAttribute('data-text', '1/1')
  await page.getByLabel('Show closed').check()
  await expect(card(page, 'Feature', 'Card payment')).toHaveAccessibleName('Card payment (feature, closed)')
  await expect(progress).toHaveText('1 of 3 done')
  await settle(page)
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(card(page, 'Feature', 'Card payment')).toHaveAccessibleName('Card payment (feature)')
  await expect(progress).toHaveText('0 of 3 done')
  await expect.poll(() => gitlab.issue(PATH, 1)!.state, { timeout: 15_000 }).toBe('opened')
})
