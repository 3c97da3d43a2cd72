import { expect, test } from '@playwright/test'
import { accountMenu, expectNoSeriousAxeFindings, signUpThroughForm, uniqueUser } from './helpers'

/**
 * The shared test server has no SMTP_URL: every e-mail only goes to its log (CONTRACT §2). The
 * pages say so instead of claiming a mail was sent (issue 43), and owners pass invitation links
 * on themselves.
 */

test('without mail, sign-up says no e-mail was sent, and an owner copies an invitation link that works', async ({
  page,
  browser,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const owner = await signUpThroughForm(page, { ...uniqueUser(), name: 'Ana Lima' })
  await expect(
    page.getByText(
      'No e-mail was sent to verify your address: mail is not set up on this server. Whoever runs this Storymap can set SMTP_URL.',
    ),
  ).toBeVisible()
  await expect(page.getByText('We have sent you an e-mail')).toHaveCount(0)
  await page.getByRole('link', { name: 'Get started' }).click()
  await accountMenu(page).click()
  await page.getByRole('menuitem', { name: 'Workspace settings' }).click()

  const invites = page.getByRole('region', { name: 'Workspace invites' })
  await expect(invites).toContainText(
    'Mail is not set up on this server (SMTP_URL is unset): invitations are not e-mailed. Copy each invitation link and send it yourself.',
  )
  const mate = uniqueUser()
  await invites.getByLabel('Email').fill(mate.email)
  await invites.getByRole('button', { name: 'Send invite' }).click()
  await expect(
    page.getByText('Invite saved. Mail is not set up, so nothing was sent: copy its invitation link below.'),
  ).toBeVisible()
  await expect(page.getByText('Invite sent', { exact: true })).toHaveCount(0)
  const copy = invites.getByRole('button', { name: `Copy invitation link for ${mate.email}` })
  await expect(copy).toHaveText('Copy invitation link')
  await copy.click()
  await expect(copy).toHaveText('Copied')
  const link = await page.evaluate(() => navigator.clipboard.readText())
  expect(link).toMatch(/\/account\/invitation\/[A-Za-z0-9_-]{43}$/)
  await expect(invites.getByRole('textbox', { name: `Invitation link for ${mate.email}` })).toHaveValue(link)
  await expectNoSeriousAxeFindings(page, 'section[aria-label="Workspace invites"]')

  // The teammate opens the link the owner sent by hand and joins.
  const context = await browser.newContext()
  const teammate = await context.newPage()
  await teammate.goto(new URL(link).pathname)
  await expect(teammate.getByRole('heading', { name: 'Invitation to join workspace' })).toBeVisible()
  await expect(
    teammate.getByText(`Ana Lima invited you to join the workspace ${owner.workspaceName} as Viewer.`),
  ).toBeVisible()
  await teammate.getByRole('link', { name: 'Create an account' }).click()
  await teammate.getByLabel('Name', { exact: true }).fill(mate.name)
  await teammate.getByLabel('Password').fill(mate.password)
  await teammate.getByRole('button', { name: 'Sign up' }).click()
  await expect(teammate).toHaveURL(new RegExp(`/${owner.workspaceName}$`))
  await expect(teammate.getByText('Invitation accepted.')).toBeVisible()
  await context.close()
})

test('without mail, the reset page says no link can be e-mailed, the same for any address', async ({
  page,
}) => {
  const user = await signUpThroughForm(page)
  const context = await page.context().browser()!.newContext()
  const visitor = await context.newPage()
  await visitor.goto('/account/reset')
  const notice = visitor.getByRole('status').filter({ hasText: 'mail is not set up on this server' })
  await expect(notice).toHaveText(
    'No reset link can be e-mailed: mail is not set up on this server. Whoever runs this Storymap can set SMTP_URL. Until then, they can pass you the link from the server log.',
  )
  const answers: string[] = []
  for (const email of [user.email, 'nobody-here@example.com']) {
    await visitor.getByLabel('Email').fill(email)
    await visitor.getByRole('button', { name: 'Send reset link' }).click()
    await expect(notice).toContainText('No e-mail was sent: mail is not set up on this server.')
    answers.push((await notice.textContent())!)
  }
  expect(answers[1]).toBe(answers[0])
  await expect(visitor.getByText('Email sent.')).toHaveCount(0)
  await context.close()
})
