import vm from 'node:vm'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  earlyClickOf,
  HELD_CLICK_FALLBACK_MS,
  HOLD_EARLY_CLICKS,
  replayHeldClick,
  SCRIPT_CONTROLS,
  takeHeldCardClick,
} from '~/ui/early-click'

/** A stand-in for a page element (no DOM in Node): it matches the selectors it is given, and counts its clicks. */
class FakeElement {
  attributes = new Map<string, string>()
  clicks = 0
  isConnected = true
  constructor(
    private readonly selectors: string[],
    private readonly parent: FakeElement | null = null,
    attributes: Record<string, string> = {},
  ) {
    for (const [name, value] of Object.entries(attributes)) this.attributes.set(name, value)
  }
  closest(selector: string): FakeElement | null {
    if (this.selectors.includes(selector)) return this
    return this.parent?.closest(selector) ?? null
  }
  getAttribute(name: string) {
    return this.attributes.get(name) ?? null
  }
  setAttribute(name: string, value: string) {
    this.attributes.set(name, value)
  }
  removeAttribute(name: string) {
    this.attributes.delete(name)
  }
  click() {
    this.clicks++
  }
}

const control = () => new FakeElement([SCRIPT_CONTROLS])
const card = (href: string) => new FakeElement(['a.card-tile'], null, { href })
const inside = (parent: FakeElement) => new FakeElement([], parent)

function click(target: unknown, options: Partial<MouseEvent> = {}) {
  return {
    button: 0,
    metaKey: false,
    ctrlKey: false,
    shiftKey: false,
    altKey: false,
    target: target as EventTarget,
    preventDefault: vi.fn(),
    stopImmediatePropagation: vi.fn(),
    ...options,
  }
}

describe('earlyClickOf', () => {
  beforeEach(() => vi.stubGlobal('Element', FakeElement))
  afterEach(() => vi.unstubAllGlobals())

  it('holds a plain or modified click on a script-driven control, also on its label text inside', () => {
    const button = control()
    expect(earlyClickOf(click(inside(button)), SCRIPT_CONTROLS)).toEqual({ control: button })
    expect(earlyClickOf(click(button, { shiftKey: true }), SCRIPT_CONTROLS)).toEqual({ control: button })
  })

  it('holds a plain click on a card by its address; a modified one keeps the browser’s way', () => {
    const tile = card('/w/projects/p/f/1')
    expect(earlyClickOf(click(inside(tile)), SCRIPT_CONTROLS)).toEqual({ card: '/w/projects/p/f/1' })
    for (const modifier of ['metaKey', 'ctrlKey', 'shiftKey', 'altKey'])
      expect(earlyClickOf(click(tile, { [modifier]: true }), SCRIPT_CONTROLS)).toBeNull()
  })

  it('leaves other clicks alone: other buttons of the mouse, links, text, non-elements', () => {
    expect(earlyClickOf(click(control(), { button: 1 }), SCRIPT_CONTROLS)).toBeNull()
    expect(earlyClickOf(click(new FakeElement(['a'])), SCRIPT_CONTROLS)).toBeNull()
    expect(earlyClickOf(click(card('')), SCRIPT_CONTROLS)).toBeNull()
    expect(earlyClickOf(click({ nodeType: 3 }), SCRIPT_CONTROLS)).toBeNull()
  })
})

