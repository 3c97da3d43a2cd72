import { pngScale } from '~/features/board/overview'

/** Controls that add to the map, left out of its picture. */
const LEFT_OUT = '.add-feature, .add-button, .persona-chip.add'

/**
 * `Export PNG` (CONTRACT §15): the whole map as the board shows it (search, filters, folds,
 * zoom, theme), not only what is on screen, drawn in the browser by modern-screenshot (loaded on
 * first use), and downloaded as `{project title}.png`.
 */
export async function exportMapPng(board: HTMLElement, title: string): Promise<void> {
  const { domToBlob } = await import('modern-screenshot')
  const width = board.scrollWidth
  const height = board.scrollHeight
  // The page's own background (the theme's, which the sticky goal row wears), under the gaps between rows.
  const goalRow = board.querySelector('.goal-row')
  const background = goalRow ? getComputedStyle(goalRow).backgroundColor : null
  const blob = await domToBlob(board, {
    type: 'image/png',
    width,
    height,
    scale: pngScale(width, height),
    backgroundColor: background,
    filter: (node) => !(node instanceof Element && node.matches(LEFT_OUT)),
    onCloneEachNode: (clone) => {
      // Far cells skip their drawing on screen (content-visibility); the picture draws them all.
      if (clone instanceof HTMLElement && clone.classList.contains('cell-group'))
        clone.style.contentVisibility = 'visible'
    },
  })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `${title}.png`
  document.body.append(link)
  link.click()
  link.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
