import { LEVEL_NAMES, type Level } from '~/features/map/permissions'
import { appLink, escapeHtml, type Mail } from '~/lib/email.server'

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

/**
 * To a workspace's owners and admins: GitHub refused a linked project's token, so its sync
 * stopped (CONTRACT §13). The link opens the board's GitHub dialog.
 */
export function githubTokenRefusedMessage(
  to: string,
  name: string,
  projectTitle: string,
  repository: string,
  boardPath: string,
): Mail {
  const link = appLink(`${boardPath}?github=1`)
  const lines = [
    `Hi ${name},`,
    `GitHub refused the token of the project ${projectTitle} (repository ${repository}), so Storymap stopped syncing it with GitHub Issues. Changes wait on both sides.`,
    'Make a new fine-grained token with Issues read and write on that repository, then link the repository again in the board menu under GitHub.',
  ]
  return {
    to,
    subject: 'GitHub sync stopped: the token was refused',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(lines, { label: 'Fix the GitHub link', url: link }),
  }
}

/**
 * A linked tracker needs an owner (CONTRACT §14): its token was refused (`{Provider} sync stopped:
 * the token was refused.`) or expires within 14 days (`The {Provider} token expires on {date}.`).
 */
export function trackerNoticeMessage(
  to: string,
  name: string,
  notice: { subject: string; projectTitle: string; provider: string; project: string; boardPath: string },
): Mail {
  const link = appLink(`${notice.boardPath}?tracker=1`)
  const lines = [
    `Hi ${name},`,
    `${notice.subject} (project ${notice.projectTitle}, ${notice.provider} project ${notice.project})`,
    `Make a new token, then link the project again in the board menu under Tracker.`,
  ]
  return {
    to,
    subject: notice.subject.replace(/\.$/, ''),
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: layout(lines, { label: `Fix the ${notice.provider} link`, url: link }),
  }
}

export type NotificationItem = { authorName: string; post: string; mentioned: boolean }

/**
 * Mention and watch e-mails (CONTRACT §12): one or more new comments on one card, with the card's
 * permalink and a one-click unsubscribe link for the e-mail's kind (RFC 8058 headers too).
 * `post` is the comment's text with mentions already shown as @Name.
 */
export function commentNotificationMessage(
  to: string,
  featureTitle: string,
  items: NotificationItem[],
  cardUrl: string,
  unsubscribeUrl: string,
  kind: 'mentions' | 'watching',
): Mail {
  const mention = items.find((i) => i.mentioned)
  const subject = mention
    ? `${mention.authorName} mentioned you on '${featureTitle}'`
    : items.length === 1
      ? `${items[0].authorName} commented on '${featureTitle}'`
      : `${items.length} new comments on '${featureTitle}'`
  const comments = items.map((i) =>
    i.mentioned
      ? `${i.authorName} mentioned you on '${featureTitle}':\n${i.post}`
      : `${i.authorName} commented on '${featureTitle}':\n${i.post}`,
  )
  const off =
    kind === 'mentions'
      ? 'You get this e-mail because you were mentioned. Stop these e-mails:'
      : 'You get this e-mail because you watch this card. Stop these e-mails:'
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1c2230">
${comments.map((c) => `<p style="white-space:pre-wrap">${escapeHtml(c)}</p>`).join('\n')}
<p><a href="${escapeHtml(cardUrl)}">Open the card</a></p>
<p style="color:#5d6678;font-size:13px">${escapeHtml(off)} <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>
</body></html>`
  return {
    to,
    subject,
    text: `${comments.join('\n\n')}\n\nOpen the card: ${cardUrl}\n\n${off} ${unsubscribeUrl}\n`,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  }
}
