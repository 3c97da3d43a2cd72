// node scripts/runtime-modules.mjs OUT: copies to OUT/node_modules the runtime packages
// (scripts/runtime-packages.mjs) and everything they depend on, as npm installed them, without
// what only installing or building a native addon needs (the packages that fetch or compile it,
// its sources and object files, binaries it does not load) nor type declarations and source maps.
// The Docker image's runtime stage takes this folder instead of the whole node_modules (issues 34, 43).
import fs from 'node:fs'
import path from 'node:path'
import { RUNTIME_PACKAGES } from './runtime-packages.mjs'

const root = process.cwd()
const out = process.argv[2]
if (!out) {
  console.error('usage: node scripts/runtime-modules.mjs OUT')
  process.exit(2)
}

/** Where Node would find `name` from `dir`: the nearest node_modules up the tree that has it. */
function locate(name, dir) {
  for (let at = dir; ; at = path.dirname(at)) {
    const candidate = path.join(at, 'node_modules', name)
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate
    if (at === root || at === path.dirname(at)) return null
  }
}

/**
 * Dependencies that only run when npm installs the addon: better-sqlite3's prebuilt-binary
 * download, argon2's install script wrapper and its C++ headers. Nothing loads them at run time.
 */
const INSTALL_ONLY = new Set(['prebuild-install', 'cross-env', 'node-addon-api'])

const found = new Set()
function visit(name, from, optional) {
  if (INSTALL_ONLY.has(name)) return
  const dir = locate(name, from)
  if (!dir) {
    if (optional) return
    throw new Error(`${name} (needed from ${path.relative(root, from) || '.'}) is not installed`)
  }
  if (found.has(dir)) return
  found.add(dir)
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, false)
  for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true)
  const optionalPeers = manifest.peerDependenciesMeta ?? {}
  for (const dep of Object.keys(manifest.peerDependencies ?? {}))
    if (!optionalPeers[dep]?.optional) visit(dep, dir, false)
}
for (const name of RUNTIME_PACKAGES) visit(name, root, false)

/** What a compiled addon keeps: the compiled `.node` files, not its sources or object files. */
const BUILD_ONLY = new Set(['src', 'deps', 'binding.gyp', 'obj.target', '.deps', 'obj', 'test', 'docs'])
/** C and C++ sources and headers (argon2 ships its library's), gyp files, declarations, source maps. */
const NOT_RUN = /\.(c|cc|cpp|cxx|h|hh|hpp|gyp|gypi)$|\.d\.[cm]?ts$|\.map$/
/** The libc a prebuilt binary must be for: argon2 ships a glibc and a musl one. */
const LIBC = process.report.getReport().header.glibcVersionRuntime ? 'glibc' : 'musl'
function keep(source) {
  const base = path.basename(source)
  if (BUILD_ONLY.has(base) && fs.existsSync(path.join(source, '..', 'package.json'))) return false
  if (NOT_RUN.test(base) && fs.statSync(source).isFile()) return false
  // In build/Release: the addons themselves, not the object files node-gyp leaves beside them
  // (obj.target holds a second copy of each addon) nor better-sqlite3's test extension.
  if (/\/build\/(Release|Debug)\/(obj\.target|obj|\.deps)$/.test(source)) return false
  if (/\/build\/(Release|Debug)\//.test(source) && fs.statSync(source).isFile())
    return source.endsWith('.node') && !source.endsWith('/test_extension.node')
  if (/\/build\/[^/]+$/.test(source) && !/\/build\/(Release|Debug)$/.test(source)) return false
  // Prebuilt binaries (argon2 ships several): none when the addon was compiled here (node-gyp-build
  // loads build/Release first), else only this system's, for its libc.
  if (/\/prebuilds$/.test(source)) return !compiledAddon(path.dirname(source))
  const prebuilt = /\/prebuilds\/([^/]+)$/.exec(source)
  if (prebuilt) return prebuilt[1].startsWith(`${process.platform}-${process.arch}`)
  if (/\/prebuilds\/[^/]+\/[^/]+\.node$/.test(source))
    return !/\.(glibc|musl)\.node$/.test(source) || source.endsWith(`.${LIBC}.node`)
  return true
}
const compiledAddon = (dir) =>
  fs.existsSync(path.join(dir, 'build', 'Release')) &&
  fs.readdirSync(path.join(dir, 'build', 'Release')).some((file) => file.endsWith('.node'))

/** Removes the folders the filter left empty (argon2's C library had only sources and headers). */
function pruneEmpty(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }))
    if (entry.isDirectory()) pruneEmpty(path.join(dir, entry.name))
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir)
}

fs.rmSync(path.join(out, 'node_modules'), { recursive: true, force: true })
for (const dir of found) {
  const target = path.join(out, path.relative(root, dir))
  fs.cpSync(dir, target, { recursive: true, filter: (source) => source === dir || keep(source) })
  pruneEmpty(target)
}
const bytes = sizeOf(path.join(out, 'node_modules'))
console.log(
  `runtime modules: ${found.size} packages, ${(bytes / 1e6).toFixed(1)} MB in ${path.join(out, 'node_modules')}`,
)

function sizeOf(at) {
  const stat = fs.lstatSync(at)
  if (!stat.isDirectory()) return stat.size
  return fs.readdirSync(at).reduce((sum, entry) => sum + sizeOf(path.join(at, entry)), 0)
}
