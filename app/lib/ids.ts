import { z } from 'zod'

/** Client-generated entity ids are UUIDs (any version), compared lower-case. */
export const uuidSchema = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Not a UUID.')
  .transform((s) => s.toLowerCase())

export function isUuid(value: unknown): value is string {
  return uuidSchema.safeParse(value).success
}
