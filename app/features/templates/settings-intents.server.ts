import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { postedId, type SettingsOutcome } from '~/http/settings-intents.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { templateTitleFormSchema } from './template-forms'
import { deleteTemplate, renameTemplate } from './templates.server'

export type RenameTemplateReply = {
  intent: 'renameTemplate'
  id: string
  result: SubmissionResult<string[]>
}

type Input = { ctx: WorkspaceContext; formData: FormData }

/** Workspace settings → Templates (CONTRACT §16): rename and delete the workspace's own. */
export const templateIntents = {
  renameTemplate({ ctx, formData }: Input): SettingsOutcome<RenameTemplateReply> {
    const id = postedId(formData)
    const submission = parseWithZod(formData, { schema: templateTitleFormSchema })
    if (submission.status !== 'success')
      return { reply: { intent: 'renameTemplate', id, result: submission.reply() } }
    renameTemplate(ctx, id, submission.value.title)
    // Back with the focus on the renamed template's Rename (`?template=`).
    return { done: 'Template renamed.', to: `/${ctx.workspace.name}/settings?template=${id}` }
  },
  deleteTemplate({ ctx, formData }: Input): SettingsOutcome<never> {
    deleteTemplate(ctx, postedId(formData))
    return { done: 'Template deleted.', to: `/${ctx.workspace.name}/settings?template=deleted` }
  },
}
