import { importFormatOfFile, readImport, type ImportFormat } from './import'
import { describeImport } from './import-map'

export type ImportPreview =
  { ok: true; format: ImportFormat; summary: string; title: string | null } | { ok: false; message: string }

/**
 * The import dialog's check of a picked file, with the server's own rules, before anything is
 * sent: its format, what it holds (`3 goals, 8 activities, 4 releases, 61 features`) and its
 * title, or the server's refusal message. The dialog loads this module (csv-parse, zod) lazily.
 */
export function previewImport(fileName: string, text: string): ImportPreview {
  const format = importFormatOfFile(fileName, text)
  const result = readImport(text, format)
  if (!result.ok) return result
  return { ok: true, format, summary: describeImport(result.map), title: result.map.title }
}
