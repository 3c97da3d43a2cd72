import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { DomainError } from '~/lib/errors'
import { postedId, type SettingsOutcome } from '~/http/settings-intents.server'
import type { SessionAccount } from '~/features/accounts/index.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { createTokenSchema } from './api-tokens'
import { createToken, revokeAccountToken, revokeWorkspaceToken } from './api-token.server'
import { createWebhookSchema } from './webhooks'
import { createWebhook, deleteWebhook, sendTestPing } from './webhook.server'

export type TokenReply = {
  intent: 'createToken'
  result: SubmissionResult<string[]>
  created: { name: string; secret: string } | null
}
export type WebhookReply = {
  intent: 'createWebhook'
  result: SubmissionResult<string[]>
  created: { url: string; secret: string } | null
}

/** API tokens in account settings (CONTRACT §10): make one (its secret shown once), revoke one. */
export const accountTokenIntents = {
  createToken({
    account,
    formData,
  }: {
    account: SessionAccount
    formData: FormData
  }): SettingsOutcome<TokenReply> {
    const submission = parseWithZod(formData, { schema: createTokenSchema })
    if (submission.status !== 'success')
      return { reply: { intent: 'createToken', result: submission.reply(), created: null } }
    const { token, secret } = createToken(account.id, submission.value)
    // The secret is in this answer only: it is never stored, and a reload does not show it again.
    return {
      reply: {
        intent: 'createToken',
        result: submission.reply({ resetForm: true }),
        created: { name: token.name, secret },
      },
    }
  },
  revokeToken({
    account,
    formData,
  }: {
    account: SessionAccount
    formData: FormData
  }): SettingsOutcome<never> {
    revokeAccountToken(account.id, String(formData.get('id') ?? ''))
    return { done: 'Token revoked.' }
  },
}

type WorkspaceInput = { ctx: WorkspaceContext; formData: FormData }

/** A workspace's tokens and webhooks in its settings (CONTRACT §10), for its owners and admins. */
export const workspaceAutomationIntents = {
  revokeToken({ ctx, formData }: WorkspaceInput): SettingsOutcome<never> {
    revokeWorkspaceToken(ctx, postedId(formData))
    return { done: 'Token revoked' }
  },
  async createWebhook({ ctx, formData }: WorkspaceInput): Promise<SettingsOutcome<WebhookReply>> {
    const submission = parseWithZod(formData, { schema: createWebhookSchema })
    if (submission.status !== 'success')
      return { reply: { intent: 'createWebhook', result: submission.reply(), created: null } }
    try {
      const { webhook, secret } = await createWebhook(ctx, submission.value)
      // The secret is in this answer only; a reload does not show it again.
      return {
        reply: {
          intent: 'createWebhook',
          result: submission.reply({ resetForm: true }),
          created: { url: webhook.url, secret },
        },
      }
    } catch (error) {
      if (error instanceof DomainError && error.field === 'url')
        return {
          reply: {
            intent: 'createWebhook',
            result: submission.reply({ fieldErrors: { url: [error.message] } }),
            created: null,
          },
        }
      throw error
    }
  },
  async testWebhook({ ctx, formData }: WorkspaceInput): Promise<SettingsOutcome<never>> {
    const delivery = await sendTestPing(ctx, postedId(formData))
    return delivery.state === 'delivered'
      ? { done: `Test delivered (${delivery.status})` }
      : { failed: `Test failed: ${delivery.status ? `HTTP ${delivery.status}` : 'no answer'}` }
  },
  deleteWebhook({ ctx, formData }: WorkspaceInput): SettingsOutcome<never> {
    deleteWebhook(ctx, postedId(formData))
    return { done: 'Endpoint deleted' }
  },
}
