import type { LinksFunction, MetaFunction } from 'react-router'
import { Link } from 'react-router'
import { lazy, Suspense, useEffect, useState } from 'react'
import swaggerStyles from 'swagger-ui-react/swagger-ui.css?url'

// Swagger UI reads the window: it loads in the browser only, from our own build (no CDN).
const SwaggerUI = lazy(() => import('swagger-ui-react'))

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: swaggerStyles }]
export const meta: MetaFunction = () => [{ title: 'API reference · Storymap' }]

const DOCUMENT = '/v1/openapi.json'

/** /api: the OpenAPI document of /v1 as a readable reference (CONTRACT §10). */
export default function ApiReference() {
  const [inBrowser, setInBrowser] = useState(false)
  // Swagger UI resolves an OpenAPI 3.1 document for seconds after its script has come: say so until it is drawn.
  const [drawn, setDrawn] = useState(false)
  useEffect(() => setInBrowser(true), [])
  return (
    <div className="account-shell api-reference">
      <header className="account-header">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Storymap
        </Link>
      </header>
      <main>
        <h1>API reference</h1>
        <p>
          Scripts and other tools use the same <code>/v1</code> API as the web app. Make a token in{' '}
          <Link to="/account/settings">Account settings</Link> (section API tokens) and send it as{' '}
          <code>Authorization: Bearer smp_…</code>. The machine-readable description is{' '}
          <a href={DOCUMENT}>the OpenAPI document</a>.
        </p>
        <div className="api-reference-body">
          {inBrowser ? (
            <>
              {drawn ? null : <p role="status">Loading the reference…</p>}
              <Suspense fallback={null}>
                <SwaggerUI
                  url={DOCUMENT}
                  // Groups start folded: with every operation listed, Swagger UI 5.35 resolves them all at
                  // once and, past ~110 paths of our 3.1 document, drew four and stopped (ADR 42).
                  docExpansion="none"
                  defaultModelsExpandDepth={0}
                  onComplete={() => setDrawn(true)}
                />
              </Suspense>
            </>
          ) : (
            <p>The reference needs JavaScript; without it, read the OpenAPI document above.</p>
          )}
        </div>
      </main>
    </div>
  )
}
