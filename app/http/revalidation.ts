/**
 * Whether a submission is a board edit (a JSON command posted to a project page): it changes the
 * map and the member's history, which the project page reloads, but nothing the layouts above
 * it show (workspace, account, flash message), so they skip the reload.
 */
export function isBoardWrite({
  formAction,
  formEncType,
}: {
  formAction?: string
  formEncType?: string
}): boolean {
  return formEncType === 'application/json' && !!formAction && /^\/[^/]+\/projects\/[^/?]+$/.test(formAction)
}

/** Opening or closing a card dialog over the same page (/m/, /sw/, /f/, /w/, /p/ after the page's path). */
export function isOverlayMove(currentUrl: URL, nextUrl: URL): boolean {
  const base = (url: URL) => url.pathname.replace(/\/(m|sw|f|w|p)\/[^/]+$/, '')
  return currentUrl.pathname !== nextUrl.pathname && base(currentUrl) === base(nextUrl)
}
