import { expect, test, type Page } from '@playwright/test'
import { createProject } from './board-helpers'
import { accountMenu, signUpThroughForm, uniqueUser } from './helpers'
import { startMailServer, type MailServer } from './mail-server'

// Invitations arrive by e-mail: this file runs its own server, mailing to an in-process SMTP
// mailbox, and its tests share it in one worker.
test.describe.configure({ mode: 'default' })

let app: MailServer
test.beforeAll(async () => {
  app = await startMailServer()
})
test.afterAll(async () => {
  await app?.stop()
})

/** A table row's accessible name holds its cells' text. */
const byEmail = (email: string) => new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))

async function openWorkspaceSettings(page: Page) {
  await accountMenu(page).click()
  await page.getByRole('menuitem', { name: 'Workspace settings' }).click()
  await expect(page.getByRole('heading', { name: 'Workspace settings' })).toBeVisible()
}

/** Sends an invitation from the settings page and returns the link mailed to `email`. */
async function invite(page: Page, email: string, level?: 'Editor' | 'Admin') {
  const invites = page.getByRole('region', { name: 'Workspace invites' })
  const since = app.mark()
  await invites.getByLabel('Email').fill(email)
  // The level picker shows words; the form still sends the codes.
  if (level) await invites.getByLabel('Level').selectOption({ label: level })
  await invites.getByRole('button', { name: 'Send invite' }).click()
  await expect(page.getByText('Invite sent', { exact: true })).toBeVisible()
  // With mail set up the link is in the mail only.
  await expect(invites.getByRole('button', { name: /^Copy invitation link/ })).toHaveCount(0)
  const row = invites.getByRole('row', { name: byEmail(email) })
  await expect(row).toContainText(level ?? 'Viewer')
  await expect(row).not.toContainText(/VIEWER|EDITOR|ADMIN/)
  return app.linkTo(email, 'invitation', since)
}

const memberRow = (page: Page, email: string) =>
  page.getByRole('region', { name: 'Members', exact: true }).getByRole('row', { name: byEmail(email) })

