import type { z } from 'zod'
import type { exportFileSchema } from './import-json'

/**
 * A map in the §8 export shape (CONTRACT §8) as the app writes one without a database: a
 * template, or the assistant's draft. Cards carry what the import keeps (no authors or times);
 * the import parser (import-json.ts) reads it like any export.
 */
export type MapFile = z.input<typeof exportFileSchema> & { exportedAt: string }