describe('the head script and the page taking over', () => {
  let page: ReturnType<typeof loadPage>

  /** Runs HOLD_EARLY_CLICKS as the browser would (on its own, with only the page's globals). */
  function loadPage() {
    const classes = new Set<string>()
    const listeners: ((event: unknown) => void)[] = []
    const document = {
      documentElement: {
        classList: {
          toggle: (name: string, on: boolean) => (on ? classes.add(name) : classes.delete(name), on),
          remove: (name: string) => classes.delete(name),
        },
      },
      addEventListener: (type: string, listener: (event: unknown) => void, capture: boolean) => {
        expect([type, capture]).toEqual(['click', true])
        listeners.push(listener)
      },
    }
    const location = { assign: vi.fn() }
    const window: Record<string, unknown> = {
      document,
      location,
      Element: FakeElement,
      setTimeout: (f: () => void, ms: number) => setTimeout(f, ms),
    }
    window.window = window
    vm.runInNewContext(HOLD_EARLY_CLICKS, window)
    vi.stubGlobal('window', window)
    vi.stubGlobal('document', document)
    vi.stubGlobal('HTMLElement', FakeElement)
    const dispatch = (event: ReturnType<typeof click>) => {
      for (const listener of listeners) listener(event)
      return event
    }
    return { dispatch, location, opening: () => classes.has('card-opening') }
  }

  beforeEach(() => {
    vi.useFakeTimers()
    page = loadPage()
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('holds a control’s click, marks it busy, and clicks it again once the page has hydrated', () => {
    const activity = control()
    const event = page.dispatch(click(activity))
    expect(event.preventDefault).toHaveBeenCalled()
    expect(event.stopImmediatePropagation).toHaveBeenCalled()
    expect(activity.getAttribute('aria-busy')).toBe('true')
    expect(page.opening()).toBe(false)
    vi.advanceTimersByTime(HELD_CLICK_FALLBACK_MS)
    expect(page.location.assign).not.toHaveBeenCalled()
    expect(activity.getAttribute('aria-busy')).toBe('true')

    expect(takeHeldCardClick()).toBeUndefined()
    replayHeldClick()
    expect(activity.clicks).toBe(1)
    expect(activity.getAttribute('aria-busy')).toBeNull()
    // Hydrated: clicks are the page's own.
    const later = page.dispatch(click(activity))
    expect(later.preventDefault).not.toHaveBeenCalled()
    replayHeldClick()
    expect(activity.clicks).toBe(1)
  })

  it('keeps the latest click only; the same control clicked twice is clicked again once', () => {
    const [activity, personas] = [control(), control()]
    page.dispatch(click(activity))
    page.dispatch(click(personas))
    page.dispatch(click(personas))
    expect(activity.getAttribute('aria-busy')).toBeNull()
    replayHeldClick()
    expect([activity.clicks, personas.clicks]).toEqual([0, 1])
  })

  it('a card clicked after a control replaces it, and the board opens it', () => {
    const trash = control()
    page.dispatch(click(trash))
    page.dispatch(click(card('/w/projects/p/f/1')))
    expect(trash.getAttribute('aria-busy')).toBeNull()
    expect(page.opening()).toBe(true)
    expect(takeHeldCardClick()).toBe('/w/projects/p/f/1')
    expect(page.opening()).toBe(false)
    replayHeldClick()
    expect(trash.clicks).toBe(0)
    vi.advanceTimersByTime(HELD_CLICK_FALLBACK_MS)
    expect(page.location.assign).not.toHaveBeenCalled()
  })

  it('a control clicked after a card replaces it: no card opens, not even the browser’s way', () => {
    const undo = control()
    page.dispatch(click(card('/w/projects/p/f/1')))
    page.dispatch(click(undo))
    expect(page.opening()).toBe(false)
    vi.advanceTimersByTime(HELD_CLICK_FALLBACK_MS)
    expect(page.location.assign).not.toHaveBeenCalled()
    expect(takeHeldCardClick()).toBeUndefined()
  })

  it('a held card goes the browser’s way when the page never hydrates', () => {
    page.dispatch(click(card('/w/projects/p/f/1')))
    vi.advanceTimersByTime(HELD_CLICK_FALLBACK_MS - 1)
    expect(page.location.assign).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(page.location.assign).toHaveBeenCalledWith('/w/projects/p/f/1')
  })

  it('a control React rendered anew (a hydration mismatch) is not clicked, and nothing breaks', () => {
    const gone = control()
    page.dispatch(click(gone))
    gone.isConnected = false
    replayHeldClick()
    expect(gone.clicks).toBe(0)
  })
})
