import { parseCsvImport } from './import-csv'
import { parseJsonImport } from './import-json'
import { ImportError, type ImportedMap } from './import-map'

/** The two kinds of file `POST /v1/projects/import` reads (CONTRACT §8). */
export type ImportFormat = 'csv' | 'json'

export const IMPORT_CONTENT_TYPES: Record<ImportFormat, string> = {
  csv: 'text/csv',
  json: 'application/json',
}

/** The format a request's Content-Type names, or null for any other type. */
export function importFormatOfContentType(contentType: string | null): ImportFormat | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'application/json' || type.endsWith('+json')) return 'json'
  if (type === 'text/csv') return 'csv'
  return null
}

/** The import dialog: the format of a picked file, by its extension, else by its first character. */
export function importFormatOfFile(name: string, text: string): ImportFormat {
  if (/\.json$/i.test(name)) return 'json'
  if (/\.csv$/i.test(name)) return 'csv'
  return text.trimStart().startsWith('{') ? 'json' : 'csv'
}

export type ImportResult = { ok: true; map: ImportedMap } | { ok: false; message: string }

/** Reads and checks an import file; the refusal is the message of CONTRACT §8. */
export function readImport(text: string, format: ImportFormat): ImportResult {
  // Bytes that are not UTF-8 were decoded to U+FFFD; importing them would garble every title.
  if (text.includes('\uFFFD')) {
    return { ok: false, message: 'the file is not UTF-8 text (in a spreadsheet, save it as "CSV UTF-8")' }
  }
  try {
    return { ok: true, map: format === 'json' ? parseJsonImport(text) : parseCsvImport(text) }
  } catch (error) {
    if (error instanceof ImportError) return { ok: false, message: error.message }
    throw error
  }
}
