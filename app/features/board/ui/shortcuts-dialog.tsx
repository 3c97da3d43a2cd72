import { Modal } from '~/ui/modal'

/** Every keyboard shortcut of the board (CONTRACT §9); README.md lists the same. */
/** `keys`: alternatives ("or"), each a combination; with `sequence` they are pressed one after another. */
export const SHORTCUTS: { keys: string[][]; what: string; sequence?: boolean }[] = [
  { keys: [['/']], what: 'Search cards' },
  { keys: [['←'], ['→']], what: 'Card to the left / right in the same row' },
  { keys: [['↑'], ['↓']], what: 'Card above / below, then on across releases' },
  { keys: [['Enter']], what: 'Open the focused card' },
  { keys: [['n']], what: 'New card in the focused card’s cell (or next to it)' },
  {
    keys: [['Space'], ['arrows'], ['Space']],
    sequence: true,
    what: 'Drag the focused card: lift, move, drop (Escape cancels)',
  },
  { keys: [['c']], what: 'Collapse or expand the focused goal or release (on an activity: its goal)' },
  { keys: [['-']], what: 'Zoom out' },
  { keys: [['=']], what: 'Zoom in' },
  { keys: [['0']], what: 'Fit the whole map’s width in the window' },
  { keys: [['?']], what: 'Show these shortcuts' },
  { keys: [['Escape']], what: 'Close the dialog or panel; clear the search field' },
  {
    keys: [
      ['Ctrl', 'Z'],
      ['⌘', 'Z'],
    ],
    what: 'Undo',
  },
  {
    keys: [
      ['Ctrl', 'Shift', 'Z'],
      ['⌘', 'Shift', 'Z'],
      ['Ctrl', 'Y'],
    ],
    what: 'Redo',
  },
]

const KEY_NAMES: Record<string, string> = {
  '←': 'Left arrow',
  '→': 'Right arrow',
  '↑': 'Up arrow',
  '↓': 'Down arrow',
  '⌘': 'Command',
}

function Keys({ combos, sequence }: { combos: string[][]; sequence?: boolean }) {
  return (
    <>
      {combos.map((combo, i) => (
        <span key={i}>
          {i > 0 ? <span className="muted">{sequence ? ', then ' : ' or '}</span> : null}
          {combo.map((key, j) => (
            <span key={j}>
              {j > 0 ? '+' : null}
              <kbd>
                {KEY_NAMES[key] ? (
                  <>
                    <span aria-hidden="true">{key}</span>
                    <span className="sr-only">{KEY_NAMES[key]}</span>
                  </>
                ) : (
                  key
                )}
              </kbd>
            </span>
          ))}
        </span>
      ))}
    </>
  )
}

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose} className="shortcuts-dialog">
      <p className="muted small">They work while no text field has the focus.</p>
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.what}>
              <td>
                <Keys combos={s.keys} sequence={s.sequence} />
              </td>
              <td>{s.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row end">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}
