/**
 * storymap.csv's columns (SPEC §9) and the formula guard of its cells (CONTRACT §8), apart from
 * the CSV writer so that the import's browser preview does not load csv-stringify.
 */

export const CSV_FILENAME = 'storymap.csv'
export const CSV_COLUMNS = [
  'release_title',
  'goal_title',
  'activity_title',
  'feature_title',
  'feature_description',
  'feature_status',
  'feature_color',
  'feature_annotations',
  'feature_size',
] as const
/** The tenth column (CONTRACT §12): a feature's tag names, comma-separated; only when the project has tags. */
export const CSV_TAGS_COLUMN = 'feature_tags'
/** Every column an import reads. */
export const CSV_IMPORT_COLUMNS = [...CSV_COLUMNS, CSV_TAGS_COLUMN] as const

/** A cell a spreadsheet would run as a formula starts with one of these (CONTRACT §8). */
const FORMULA_START = /^[=+\-@\t\r]/

/** Export: a cell that a spreadsheet would read as a formula gets a leading `'`. */
export function guardCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value
}

/** Import: the reverse, removing one leading `'` where a formula character follows it. */
export function unguardCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value
}
