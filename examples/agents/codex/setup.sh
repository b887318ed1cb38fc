#!/bin/sh
# Codex cloud: the environment's setup script.  After the project's own
# setup steps, keep the audit where the agent reads it (AGENTS.md says
# so), outside the work tree; never fail the setup over it.
envpreflight --exit-zero --json >"${TMPDIR:-/tmp}/envpreflight.json"
