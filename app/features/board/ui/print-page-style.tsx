import { useEffect, useState } from 'react'
import { printPageRule } from '~/features/board/print-layout'

/**
 * The printed map's page rule: landscape, the project title and today's date at the top of
 * every page (app/styles/print.css does the rest). The date is the reader's own day, set in the
 * browser after hydration and again just before printing.
 */
export function PrintPageStyle({ title }: { title: string }) {
  const [date, setDate] = useState<string | null>(null)
  useEffect(() => {
    const today = () => setDate(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date()))
    today()
    window.addEventListener('beforeprint', today)
    return () => window.removeEventListener('beforeprint', today)
  }, [])
  // Set as raw text: React would escape the quotes of a child string. cssString escapes `<`, so
  // a title cannot close the element.
  return <style dangerouslySetInnerHTML={{ __html: printPageRule(title, date) }} />
}
