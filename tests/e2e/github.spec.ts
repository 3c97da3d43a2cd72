import { expect, test, type Browser, type Page } from '@playwright/test'
import { FakeGithub } from '../support/fake-github'
import { buildSmallMap, card, e2eDatabase, settle } from './board-helpers'
import { axeOn, signUpThroughForm, uniqueUser } from './helpers'

/**
 * GitHub Issues sync (CONTRACT §13), the whole journey against the fake GitHub on loopback:
 * link a repository, push a feature, close its issue on "GitHub", see it closed live on the
 * board, undo (the issue reopens).
 */
const REPO = 'acme/shop'
let github: FakeGithub
// One fake GitHub on the port the server was given: the tests of this file share one worker.
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  github = await new FakeGithub().start(Number(new URL(test.info().project.use.baseURL!).port) + 1)
  github.addRepo(REPO)
  github.addToken('github_pat_e2e', [REPO])
})
test.afterAll(async () => {
  await github?.stop()
})

/** A second member, an EDITOR of the workspace, with the board open in their own browser. */
async function editorOn(browser: Browser, workspaceName: string, projectUrl: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const user = await signUpThroughForm(page, { ...uniqueUser(), name: 'Bea Editor' })
  const db = e2eDatabase()
  db.prepare(
    `insert into members (id, workspace_id, account_id, level, created_at)
     select ?, w.id, a.id, 'EDITOR', ? from workspaces w, accounts a where w.name = ? and a.email = ?`,
  ).run(crypto.randomUUID(), new Date().toISOString(), workspaceName, user.email)
  db.close()
  await page.goto(projectUrl)
  return { page, context }
}

/** axe's WCAG 2.1 A and AA rules on a dialog, in the light and the dark theme. */
async function expectNoAxeFindings(page: Page, selector: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    const results = await axeOn(page)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .include(selector)
      .analyze()
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
    expect(serious, colorScheme).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('link, push, close on GitHub, see it closed live, undo', async ({ page }) => {
  await buildSmallMap(page)

  // Link from the board menu: the token is checked at once and not shown again.
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'GitHub' }).click()
  const dialog = page.getByRole('dialog', { name: 'GitHub' })
  await expect(dialog.getByText('This project is not linked to a GitHub repository.')).toBeVisible()
  await dialog.getByLabel('Repository').fill(REPO)
  await dialog.getByLabel('Token').fill('wrong')
  await dialog.getByRole('button', { name: 'Link repository' }).click()
  await expect(dialog.getByRole('alert')).toContainText('GitHub refused the token')
  await dialog.getByLabel('Token').fill('github_pat_e2e')
  await dialog.getByRole('button', { name: 'Link repository' }).click()
  await expect(dialog.getByRole('status')).toHaveText(`Linked to ${REPO}.`)
  await expect(dialog.getByRole('region', { name: 'Repository' })).toContainText(`Linked to ${REPO} by`)
  // GITHUB_API_URL is the fake here, not api.github.com: the repository's page is on the same host.
  await expect(dialog.getByRole('link', { name: REPO })).toHaveAttribute('href', `${github.url}/${REPO}`)
  await expect(dialog.getByText('Status: Syncing')).toBeVisible()
  await expect(dialog.getByRole('textbox', { name: 'Secret' })).toHaveValue(/^[0-9a-f]{64}$/)
  await expectNoAxeFindings(page, '.github-dialog')
  expect(await page.content()).not.toContain('github_pat_e2e')
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  // The menu item that opened it is gone: focus returns to the menu's button.
  await expect(page.getByRole('button', { name: 'Project menu' })).toBeFocused()

  // Push a feature from its dialog: the tile shows #1.
  await card(page, 'Feature', 'Card payment').click()
  const feature = page.getByRole('dialog', { name: 'Feature card' })
  await feature.getByRole('button', { name: 'Create GitHub issue' }).click()
  await expect(feature.getByRole('link', { name: '#1' })).toHaveAttribute(
    'href',
    `https://github.com/${REPO}/issues/1`,
  )
  // The button is gone: focus is on the issue's link.
  await expect(feature.getByRole('link', { name: '#1' })).toBeFocused()
  await expect(feature.getByText('open', { exact: true })).toBeVisible()
  await expectNoAxeFindings(page, '.modal')
  await feature.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(card(page, 'Feature', 'Card payment').getByTestId('card-issue')).toHaveText('#1')
  expect(github.issue(REPO, 1)).toMatchObject({ title: 'Card payment', state: 'open' })
  await settle(page)

  // The release's Send to GitHub makes the other two, and says how many (issue 43).
  await card(page, 'Release', 'MVP').click()
  const release = page.getByRole('dialog', { name: 'Release card' })
  await release.getByRole('button', { name: 'Send to GitHub' }).click()
  await expect(release.getByRole('status')).toHaveText('2 GitHub issues made.')
  await release.getByRole('button', { name: 'Send to GitHub' }).click()
  await expect(release.getByRole('status')).toHaveText(
    'No GitHub issue made: every open feature of this release has one already.',
  )
  await release.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(card(page, 'Feature', 'Filters').getByTestId('card-issue')).toHaveText(/^#[23]$/)
  await settle(page)

  // Someone closes the issue on GitHub: the open board shows the feature closed, live.
  await page.getByLabel('Show closed').check()
  github.edit(REPO, 1, { state: 'closed' })
  await expect(card(page, 'Feature', 'Card payment')).toHaveAccessibleName('Card payment (feature, closed)', {
    timeout: 15_000,
  })
  await page.getByRole('button', { name: 'Activity', exact: true }).click()
  const activity = page.getByRole('complementary', { name: 'Activity' })
  await expect(activity.getByRole('listitem').first()).toContainText("Closed feature 'Card payment'")
  await expect(activity.getByRole('listitem').first()).toContainText('via GitHub')

  // Undo (the linking member's) takes it back, and the issue follows.
  await settle(page)
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(card(page, 'Feature', 'Card payment')).toHaveAccessibleName('Card payment (feature)')
  await expect.poll(() => github.issue(REPO, 1)!.state, { timeout: 15_000 }).toBe('open')
})

