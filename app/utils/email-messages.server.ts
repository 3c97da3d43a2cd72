import { LEVEL_NAMES, type Level } from '~/domain/permissions'
import { appLink, escapeHtml, type Mail } from './email.server'

/** The messages Storymap sends. User-given strings are escaped in the HTML part. */

function layout(paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#3b5bdb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="color:#5d6678;font-size:13px">Or open this address: ${escapeHtml(action.url)}</p>`
    : ''
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1c2230">${body}\n${button}</body></html>`
}

export function verifyEmailMessage(to: string, name: string, key: string): Mail {
  const url = appLink(`/account/verify/${key}`)
  const lines = [
    `Hi ${name},`,
    'Please confirm your e-mail address for Storymap. The link is valid for 7 days.',
  ]
  return {
    to,
    subject: 'Verify your e-mail address',
    text: `${lines.join('\n\n')}\n\n${url}\n`,
    html: layout(lines, { label: 'Verify e-mail address', url }),
  }
}

export function resetPasswordMessage(to: string, name: string, key: string): Mail {
  const url = appLink(`/account/reset/${key}`)
  const lines = [
    `Hi ${name},`,
    'Someone asked to reset the password of your Storymap account. Open the link within one hour to choose a new password. If it was not you, ignore this message.',
  ]
  return {
    to,
    subject: 'Reset your password',
    text: `${lines.join('\n\n')}\n\n${url}\n`,
    html: layout(lines, { label: 'Choose a new password', url }),
  }
}

export function invitationMessage(
  to: string,
  inviterName: string,
  workspaceName: string,
  level: Level,
  code: string,
): Mail {
  const url = appLink(`/account/invitation/${code}`)
  const lines = [
    `${inviterName} invited you to join the workspace ${workspaceName} on Storymap as ${LEVEL_NAMES[level]}.`,
    'The invitation is valid for 7 days.',
  ]
  return {
    to,
    subject: `Invitation to join workspace ${workspaceName}`,
    text: `${lines.join('\n\n')}\n\n${url}\n`,
    html: layout(lines, { label: 'Open invitation', url }),
  }
}

export function contactMessage(to: string, topic: string, sender: string, body: string): Mail {
  return {
    to,
    replyTo: sender,
    subject: `Contact form (${topic}) from ${sender}`,
    text: `Topic: ${topic}\nFrom: ${sender}\n\n${body}\n`,
    html: `<!doctype html><html><body><p>Topic: ${escapeHtml(topic)}<br>From: ${escapeHtml(sender)}</p><pre style="white-space:pre-wrap">${escapeHtml(body)}</pre></body></html>`,
  }
}

/** To a workspace's owners: an endpoint failed for 24 hours and was disabled (CONTRACT §10). */
export function webhookDisabledMessage(to: string, name: string, workspaceName: string, url: string): Mail {
  const link = appLink(`/${encodeURIComponent(workspaceName)}/settings`)
  const shown = url.replace(/^(https?:\/\/[^/]+).*$/, '$1/…')
  const lines = [
    `Hi ${name},`,
    `Storymap could not deliver to the webhook ${shown} of the workspace ${workspaceName} for 24 hours, so it has been disabled. Changes are no longer sent to it.`,
    'Check the receiver, then add the endpoint again in the workspace settings under Webhooks.',
  ]
  return {
    to,
    subject: 'A webhook was disabled',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(lines, { label: 'Open workspace settings', url: link }),
  }
}
