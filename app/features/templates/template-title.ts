import { TITLE_MAX } from '~/features/map/vocabulary'

/**
 * The title check of `Save as template` in the board's script, without zod (the board's bundle
 * stays within its budget); the server checks the same with templateTitleFormSchema.
 */
export function templateTitleProblem(title: string): string | null {
  const trimmed = title.trim()
  if (trimmed.length === 0) return 'Title required.'
  if (trimmed.length > TITLE_MAX) return `Maximum ${TITLE_MAX} characters.`
  return null
}