test('a refused token stops the sync and the board says so, with the way to fix it', async ({
  page,
  browser,
}) => {
  github.addRepo('acme/refused')
  github.addToken('github_pat_soon_revoked', ['acme/refused'])
  const { user, projectUrl } = await buildSmallMap(page)
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'GitHub' }).click()
  const dialog = page.getByRole('dialog', { name: 'GitHub' })
  await dialog.getByLabel('Repository').fill('acme/refused')
  await dialog.getByLabel('Token').fill('github_pat_soon_revoked')
  await dialog.getByRole('button', { name: 'Link repository' }).click()
  await expect(dialog.getByRole('status')).toHaveText('Linked to acme/refused.')

  github.revokeToken('github_pat_soon_revoked')
  await dialog.getByRole('button', { name: 'Sync now' }).click()
  await expect(dialog.getByRole('alert').first()).toContainText('GitHub refused the token')
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  const notice = page.getByRole('alert').filter({ hasText: 'GitHub sync stopped: the token was refused.' })
  await expect(notice).toBeVisible()

  // An editor cannot fix it, and is told who can (issue 43).
  const editor = await editorOn(browser, user.workspaceName, projectUrl)
  const editorNotice = editor.page
    .getByRole('alert')
    .filter({ hasText: 'GitHub sync stopped: the token was refused.' })
  await expect(editorNotice).toContainText(`Ask ${user.name} or an admin to relink.`)
  await expect(editorNotice.getByRole('button', { name: 'Fix the GitHub link' })).toHaveCount(0)
  await editor.context.close()

  await notice.getByRole('button', { name: 'Fix the GitHub link' }).click()
  const fix = page.getByRole('dialog', { name: 'GitHub' })
  await expect(fix.getByText('Status: GitHub sync stopped: the token was refused.')).toBeVisible()
  // Relinking is a new token for the same repository: the form has the repository filled in.
  await expect(fix.getByRole('textbox', { name: 'Repository' })).toHaveValue('acme/refused')
  await expect(fix.getByRole('button', { name: 'Relink repository' })).toBeVisible()

  // Unlink asks first; Cancel keeps the link and gives the focus back.
  await fix.getByRole('button', { name: 'Unlink' }).click()
  const ask = fix.getByRole('group', { name: 'Unlink the repository?' })
  await expect(ask).toContainText('Unlink acme/refused? Sync stops; the features keep their issue numbers.')
  await expect(ask.getByRole('button', { name: 'Yes, unlink' })).toBeFocused()
  await expectNoAxeFindings(page, '.github-dialog')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(ask).toBeHidden()
  await expect(fix.getByRole('button', { name: 'Unlink' })).toBeFocused()
  await expect(fix.getByRole('region', { name: 'Repository' })).toContainText('Linked to acme/refused')

  // Unlinking ends it: the notice goes, and focus moves from the vanished button to the outcome.
  await fix.getByRole('button', { name: 'Unlink' }).click()
  await ask.getByRole('button', { name: 'Yes, unlink' }).click()
  await expect(fix.getByText('This project is not linked to a GitHub repository.')).toBeVisible()
  await expect(fix.getByRole('status')).toHaveText('Unlinked.')
  await expect(fix.getByRole('status')).toBeFocused()
  await expect(notice).toHaveCount(0)
})
