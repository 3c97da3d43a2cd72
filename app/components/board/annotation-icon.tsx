import type { Annotation } from '~/domain/board-commands'

/** Small glyphs for the nine annotations; the label is on the parent's title. */
const GLYPHS: Record<Annotation, string> = {
  RISKY: '⚠',
  UNCLEAR: '?',
  SPLIT: '✂',
  DEPENDENCY: '⛓',
  BLOCKED: '⛔',
  DISCUSSION: '💬',
  REJECTED: '✕',
  IDEA: '💡',
  RESEARCH: '🔍',
}

export function AnnotationIcon({ name }: { name: Annotation }) {
  return (
    <span className={`annotation-icon annotation-${name.toLowerCase()}`} aria-hidden="true">
      {GLYPHS[name]}
    </span>
  )
}
