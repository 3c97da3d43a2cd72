import type { Config } from '@react-router/dev/config'

export default {
  ssr: true,
  // Every route's manifest in the first page, as Remix 2 did with v3_lazyRouteDiscovery off: with
  // thousands of card links the lazy discovery's link scanning cost seconds per change, and a
  // click on a card still being saved could blank the page (ADR 6 and ADR 8).
  routeDiscovery: { mode: 'initial' },
} satisfies Config
