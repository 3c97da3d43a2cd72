import { z } from 'zod'

/** The project card's Sharing section (CONTRACT §8): its buttons' intents, and what the page says after. */
export const sharingIntentSchema = z.object({
  intent: z.enum(['stopSharing', 'shareAgain', 'newLink'], { error: 'Unknown action.' }),
})
export type SharingIntent = z.infer<typeof sharingIntentSchema>['intent']

export const SHARING_DONE: Record<SharingIntent, string> = {
  stopSharing: 'Sharing stopped. The share link no longer works.',
  shareAgain: 'Shared again. The share link works again.',
  newLink: 'New link made. The old link no longer works.',
}

export type SharingReply = { ok: boolean; message: string }

/** What a project's settings show about its share link, and whether the caller may change it. */
export type SharingView = {
  enabled: boolean
  /** Why no project of this workspace is shared at the moment, or null. */
  blockedBy: 'workspace' | 'plan' | null
  canManage: boolean
}
