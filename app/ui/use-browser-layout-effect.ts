import { useEffect, useLayoutEffect } from 'react'

/** useLayoutEffect in the browser; on the server (where it would warn and never run) useEffect. */
export const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect
