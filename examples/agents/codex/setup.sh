#!/bin/sh
# Codex cloud: the environment's setup script.  After the project's own
# setup steps, keep the audit where the agent reads it (AGENTS.md says
# so), outside the work tree.  What the audit finds never fails the
# setup (--exit-zero); a malformed spec file, or no envpreflight on PATH,
# still does: those are the setup's own mistakes, to be seen.
envpreflight --exit-zero --json >"${TMPDIR:-/tmp}/envpreflight.json"
