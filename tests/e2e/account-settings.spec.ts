import { expect, test, type Page } from '@playwright/test'
import { signUpThroughForm, uniqueUser } from './helpers'
import { CONTACT_EMAIL, startMailServer, type MailServer } from './mail-server'

// The account pages follow links that arrive by e-mail: this file runs its own server, mailing
// to an in-process SMTP mailbox, and its tests share it in one worker.
test.describe.configure({ mode: 'default' })

let app: MailServer
test.beforeAll(async () => {
  app = await startMailServer()
})
test.afterAll(async () => {
  await app?.stop()
})

const card = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true })

test('verify the address with the mailed link; a resent link replaces it and works once', async ({
  browser,
}) => {
  const context = await app.context(browser)
  const page = await context.newPage()
  const user = uniqueUser()
  const since = app.mark()
  await signUpThroughForm(page, user)
  const first = await app.linkTo(user.email, 'verify', since)

  await page.goto('/account/settings')
  await expect(card(page, 'Verify your email')).toContainText(`We sent a verification link to ${user.email}.`)
  const resent = app.mark()
  await page.getByRole('button', { name: 'Resend verification email' }).click()
  await expect(page.getByText('Mail sent.')).toBeVisible()
  const second = await app.linkTo(user.email, 'verify', resent)

  await page.goto(first)
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
  await page.goto(second)
  await expect(page.getByRole('heading', { name: 'Email address verified!' })).toBeVisible()
  await page.goto(second)
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toBeVisible()
  await page.goto('/account/settings')
  await expect(page.getByRole('heading', { name: 'Account settings' })).toBeVisible()
  await expect(card(page, 'Verify your email')).toHaveCount(0)
  await context.close()
})

test('change the name, and the e-mail address once the new one is verified', async ({ browser }) => {
  const context = await app.context(browser)
  const page = await context.newPage()
  const user = await signUpThroughForm(page)
  await page.goto('/account/settings')

  const name = card(page, 'Name').getByLabel('Name')
  await name.fill('')
  await page.getByRole('button', { name: 'Change name' }).click()
  await expect(card(page, 'Name').getByText('Required.')).toBeVisible()
  await name.fill('Renamed Person')
  await page.getByRole('button', { name: 'Change name' }).click()
  await expect(page.getByText('Name is changed. Refresh your browser for it to take effect.')).toBeVisible()
  await page.reload()
  await expect(name).toHaveValue('Renamed Person')

  const newEmail = uniqueUser().email
  await page.getByLabel('New email').fill('nope')
  await page.getByRole('button', { name: 'Change email' }).click()
  await expect(page.getByText('Invalid email address.')).toBeVisible()
  const since = app.mark()
  await page.getByLabel('New email').fill(newEmail)
  await page.getByRole('button', { name: 'Change email' }).click()
  await expect(page.getByText('An email has been sent to your new email with instructions.')).toBeVisible()
  // Until the new address is verified, the account keeps the old one.
  await expect(card(page, 'Email')).toContainText(`Current email: ${user.email}`)
  await expect(card(page, 'Verify your email')).toContainText(`We sent a verification link to ${newEmail}.`)

  await page.goto(await app.linkTo(newEmail, 'verify', since))
  await expect(page.getByRole('heading', { name: 'Email address verified!' })).toBeVisible()
  await page.goto('/account/settings')
  await expect(card(page, 'Email')).toContainText(`Current email: ${newEmail}`)
  await context.close()
})

test('reset the password with the mailed link: old sessions end, the link works once', async ({
  browser,
}) => {
  const context = await app.context(browser)
  const page = await context.newPage()
  const user = await signUpThroughForm(page)
  await page.goto('/account/settings')
  await page.getByRole('link', { name: 'Change password' }).click()
  await expect(page).toHaveURL(/\/account\/reset\?email=/)
  await expect(page.getByLabel('Email')).toHaveValue(user.email)
  const since = app.mark()
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByText(`Email sent. If an account exists for ${user.email}`)).toBeVisible()
  const link = await app.linkTo(user.email, 'reset', since)

  await page.goto(link)
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  await page.getByLabel('New password').fill('12345')
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByText('Password minimum 6 characters.')).toBeVisible()
  await page.getByLabel('New password').fill('another-secret')
  await page.getByRole('button', { name: 'Set password' }).click()
  // The log-in page shows (it would send a live session on to the app): the session has ended.
  await expect(page).toHaveURL(/\/account\/login$/)
  await expect(page.getByText('Password changed. Please log in.')).toBeVisible()

  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByText('Email or password is incorrect.')).toBeVisible()
  await page.getByLabel('Password').fill('another-secret')
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))

  await page.goto(link)
  await expect(page.getByText('This link is invalid or has expired.')).toBeVisible()
  await context.close()
})

test('delete the account in two steps; its log-in stops working', async ({ browser }) => {
  const context = await app.context(browser)
  const page = await context.newPage()
  const user = await signUpThroughForm(page)
  await page.goto('/account/settings')
  await page.getByRole('link', { name: 'Delete account' }).click()
  await page.getByRole('button', { name: 'Yes, I am really sure!' }).click()
  await expect(page).toHaveURL(/\/account\/login$/)
  // The address changes before the log-in page has replaced the settings on screen.
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible()
  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByText('Email or password is incorrect.')).toBeVisible()
  await context.close()
})

test('the contact form validates inline and mails CONTACT_EMAIL', async ({ browser }) => {
  const context = await app.context(browser)
  const page = await context.newPage()
  await page.goto('/account/contact')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('Required.')).toHaveCount(2)
  await page.getByLabel('Your email').fill('nope')
  await page.getByLabel('Message').fill('We would like a quote.')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('Invalid email address.')).toBeVisible()
  const since = app.mark()
  await page.getByLabel('Topic').selectOption('sales')
  await page.getByLabel('Your email').fill('buyer@example.com')
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByText('Thank you! Your message has been sent.')).toBeVisible()
  const mail = await app.mail(CONTACT_EMAIL, since)
  expect(mail.subject).toBe('Contact form (sales) from buyer@example.com')
  expect(mail.text).toContain('We would like a quote.')
  await context.close()
})
