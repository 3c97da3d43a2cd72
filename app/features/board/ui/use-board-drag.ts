import {
  useMouseSensor,
  useTouchSensor,
  type DragDropContextProps,
  type DragStart,
  type DragUpdate,
  type DropResult,
  type ResponderProvided,
} from '@hello-pangea/dnd'
import { useRef, useState } from 'react'
import { flushSync } from 'react-dom'
import type { BoardCommand } from '~/features/board/board-commands'
import type { BoardGrid } from '~/features/board/board-grid'
import type { ProjectBundle } from '~/features/map/bundle-types'
import {
  cardTitle,
  dragWords,
  dropCommand,
  moveAcrossReleases,
  placeName,
  type DragPlace,
  type FeatureMove,
} from '~/features/board/drag-moves'
import type { LiveInfo } from './board-context'
import { createCarrySensor } from './keyboard-carry'
import type { NearWatcher } from './near-viewport'

type Options = {
  /** The map as the board shows it (with the card being carried, see `carry`). */
  bundle: ProjectBundle
  grid: BoardGrid
  showClosed: boolean
  includeClosed: boolean
  readOnly: boolean
  dispatch: (command: BoardCommand) => void
  live: LiveInfo | null
  nearWatcher: NearWatcher
  /** The card's drag handle in the board. */
  handleOf: (id: string) => HTMLElement | null
  /** Releases folded away: a keyboard drag goes past them. */
  foldedReleases?: ReadonlySet<string>
  /** Where a keyboard drag has taken a feature so far (shown, not saved), or null. */
  setCarry: (move: FeatureMove | null) => void
}

type Session = {
  id: string
  type: string
  title: string
  /** Where the card was lifted first: a cancel puts it back there. */
  origin: DragPlace
  /** Where it is now. */
  over: DragPlace | null
  /** Set between a drop at a cell's edge and the lift in the next cell. */
  hop: { move: FeatureMove; to: DragPlace } | null
  liftingAgain: boolean
}

/**
 * The board's drags: what they announce (titles and places, not ids), the move a drop sends, and
 * a keyboard drag of a feature on across releases (keyboard-carry.ts). Returns the drag
 * library's props and whether a drag is under way (the arrow keys are the library's then, and
 * everyone else's changes wait for the drop).
 */
export function useBoardDrag(options: Options) {
  const latest = useRef(options)
  latest.current = options
  const session = useRef<Session | null>(null)
  const dragging = useRef(false)
  const carried = useRef<FeatureMove | null>(null)

  const carryTo = (move: FeatureMove | null) => {
    carried.current = move
    // The drag library needs the card in its new place before it goes on.
    flushSync(() => latest.current.setCarry(move))
  }
  const place = (at: DragPlace) => placeName(latest.current.bundle, at.droppableId)

  const [sensor] = useState(() =>
    createCarrySensor({
      hop(direction) {
        const s = session.current
        if (!s || s.type !== 'FEATURE' || !s.over || s.hop) return false
        s.hop = moveAcrossReleases(
          latest.current.grid,
          { id: s.id, over: s.over },
          direction,
          latest.current.includeClosed,
          latest.current.foldedReleases,
        )
        return s.hop !== null
      },
      handleOf: (id) => latest.current.handleOf(id),
      endBetween(how) {
        const s = session.current
        if (how === 'drop' && carried.current) latest.current.dispatch(carried.current)
        carryTo(null)
        if (s) end()
      },
    }),
  )
  const [sensors] = useState(() => [useMouseSensor, useTouchSensor, sensor.useSensor])

  const begin = () => {
    dragging.current = true
    latest.current.nearWatcher.setDragging(true)
    latest.current.live?.setDragging(true)
  }
  const end = () => {
    session.current = null
    dragging.current = false
    latest.current.live?.setDragging(false)
    latest.current.nearWatcher.setDragging(false)
  }

  const onDragStart = (start: DragStart, provided: ResponderProvided) => {
    const s = session.current
    if (s?.liftingAgain && s.id === start.draggableId) {
      s.liftingAgain = false
      s.over = start.source
      return provided.announce(dragWords.moved(s.title, place(start.source), start.source.index))
    }
    begin()
    const title = cardTitle(latest.current.bundle, start.draggableId)
    session.current = {
      id: start.draggableId,
      type: start.type,
      title,
      origin: start.source,
      over: start.source,
      hop: null,
      liftingAgain: false,
    }
    provided.announce(dragWords.lifted(title, place(start.source), start.source.index))
  }

  const onDragUpdate = (update: DragUpdate, provided: ResponderProvided) => {
    const s = session.current
    if (!s) return
    s.over = update.destination ?? null
    provided.announce(
      update.destination
        ? dragWords.moved(s.title, place(update.destination), update.destination.index)
        : dragWords.outside(s.title),
    )
  }

  const onDragEnd = (result: DropResult, provided: ResponderProvided) => {
    const s = session.current
    if (s?.hop && sensor.isHopping()) {
      const { move, to } = s.hop
      s.hop = null
      s.liftingAgain = true
      s.over = to
      carryTo(move)
      // Said once the card is in the air again, when the next arrow key moves it.
      provided.announce('')
      return sensor.liftAgain(result.draggableId)
    }
    const title = s?.title ?? cardTitle(latest.current.bundle, result.draggableId)
    try {
      const { bundle, grid, showClosed, includeClosed, readOnly } = latest.current
      const command =
        result.reason === 'DROP' && result.destination && !readOnly
          ? dropCommand(
              bundle,
              grid,
              { id: result.draggableId, type: result.type, destination: result.destination },
              { showClosed, includeClosed },
            )
          : null
      if (command) {
        // Where the carried card was shown becomes where it goes, in the same frame as the move.
        if (carried.current && command.type === 'feature.move') carryTo(command)
        latest.current.dispatch(command)
        provided.announce(dragWords.dropped(title, place(result.destination!), result.destination!.index))
      } else {
        const origin = s?.origin ?? result.source
        provided.announce(dragWords.cancelled(title, place(origin), origin.index))
      }
      if (carried.current) carryTo(null)
    } finally {
      end()
    }
  }

  const context: Omit<DragDropContextProps, 'children'> = {
    onDragStart,
    onDragUpdate,
    onDragEnd,
    sensors,
    enableDefaultSensors: false,
    dragHandleUsageInstructions: dragWords.instructions,
  }
  return { context, dragging }
}
