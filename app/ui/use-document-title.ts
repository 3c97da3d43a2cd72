import { useEffect } from 'react'

/**
 * Names the browser tab `title` while the calling component is shown (null: leaves it alone),
 * then gives back the title it found, unless something else has set one meanwhile (the next
 * page's own). For what a route's meta cannot know, such as an open card's title, which changes
 * live while the page's data does not.
 */
export function useDocumentTitle(title: string | null) {
  useEffect(() => {
    if (title === null) return
    const before = document.title
    document.title = title
    return () => {
      if (document.title === title) document.title = before
    }
  }, [title])
}
