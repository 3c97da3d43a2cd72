import { exportDisposition } from '../map/export-format'
import type { ProjectExport } from '~/features/map/project-bundle.server'

/** A project's JSON export as a download named `<title>.storymap.json` (CONTRACT §8). */
export function exportResponse({ title, json }: ProjectExport): Response {
  return new Response(json, {
    headers: {
      'Content-Type': 'application/json',
      'Content-Disposition': exportDisposition(title),
      'Cache-Control': 'no-store',
    },
  })
}
