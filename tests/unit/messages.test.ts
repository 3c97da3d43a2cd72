import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { MESSAGE_LIFETIME_MS, MessagesProvider } from '~/ui/messages'

describe('MessagesProvider', () => {
  it('renders the flash message from the server in a status region, so it shows without JavaScript', () => {
    const html = renderToString(
      createElement(MessagesProvider, {
        initial: { id: 'm1', type: 'fail', message: 'Only an owner can do <that>.' },
        children: 'page',
      }),
    )
    expect(html).toContain('role="status"')
    expect(html).toContain('data-type="fail"')
    expect(html).toContain('Only an owner can do &lt;that&gt;.')
  })

  it('renders an empty status region when there is no message', () => {
    const html = renderToString(createElement(MessagesProvider, { initial: null, children: 'page' }))
    expect(html).toContain('role="status"')
    expect(html).not.toContain('class="message ')
  })

  it('dismisses messages after 4000 ms (SPEC §9)', () => {
    expect(MESSAGE_LIFETIME_MS).toBe(4000)
  })
})