test('an owner invites a teammate, makes them a Viewer, then removes them', async ({ browser }) => {
  const ownerContext = await app.context(browser)
  const owner = await ownerContext.newPage()
  const boss = await signUpThroughForm(owner)
  await owner.goto(`/${boss.workspaceName}`)
  await createProject(owner, 'Team roadmap')
  const projectPath = new URL(owner.url()).pathname
  await openWorkspaceSettings(owner)

  const invites = owner.getByRole('region', { name: 'Workspace invites' })
  await invites.getByLabel('Email').fill('not-an-address')
  await invites.getByRole('button', { name: 'Send invite' }).click()
  await expect(invites.getByText('Invalid.', { exact: true })).toBeVisible()
  const mate = uniqueUser()
  const link = await invite(owner, mate.email, 'Editor')

  // The teammate follows the mailed link, signed out, and creates an account from there.
  const mateContext = await app.context(browser)
  const teammate = await mateContext.newPage()
  await teammate.goto(link)
  await expect(teammate.getByRole('heading', { name: 'Invitation to join workspace' })).toBeVisible()
  await expect(
    teammate.getByText(`${boss.name} invited you to join the workspace ${boss.workspaceName} as Editor.`),
  ).toBeVisible()
  await teammate.getByRole('link', { name: 'Create an account' }).click()
  // The account joins the team's workspace only: no workspace field, the invited address filled in.
  await expect(teammate.getByRole('heading', { name: 'Sign up' })).toBeVisible()
  await expect(teammate.getByLabel('Workspace name')).toHaveCount(0)
  await expect(teammate.getByLabel('Email')).toHaveValue(mate.email)
  await teammate.getByLabel('Name', { exact: true }).fill(mate.name)
  await teammate.getByLabel('Password').fill(mate.password)
  await teammate.getByRole('button', { name: 'Sign up' }).click()

  // Straight onto the team's projects, which they see and can edit.
  await expect(teammate).toHaveURL(new RegExp(`/${boss.workspaceName}$`))
  await expect(teammate.getByText('Invitation accepted.')).toBeVisible()
  await expect(teammate.getByRole('heading', { name: 'Projects' })).toBeVisible()
  await expect(teammate.getByText('1 project', { exact: true })).toBeVisible()
  await expect(teammate.getByText(new RegExp(`^Created .+ by ${boss.name}$`))).toBeVisible()
  await expect(teammate.getByRole('link', { name: 'New project' })).toBeVisible()
  await teammate.getByRole('link', { name: 'Team roadmap' }).click()
  await expect(teammate.getByText('This board is empty, please start by adding a user goal')).toBeVisible()
  await expect(teammate.getByRole('button', { name: 'Add goal' })).toBeVisible()
  await expect(teammate.getByText('VIEW ONLY')).toHaveCount(0)

  // The owner sees the new member (and themself as THIS IS YOU), levels in words, and makes them a Viewer.
  await owner.reload()
  await expect(memberRow(owner, boss.email)).toContainText('THIS IS YOU')
  await expect(memberRow(owner, boss.email)).toContainText('Owner')
  await expect(memberRow(owner, mate.email).getByLabel(`Level of ${mate.name}`)).toHaveValue('EDITOR')
  await expect(memberRow(owner, mate.email).getByRole('option', { name: 'Editor' })).toHaveCount(1)
  await expect(owner.getByRole('region', { name: 'Members', exact: true })).not.toContainText(
    /VIEWER|EDITOR|ADMIN|OWNER/,
  )
  await expect(owner.getByRole('region', { name: 'My membership' })).toContainText(
    'Your level in this workspace: Owner',
  )
  await expect(
    owner.getByRole('region', { name: 'Workspace invites' }).getByText('No pending invites'),
  ).toBeVisible()
  await memberRow(owner, mate.email).getByLabel(`Level of ${mate.name}`).selectOption({ label: 'Viewer' })
  await memberRow(owner, mate.email).getByRole('button', { name: 'Change' }).click()
  await expect(owner.getByText('Role changed', { exact: true })).toBeVisible()

  // The teammate's very next page is view only.
  await teammate.getByRole('link', { name: 'Projects', exact: true }).click()
  await expect(teammate.getByText('1 project', { exact: true })).toBeVisible()
  await expect(teammate.getByRole('link', { name: 'New project' })).toHaveCount(0)
  await teammate.getByRole('link', { name: 'Team roadmap' }).click()
  await expect(teammate.getByText('VIEW ONLY')).toBeVisible()
  await expect(teammate.getByText('This story map is empty.')).toBeVisible()
  await expect(teammate.getByRole('button', { name: /Add/ })).toHaveCount(0)

  // The owner removes them; they lose the workspace on their next page, and the API refuses them.
  await memberRow(owner, mate.email).getByRole('button', { name: 'Remove' }).click()
  await expect(owner.getByText('Membership removed', { exact: true })).toBeVisible()
  await expect(memberRow(owner, mate.email)).toHaveCount(0)
  const workspaceId = (await (await owner.request.get('/v1/account/app')).json()).workspaces[0].id as string

  // The team's workspace was their only one: they are left with none.
  await teammate.getByRole('link', { name: 'Projects', exact: true }).click()
  await expect(teammate).toHaveURL(/\/account\/workspaces$/)
  await expect(teammate.getByText('No workspaces')).toBeVisible()
  await teammate.goto(projectPath)
  await expect(teammate).toHaveURL(/\/account\/workspaces$/)
  await expect(teammate.getByText('Team roadmap')).toHaveCount(0)
  const refused = await teammate.request.get('/v1/projects', { headers: { Workspace: workspaceId } })
  expect(refused.status()).toBe(403)
  await teammate.goto('/account/workspaces')
  await expect(teammate.getByRole('link', { name: boss.workspaceName, exact: true })).toHaveCount(0)

  await mateContext.close()
  await ownerContext.close()
})

