// parse.mjs - read TAP on standard input with tap-parser (node-tap's TAP 14
// parser, in strict mode: a line that is not TAP is a failure), print what
// it understood as one JSON object for tests/integration/tap.sh to check.
import { Parser } from 'tap-parser'

const out = { version: null, asserts: [], extra: [], bailout: null }
const p = new Parser({ strict: true })
p.on('version', v => { out.version = v })
p.on('assert', a => {
  out.asserts.push({ id: a.id, ok: a.ok, name: a.name, skip: a.skip,
    todo: a.todo, diag: a.diag ?? null })
})
p.on('extra', line => out.extra.push(line))
p.on('bailout', reason => { out.bailout = reason })
p.on('complete', r => {
  out.ok = r.ok
  out.count = r.count
  out.pass = r.pass
  out.fail = r.fail
  out.skip = r.skip
  out.plan = { start: r.plan.start, end: r.plan.end, skipAll: r.plan.skipAll,
    skipReason: r.plan.skipReason }
  out.failures = r.failures.filter(f => f.tapError).map(f => f.tapError)
  process.stdout.write(JSON.stringify(out, null, 2) + '\n')
})
process.stdin.pipe(p)
