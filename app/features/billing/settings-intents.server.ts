import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import type { SettingsOutcome } from '~/http/settings-intents.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { billingInfoSchema } from './billing'
import { updateBillingInfo } from './billing.server'

export type BillingReply = { intent: 'billingInfo'; result: SubmissionResult<string[]> }

/** The billing details in workspace settings (hosted mode, the owner). */
export const billingIntents = {
  async billingInfo({
    ctx,
    formData,
  }: {
    ctx: WorkspaceContext
    formData: FormData
  }): Promise<SettingsOutcome<BillingReply>> {
    const submission = parseWithZod(formData, { schema: billingInfoSchema })
    if (submission.status !== 'success')
      return { reply: { intent: 'billingInfo', result: submission.reply() } }
    await updateBillingInfo(ctx, submission.value)
    return { done: 'Settings changed' }
  },
}