test('an existing account logs in from the invitation, accepts it, and later leaves', async ({ browser }) => {
  const ownerContext = await app.context(browser)
  const owner = await ownerContext.newPage()
  const boss = await signUpThroughForm(owner)
  await owner.goto(`/${boss.workspaceName}/settings`)

  const guestContext = await app.context(browser)
  const guest = await guestContext.newPage()
  const user = await signUpThroughForm(guest)
  await guestContext.clearCookies()
  const link = await invite(owner, user.email) // the level defaults to Viewer

  await guest.goto(link)
  await expect(
    guest.getByText(`${boss.name} invited you to join the workspace ${boss.workspaceName} as Viewer.`),
  ).toBeVisible()
  // Accepting needs an account: signed out, the button leads to the log-in page, which comes back here.
  await guest.getByRole('button', { name: 'Accept invite' }).click()
  await expect(guest).toHaveURL(/\/account\/login\?redirectTo=/)
  await guest.getByLabel('Email').fill(user.email)
  await guest.getByLabel('Password').fill(user.password)
  await guest.getByRole('button', { name: 'Log in' }).click()
  await expect(guest.getByText(`Signed in as ${user.email}.`)).toBeVisible()
  await guest.getByRole('button', { name: 'Accept invite' }).click()
  await expect(guest).toHaveURL(new RegExp(`/${boss.workspaceName}$`))
  await expect(guest.getByText('Invitation accepted.')).toBeVisible()
  await expect(guest.getByRole('heading', { name: 'Projects' })).toBeVisible()
  await expect(guest.getByRole('link', { name: 'New project' })).toHaveCount(0)

  // The code is used up.
  await guest.goto(link)
  await expect(guest.getByText('Invitation not found.')).toBeVisible()

  // A member who is not an owner may leave; the workspace is gone from their list.
  await guest.goto(`/${boss.workspaceName}/settings`)
  await expect(guest.getByRole('region', { name: 'Members', exact: true })).toHaveCount(0)
  await guest.getByRole('button', { name: 'Leave workspace' }).click()
  await expect(guest).toHaveURL(/\/account\/workspaces$/)
  await expect(guest.getByText('Left workspace', { exact: true })).toBeVisible()
  await expect(guest.getByRole('link', { name: boss.workspaceName, exact: true })).toHaveCount(0)
  await owner.reload()
  await expect(memberRow(owner, user.email)).toHaveCount(0)

  await guestContext.close()
  await ownerContext.close()
})

test('an owner resends and cancels an invitation; only the newest link works', async ({ browser }) => {
  const context = await app.context(browser)
  const owner = await context.newPage()
  const boss = await signUpThroughForm(owner)
  await owner.goto(`/${boss.workspaceName}/settings`)
  const email = uniqueUser().email
  const first = await invite(owner, email, 'Admin')

  const invites = owner.getByRole('region', { name: 'Workspace invites' })
  const since = app.mark()
  await invites
    .getByRole('row', { name: byEmail(email) })
    .getByRole('button', { name: 'Resend' })
    .click()
  await expect(owner.getByText('Invite resent', { exact: true })).toBeVisible()
  const second = await app.linkTo(email, 'invitation', since)
  expect(second).not.toBe(first)

  const visitor = await app.context(browser)
  const page = await visitor.newPage()
  await page.goto(first)
  await expect(page.getByText('Invitation not found.')).toBeVisible()
  await page.goto(second)
  await expect(page.getByRole('button', { name: 'Accept invite' })).toBeVisible()

  await invites
    .getByRole('row', { name: byEmail(email) })
    .getByRole('button', { name: 'Cancel' })
    .click()
  await expect(owner.getByText('Invite canceled', { exact: true })).toBeVisible()
  await expect(invites.getByText('No pending invites')).toBeVisible()
  await page.goto(second)
  await expect(page.getByText('Invitation not found.')).toBeVisible()

  await visitor.close()
  await context.close()
})

test('an owner cannot leave, and deletes the workspace after confirming', async ({ browser }) => {
  const context = await app.context(browser)
  const owner = await context.newPage()
  const boss = await signUpThroughForm(owner)
  await owner.goto(`/${boss.workspaceName}`)
  await openWorkspaceSettings(owner)
  await expect(owner.getByRole('button', { name: 'Leave workspace' })).toHaveCount(0)
  await owner.getByRole('link', { name: 'Delete workspace' }).click()
  await owner.getByRole('button', { name: 'Yes, I am really sure!' }).click()
  await expect(owner).toHaveURL(/\/account\/workspaces$/)
  await expect(owner.getByText('Workspace deleted', { exact: true })).toBeVisible()
  await expect(owner.getByText('No workspaces')).toBeVisible()
  await owner.goto(`/${boss.workspaceName}`)
  await expect(owner).toHaveURL(/\/account\/workspaces$/)
  await context.close()
})
