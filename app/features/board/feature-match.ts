import { annotationList } from '../map/vocabulary'
import type { BoardFilter } from './board-filter'
import type { Feature, FeatureComment, ProjectBundle } from '../map/bundle-types'
import { renderMentions } from '~/features/map/mentions'
import { containsAllWords, normalizeText, searchWords } from './text-search'

export type FeatureMatcher = (feature: Feature) => boolean

/** Member id → current name, for the `@Name` a comment's mentions show (CONTRACT §12). */
export type MemberNames = ReadonlyMap<string, string>

const NO_NAMES: MemberNames = new Map()

const sameNames = (a: MemberNames, b: MemberNames) => {
  if (a === b) return true
  if (a.size !== b.size) return false
  for (const [id, name] of a) if (b.get(id) !== name) return false
  return true
}

/**
 * The members' names as a map, built once per member list (not per feature or keystroke);
 * `previous` comes back when nothing changed, so a reloaded but equal list keeps the search cache.
 */
export function memberNameMap(
  members: readonly { id: string; name: string }[] | undefined,
  previous?: MemberNames,
): MemberNames {
  const names: MemberNames =
    members && members.length > 0 ? new Map(members.map((m) => [m.id, m.name])) : NO_NAMES
  return previous && sameNames(previous, names) ? previous : names
}

/**
 * The text of a comment as the search sees it: what the user reads, mentions as `@{current name}`
 * (so `Ann` and `@Ann` find them, the stored `@[member:…]` token does not).
 */
export function commentSearchText(post: string, names: MemberNames): string {
  return normalizeText(post.includes('@[') ? renderMentions(post, (id) => names.get(id)) : post)
}

/**
 * Normalized search text (title, description, comments) per feature id. The parts are cached per
 * entity object, and the board keeps the objects of unchanged entities, so after an edit only
 * the changed feature or comment is normalized again. Comments with mentions are cached apart:
 * when a member's name changes only they are normalized again.
 */
export function createSearchTextIndex() {
  const featureText = new WeakMap<Feature, string>()
  const commentText = new WeakMap<FeatureComment, string>()
  let mentionText = new WeakMap<FeatureComment, string>()
  let namesSeen: MemberNames = NO_NAMES
  return function searchTexts(
    features: readonly Feature[],
    comments: readonly FeatureComment[],
    names: MemberNames = NO_NAMES,
  ) {
    if (!sameNames(namesSeen, names)) mentionText = new WeakMap()
    namesSeen = names
    const texts = new Map<string, string>()
    for (const feature of features) {
      let text = featureText.get(feature)
      if (text === undefined) {
        text = normalizeText(`${feature.title}\n${feature.description}`)
        featureText.set(feature, text)
      }
      texts.set(feature.id, text)
    }
    for (const comment of comments) {
      const before = texts.get(comment.featureId)
      if (before === undefined) continue
      const cache = comment.post.includes('@[') ? mentionText : commentText
      let text = cache.get(comment)
      if (text === undefined) {
        text = commentSearchText(comment.post, names)
        cache.set(comment, text)
      }
      texts.set(comment.featureId, `${before}\n${text}`)
    }
    return texts
  }
}

/** The goals that carry `personaId` (SPEC: personas are attached to goals). */
function goalsWithPersona(bundle: ProjectBundle, personaId: string) {
  return new Set(
    bundle.workflowPersonas.filter((wp) => wp.personaId === personaId).map((wp) => wp.workflowId),
  )
}

/**
 * Whether a feature passes every filter: all search words, one of the chosen colours, one of the
 * chosen annotations, the status, the persona (through its activity's goal) and the size range.
 * Null when nothing narrows the board. `searchText` is needed only when there are search words.
 */
export function featureMatcher(
  filter: BoardFilter,
  bundle: ProjectBundle,
  searchText: (feature: Feature) => string,
): FeatureMatcher | null {
  const words = searchWords(filter.q)
  const { colors, annotations, status, persona, size } = filter
  const tagFilter = new Set(filter.tags ?? [])
  if (
    words.length === 0 &&
    colors.length === 0 &&
    annotations.length === 0 &&
    !status &&
    !persona &&
    !size &&
    tagFilter.size === 0
  ) {
    return null
  }
  // A tag's name finds its features (CONTRACT §12): the names are searched beside each feature's text.
  const tagText = new Map((bundle.tags ?? []).map((t) => [t.id, normalizeText(t.name)]))
  // A map without tags (or a feature without any) costs the search nothing extra per keystroke.
  const textOf =
    tagText.size === 0
      ? searchText
      : (feature: Feature) => {
          if (!feature.tagIds || feature.tagIds.length === 0) return searchText(feature)
          const names = feature.tagIds.flatMap((id) => tagText.get(id) ?? [])
          return names.length > 0 ? `${searchText(feature)}\n${names.join('\n')}` : searchText(feature)
        }
  const colorSet = new Set<string>(colors)
  let personaGoal: ((feature: Feature) => boolean) | null = null
  if (persona) {
    const goals = goalsWithPersona(bundle, persona)
    const goalOf = new Map(bundle.subWorkflows.map((s) => [s.id, s.workflowId]))
    personaGoal = (feature) => goals.has(goalOf.get(feature.subWorkflowId) ?? '')
  }
  return (feature) => {
    if (status === 'open' && feature.status !== 'OPEN') return false
    if (status === 'closed' && feature.status !== 'CLOSED') return false
    if (colorSet.size > 0 && !colorSet.has(feature.color)) return false
    if (annotations.length > 0) {
      const own = annotationList(feature.annotations)
      if (!annotations.some((a) => own.includes(a))) return false
    }
    if (size) {
      if (size.from !== null && feature.estimate < size.from) return false
      if (size.to !== null && feature.estimate > size.to) return false
    }
    if (personaGoal && !personaGoal(feature)) return false
    if (tagFilter.size > 0 && !(feature.tagIds ?? []).some((id) => tagFilter.has(id))) return false
    return words.length === 0 || containsAllWords(textOf(feature), words)
  }
}
