import type { MapFile } from '~/features/transfer'
import internalTool from './built-in/internal-tool.json'
import mobileOnboarding from './built-in/mobile-onboarding.json'
import onlineShop from './built-in/online-shop.json'
import saasFirstRelease from './built-in/saas-first-release.json'

/**
 * The built-in templates `New project` offers beside `Blank` (CONTRACT §16). Each is a map in the
 * §8 export shape (built-in/*.json, checked by tests/unit/templates.test.ts with the import
 * parser): to change one, import it into Storymap, edit the board, export it and replace the
 * file. A project made from a template gets new ids, like an import. Pure; the JSON is large,
 * so the browser gets the list from the server rather than importing this module.
 */

/** One entry of `GET /v1/templates`'s `templates` list. */
export type TemplateSummary = {
  id: string
  title: string
  description: string
  builtIn: boolean
  goals: number
  features: number
}

export type BuiltInTemplate = TemplateSummary & { builtIn: true; map: MapFile }

/** The JSON imports are typed loosely (`status: string`); the unit test proves each is a valid map. */
const FILES: Record<string, MapFile> = {
  'online-shop': onlineShop as MapFile,
  'mobile-onboarding': mobileOnboarding as MapFile,
  'saas-first-release': saasFirstRelease as MapFile,
  'internal-tool': internalTool as MapFile,
}

function templateOf(id: string, map: MapFile): BuiltInTemplate {
  return {
    id,
    title: map.project.title,
    description: map.project.description ?? '',
    builtIn: true,
    goals: map.workflows?.length ?? 0,
    features: map.features?.length ?? 0,
    map,
  }
}

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = Object.entries(FILES).map(([id, map]) =>
  templateOf(id, map),
)

/** The built-in entries of `GET /v1/templates`, in the order `New project` shows them. */
export function builtInTemplateSummaries(): TemplateSummary[] {
  return BUILT_IN_TEMPLATES.map(({ map: _map, ...summary }) => summary)
}

/** A built-in template by its id (`"online-shop"`…), or undefined. */
export function findBuiltInTemplate(id: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((template) => template.id === id)
}

/** Built-in ids are words, never UUIDs, so they cannot collide with a workspace's own templates. */
export const isBuiltInTemplateId = (id: string) => Object.hasOwn(FILES, id)

/** What `New project` shows of a template's shape: its goals' titles and its counts. */
export type TemplateShape = {
  goalTitles: string[]
  goals: number
  activities: number
  releases: number
  features: number
}

type ShapeSource = {
  workflows?: { title: string; rank?: string }[]
  subWorkflows?: unknown[]
  milestones?: unknown[]
  features?: unknown[]
}

/** A map's shape (goals in their order on the board). */
export function shapeOf(map: ShapeSource): TemplateShape {
  const goals = [...(map.workflows ?? [])].sort((a, b) => ((a.rank ?? '') < (b.rank ?? '') ? -1 : 1))
  return {
    goalTitles: goals.map((goal) => goal.title),
    goals: goals.length,
    activities: map.subWorkflows?.length ?? 0,
    releases: map.milestones?.length ?? 0,
    features: map.features?.length ?? 0,
  }
}

/** One choice of `New project`: a template with its shape. */
export type TemplateChoice = TemplateSummary & { shape: TemplateShape }
