import { useKeyboardSensor, type SensorAPI, type SnapDragActions } from '@hello-pangea/dnd'
import { useMemo } from 'react'

/**
 * The drag library's own keyboard sensor, with one thing added: a feature carried past the top or
 * bottom card of its cell goes on to the cell of the release above or below (the library moves a
 * card only within a list on that axis). The library's sensor keeps reading the keys; it is
 * handed actions that pass every move on to the drag under way, except such a move past the
 * edge. That one drops the card where it is, lets the board put it in the next cell (`hop`; the
 * board keeps it there, unsaved, while the keys go on) and lifts it again there, so the person
 * keeps carrying the same card. Space drops it, Escape cancels, as before; one move is saved, at
 * the final drop.
 */
export type CarryBoard = {
  /** An arrow past the edge of a cell: true when the board takes the card on to another cell. */
  hop: (direction: 'up' | 'down') => boolean
  /** The card's drag handle, once the board shows it in its new cell. */
  handleOf: (draggableId: string) => HTMLElement | null
  /**
   * Space or Escape while the card sat between two cells, or it could not be lifted again there:
   * the board saves it where it is, or puts it back.
   */
  endBetween: (how: 'drop' | 'cancel') => void
}

export type CarrySensor = {
  useSensor: (api: SensorAPI) => void
  /** The board has shown the card in its new cell: it is lifted again there. */
  liftAgain: (draggableId: string) => void
  /** True from a move past the edge until the card is lifted again. */
  isHopping: () => boolean
}

export function createCarrySensor(board: CarryBoard): CarrySensor {
  let api: SensorAPI | null = null
  /** The library's actions for the drag under way; null between two cells. */
  let current: SnapDragActions | null = null
  let hopping = false
  /** The library sensor's stop, while it is reading the keys of a drag. */
  let stopSensor: (() => void) | null = null

  const endSensor = () => {
    const stop = stopSensor
    stopSensor = null
    stop?.()
  }
  // The drag library took the drag away (another drag, the page hidden): the sensor stops reading keys.
  const onForceStop = () => {
    current = null
    hopping = false
    endSensor()
  }

  const move = (direction: 'up' | 'down') => {
    if (!current) return
    if (!board.hop(direction)) return direction === 'up' ? current.moveUp() : current.moveDown()
    hopping = true
    const dropping = current
    current = null
    dropping.drop()
  }
  // The library's sensor calls its stop itself before it drops or cancels.
  const finish = (how: 'drop' | 'cancel') => {
    stopSensor = null
    if (current) {
      const ending = current
      current = null
      return how === 'drop' ? ending.drop() : ending.cancel()
    }
    if (hopping) {
      hopping = false
      board.endBetween(how)
    }
  }
  const actions: SnapDragActions = {
    isActive: () => current?.isActive() ?? hopping,
    shouldRespectForcePress: () => current?.shouldRespectForcePress() ?? false,
    moveUp: () => move('up'),
    moveDown: () => move('down'),
    moveLeft: () => current?.moveLeft(),
    moveRight: () => current?.moveRight(),
    drop: () => finish('drop'),
    cancel: () => finish('cancel'),
  }

  const wrap = (real: SensorAPI): SensorAPI => ({
    ...real,
    tryGetLock: (draggableId, forceStop, options) => {
      const preDrag = real.tryGetLock(draggableId, onForceStop, options)
      if (!preDrag) return null
      return {
        ...preDrag,
        snapLift: () => {
          current = preDrag.snapLift()
          hopping = false
          stopSensor = forceStop ?? null
          return actions
        },
      }
    },
  })

  return {
    useSensor: function useCarryingKeyboardSensor(real: SensorAPI) {
      api = real
      const wrapped = useMemo(() => wrap(real), [real])
      useKeyboardSensor(wrapped)
    },
    liftAgain(draggableId) {
      // After the drop has run its course in the library (this is called from its onDragEnd).
      setTimeout(() => {
        if (!hopping) return
        const handle = board.handleOf(draggableId)
        handle?.scrollIntoView({ block: 'nearest', inline: 'nearest' })
        if (handle && document.activeElement !== handle) handle.focus({ preventScroll: true })
        const preDrag = handle ? api?.tryGetLock(draggableId, onForceStop) : null
        if (preDrag) {
          current = preDrag.snapLift()
          hopping = false
          return
        }
        // Not draggable there (a far cell of a big map): the card stays where it went.
        hopping = false
        endSensor()
        board.endBetween('drop')
      })
    },
    isHopping: () => hopping,
  }
}
