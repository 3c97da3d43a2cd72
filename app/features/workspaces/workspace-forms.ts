import { z } from 'zod'
import { LEVELS } from '~/features/map/permissions'
import { text } from '~/lib/validation'

/** Schemas of the invitation and member-level forms (SPEC §5), shared by pages and /v1. */

const levelField = z.enum(LEVELS, { error: 'Required.' })

export const inviteSchema = z.object({
  email: text('Required.').trim().pipe(z.email('Invalid.')),
  level: levelField.default('VIEWER'),
})

export const levelChangeSchema = z.object({ level: levelField })
