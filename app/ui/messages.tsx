import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react'

/** SPEC §2/§9: the transient message banner. Messages disappear after 4000 ms. */
export type MessageType = 'success' | 'fail'
/** `detail`: a second sentence after the message (e.g. the server's reason for a refusal). */
export type FlashMessage = { id: string; type: MessageType; message: string; detail?: string }

export const MESSAGE_LIFETIME_MS = 4000

type MessagesApi = {
  messages: FlashMessage[]
  push: (type: MessageType, message: string, detail?: string) => void
  dismiss: (id: string) => void
}

const MessagesContext = createContext<MessagesApi | null>(null)

let counter = 0

/**
 * Holds the messages of the page. `initial` is the flash message of the root loader (shown on
 * the server-rendered page too, so it works without JavaScript).
 */
export function MessagesProvider({
  initial,
  children,
}: {
  initial: FlashMessage | null
  children: ReactNode
}) {
  const [messages, setMessages] = useState<FlashMessage[]>(initial ? [initial] : [])
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>())

  const dismiss = useCallback((id: string) => {
    setMessages((list) => list.filter((m) => m.id !== id))
    clearTimeout(timers.current.get(id))
    timers.current.delete(id)
  }, [])

  const add = useCallback((message: FlashMessage) => {
    setMessages((list) => (list.some((m) => m.id === message.id) ? list : [...list, message]))
  }, [])

  const push = useCallback(
    (type: MessageType, message: string, detail?: string) =>
      add({ id: `local-${++counter}`, type, message, detail }),
    [add],
  )

  // A new flash message from a later navigation.
  useEffect(() => {
    if (initial) add(initial)
  }, [initial, add])

  // Each message is dismissed MESSAGE_LIFETIME_MS after it first shows.
  useEffect(() => {
    for (const m of messages) {
      if (!timers.current.has(m.id))
        timers.current.set(
          m.id,
          setTimeout(() => dismiss(m.id), MESSAGE_LIFETIME_MS),
        )
    }
  }, [messages, dismiss])

  useEffect(() => {
    const all = timers.current
    return () => all.forEach((t) => clearTimeout(t))
  }, [])

  const api = useMemo(() => ({ messages, push, dismiss }), [messages, push, dismiss])
  return (
    <MessagesContext.Provider value={api}>
      {children}
      <Messages />
    </MessagesContext.Provider>
  )
}

/** `const { push } = useMessages(); push('fail', 'Something went wrong when trying to rename.')` */
export function useMessages(): MessagesApi {
  const api = useContext(MessagesContext)
  if (!api) throw new Error('useMessages needs a <MessagesProvider> (app/root.tsx has one).')
  return api
}

function Messages() {
  const { messages, dismiss } = useMessages()
  return (
    <div className="messages" role="status" aria-live="polite">
      {messages.map((m) => (
        <div key={m.id} className={`message ${m.type}`} data-type={m.type}>
          <span>
            <span>{m.message}</span>
            {m.detail ? <span className="message-detail"> {m.detail}</span> : null}
          </span>
          <button
            type="button"
            className="message-close"
            aria-label="Dismiss message"
            onClick={() => dismiss(m.id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </div>
  )
}
