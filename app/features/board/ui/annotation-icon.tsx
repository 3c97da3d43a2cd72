import type { Annotation } from '~/features/board/board-commands'

/**
 * Short tags for the nine annotations (plain text, so no emoji font is needed); the full label is
 * on the parent's title. Drawn by CSS from `data-text`, so a card's tags are not text of its link
 * (whose name is its title, WCAG 2.5.3), like the card's size.
 */
const TAGS: Record<Annotation, string> = {
  RISKY: 'RSK',
  UNCLEAR: 'UNC',
  SPLIT: 'SPL',
  DEPENDENCY: 'DEP',
  BLOCKED: 'BLK',
  DISCUSSION: 'DSC',
  REJECTED: 'REJ',
  IDEA: 'IDEA',
  RESEARCH: 'RES',
}

export function AnnotationIcon({ name }: { name: Annotation }) {
  return (
    <span
      className={`annotation-icon annotation-${name.toLowerCase()}`}
      aria-hidden="true"
      data-text={TAGS[name]}
    />
  )
}
