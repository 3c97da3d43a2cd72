import type { MetaFunction } from 'react-router'
import { NotFound } from '~/ui/not-found'

export const meta: MetaFunction = () => [{ title: 'Page not found · Storymap' }]

export function loader() {
  throw new Response('Not found', { status: 404 })
}

export default NotFound

export const ErrorBoundary = NotFound
