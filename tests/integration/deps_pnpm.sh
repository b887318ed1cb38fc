#!/bin/sh
# deps_pnpm.sh - the deps probe's pnpm against the real pnpm 8 (pnpm8)
# and pnpm 12 (pnpm), the oracle (issue 18).  Each state is built with
# the real pnpm, then judged twice: by envpreflight, and by `pnpm install
# --frozen-lockfile --offline` run on a copy (the tree before and after,
# and its exit status).  envpreflight must fail exactly when pnpm would
# change something or refuse; where it prints a fix, running that fix on
# the state makes the check pass.
#
# Packages are tarballs packed here (file: dependencies, no network); the
# registry is asked only for fsevents (an optional package of another
# platform) and is-number (pnpm 12's configDependencies), cached in
# tests/managers/cache after the first run, skipped when it cannot be had.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../managers/lib.sh"

# VERBOSE=1: every case is listed, not only the failed ones
if [ -n "${VERBOSE:-}" ]; then
	ok() {
		T_PASSED=$((T_PASSED + 1))
		echo "ok: $d"
	}
fi
has() { printf '%s\n' "$2" | grep -qF -- "$1"; }
# js OUTPUT PYEXPR: PYEXPR holds with c = the deps check of a JSON report
js() {
	printf '%s' "$1" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["probe"] == "deps"][0]
sys.exit(0 if eval(sys.argv[1]) else 1)' "$2"
}

T=$TEST_TMPDIR
src=$T/src
mkdir -p "$src" "$T/w"

# pack NAME VERSION [JSON-EXTRA]: $src/NAME-VERSION.tgz
pack() {
	d=$T/pack/$1-$2/package
	mkdir -p "$d"
	printf '{"name":"%s","version":"%s"%s}\n' "$1" "$2" "${3:-}" >"$d/package.json"
	echo 'module.exports = 1' >"$d/index.js"
	tar czf "$src/$1-$2.tgz" -C "$d/.." package
}
pack tiny-a 1.0.0
pack tiny-a 1.1.0
pack tiny-c 2.0.0

# manifest DIR DEPS-JSON [REST]: a package.json
manifest() {
	mkdir -p "$1"
	printf '{"name":"%s","version":"1.0.0","dependencies":{%s}%s}\n' \
		"$(basename "$1")" "$2" "${3:-}" >"$1/package.json"
}
tgz() { printf '"%s":"file:../../src/%s-%s.tgz"' "$1" "$1" "$2"; }

# snap DIR: what an install could change (the tree, link targets, the
# lockfiles), one line each
snap() {
	(cd "$1" && find . -path ./node_modules/.pnpm-workspace-state-v1.json -prune -o \
		-path ./node_modules/.modules.yaml -prune -o -printf '%p %y %l\n' | LC_ALL=C sort &&
		cat pnpm-lock.yaml node_modules/.pnpm/lock.yaml 2>/dev/null)
}

# oracle MGR DIR: what pnpm's frozen install does to a copy of DIR:
# "same", "changed" or "refused" (its errors in $T/oracle.out)
oracle() {
	o=$2.oracle
	rm -rf "$o" && cp -a "$2" "$o"
	snap "$o" >"$T/before"
	if (cd "$o" && mgr "$1" install --frozen-lockfile --offline) >"$T/oracle.out" 2>&1; then
		snap "$o" >"$T/after"
		if cmp -s "$T/before" "$T/after"; then echo same; else echo changed; fi
	else
		echo refused
	fi
	rm -rf "$o"
}

# agree MGR DIR CASE: envpreflight fails exactly when pnpm would not
# leave DIR as it is; prints envpreflight's JSON into $out
agree() {
	out=$(ep --only=deps --json "$2")
	st=$?
	said=$(oracle "$1" "$2")
	case $said in same) want=0 ;; *) want=1 ;; esac
	got=$(printf '%s' "$out" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["probe"] == "deps"][0]
print(c["status"] + ": " + c["message"])')
	case $got in fail*) is=1 ;; *) is=0 ;; esac
	check "[$1] $3: pnpm says $said ($(head -c 300 "$T/oracle.out" | grep -o 'ERR_PNPM_[A-Z_]*' | head -1)), envpreflight (exit $st) $got" \
		[ "$is" = "$want" ]
}

# fixed MGR DIR CASE: the check's fix, run in DIR, makes it pass
fixed() {
	argv=$(printf '%s' "$out" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["probe"] == "deps"][0]
print(" ".join(c["fix"]["argv"][1:]) if c.get("fix") and c["fix"].get("argv") else "")')
	if [ -z "$argv" ]; then
		not_ok "[$1] $3: no fix to run"
		return
	fi
	# shellcheck disable=SC2086 # the fix's words, checked to be plain words
	(cd "$2" && mgr "$1" $argv --offline) >"$T/fix.out" 2>&1
	fo=$(ep --only=deps "$2")
	check "[$1] $3: after 'pnpm $argv' the check passes: $fo" has "✔ pnpm packages" "$fo"
}

for M in pnpm8 pnpm; do
	if ! mgr_have $M; then
		skip "$(mgr_why $M)"
		continue
	fi
	base=$T/w/$M-base
	manifest "$base" "$(tgz tiny-a 1.0.0),$(tgz tiny-c 2.0.0)"
	if ! (cd "$base" && mgr $M install --offline) >"$T/install.out" 2>&1; then
		not_ok "[$M] the base install: $(tail -3 "$T/install.out")"
		continue
	fi
	p=$T/w/$M
	fresh() { rm -rf "$p" && cp -a "$base" "$p"; }

	# up to date
	fresh
	agree $M "$p" "up to date"
	check "[$M] up to date: 2 packages match" js "$out" \
		'c["status"] == "pass" and c["message"] == "2 packages match node_modules/.pnpm/lock.yaml"'

	# a package folder deleted: pnpm imports it again
	fresh
	rm -rf "$p"/node_modules/.pnpm/*tiny-c*/node_modules/tiny-c
	agree $M "$p" "package folder deleted"
	check "[$M] package folder deleted: named" js "$out" \
		'c["data"]["differences"][0]["name"] == "tiny-c" and c["data"]["differences"][0]["problem"] == "missing"'
	fixed $M "$p" "package folder deleted"

	# the link node_modules/tiny-a deleted: pnpm links it again
	fresh
	rm "$p/node_modules/tiny-a"
	agree $M "$p" "top-level link deleted"
	check "[$M] top-level link deleted: named" js "$out" \
		'c["data"]["differences"][0]["key"] == "node_modules/tiny-a" and "link" in c["message"]'
	fixed $M "$p" "top-level link deleted"

	# a package's files deleted, its folder kept: pnpm does not look
	fresh
	rm -f "$p"/node_modules/.pnpm/*tiny-c*/node_modules/tiny-c/index.js
	agree $M "$p" "files inside a package deleted"

	# a pull that locked tiny-a 1.1.0: version drift
	other=$T/w/$M-other
	rm -rf "$other" && cp -a "$base" "$other"
	manifest "$other" "$(tgz tiny-a 1.1.0),$(tgz tiny-c 2.0.0)"
	(cd "$other" && mgr $M install --offline) >"$T/install.out" 2>&1
	fresh
	cp "$other/package.json" "$other/pnpm-lock.yaml" "$p/"
	agree $M "$p" "version drift"
	check "[$M] version drift: tiny-a named" js "$out" \
		'c["data"]["differences"][0]["name"] == "tiny-a" and c["data"]["differences"][0]["problem"] == "version"'
	fixed $M "$p" "version drift"

	# a pull that dropped tiny-c: an extra package, a warning (as npm's
	# and yarn's extras), though pnpm would remove it
	manifest "$other" "$(tgz tiny-a 1.0.0)"
	(cd "$other" && mgr $M install --offline) >"$T/install.out" 2>&1
	fresh
	cp "$other/package.json" "$other/pnpm-lock.yaml" "$p/"
	out=$(ep --only=deps --json "$p")
	check "[$M] extra package: a warning naming it" js "$out" \
		'c["status"] == "warn" and c["data"]["differences"][0]["name"] == "tiny-c" and c["data"]["differences"][0]["problem"] == "extra"'
	said=$(oracle $M "$p")
	check "[$M] extra package: pnpm removes it ($said)" [ "$said" = changed ]

	# package.json edited without relocking: pnpm refuses
	fresh
	manifest "$p" "$(tgz tiny-a 1.1.0),$(tgz tiny-c 2.0.0)"
	agree $M "$p" "package.json edited, spec changed"
	check "[$M] spec changed: ERR_PNPM_OUTDATED_LOCKFILE" grep -q ERR_PNPM_OUTDATED_LOCKFILE "$T/oracle.out"
	check "[$M] spec changed: the relock as fix, said as such" js "$out" \
		'c["fix"]["argv"] == ["pnpm", "install", "--no-frozen-lockfile"] and c["data"]["outdated_lockfile"]["name"] == "tiny-a" and "relock" in c["hint"]'
	fixed $M "$p" "package.json edited, spec changed"
	fresh
	manifest "$p" "$(tgz tiny-a 1.0.0)" ',"devDependencies":{'"$(tgz tiny-c 2.0.0)"'}'
	agree $M "$p" "package.json edited, a dependency moved to devDependencies"
	fresh
	manifest "$p" "$(tgz tiny-a 1.0.0)"
	agree $M "$p" "package.json edited, a dependency removed"
	fixed $M "$p" "package.json edited, a dependency removed"
	fresh
	manifest "$p" "$(tgz tiny-a 1.0.0),$(tgz tiny-c 2.0.0)" ',"scripts":{"x":"true"},"version":"2.0.0"'
	agree $M "$p" "package.json edited, no dependency changed"

	# no node_modules
	fresh
	rm -rf "$p/node_modules"
	agree $M "$p" "no node_modules"
	fixed $M "$p" "no node_modules"

	# a workspace: packages/a depends on packages/b
	ws=$T/w/$M-ws
	rm -rf "$ws"
	manifest "$ws" "$(tgz tiny-a 1.0.0)"
	printf 'packages:\n  - "packages/*"\n' >"$ws/pnpm-workspace.yaml"
	mkdir -p "$ws/packages/a"
	printf '{"name":"a","version":"1.0.0","dependencies":{"b":"workspace:*","tiny-c":"file:../../../../src/tiny-c-2.0.0.tgz"}}\n' \
		>"$ws/packages/a/package.json"
	mkdir -p "$ws/packages/b"
	printf '{"name":"b","version":"1.0.0"}\n' >"$ws/packages/b/package.json"
	if (cd "$ws" && mgr $M install --offline) >"$T/install.out" 2>&1; then
		agree $M "$ws" "workspace up to date"
		rm "$ws/packages/a/node_modules/b"
		agree $M "$ws" "workspace link deleted"
		check "[$M] workspace link deleted: named" js "$out" \
			'c["data"]["differences"][0]["key"] == "packages/a/node_modules/b"'
		fixed $M "$ws" "workspace link deleted"
		sed -i 's/"workspace:\*"/"workspace:^1.0.0"/' "$ws/packages/a/package.json"
		agree $M "$ws" "workspace project's package.json edited"
		check "[$M] workspace package.json edited: names its file" js "$out" \
			'c["data"]["outdated_lockfile"]["manifest_file"] == "packages/a/package.json"'
		fixed $M "$ws" "workspace project's package.json edited"
		# a project added without relocking: pnpm refuses (pnpm 8
		# ERR_PNPM_OUTDATED_LOCKFILE, pnpm 12 ..._NO_IMPORTER)
		mkdir -p "$ws/packages/c"
		printf '{"name":"c","version":"1.0.0","dependencies":{"b":"workspace:*"}}\n' \
			>"$ws/packages/c/package.json"
		agree $M "$ws" "workspace project added"
		fixed $M "$ws" "workspace project added"
		# a project removed without relocking: pnpm 8 changes nothing;
		# pnpm 12 only removes the hoisted link to it that now dangles
		# (node_modules/.pnpm/node_modules/c) and its importer from its
		# own record (node_modules/.pnpm/lock.yaml): nothing the project
		# resolves through.  envpreflight passes both (a decision, said
		# here and in the report, not an agreement)
		rm -rf "$ws/packages/c"
		if [ $M = pnpm8 ]; then
			agree $M "$ws" "workspace project removed"
		else
			out=$(ep --only=deps --json "$ws")
			rm -rf "$ws.oracle" && cp -a "$ws" "$ws.oracle"
			snap "$ws.oracle" >"$T/before"
			(cd "$ws.oracle" && mgr $M install --frozen-lockfile --offline) >"$T/oracle.out" 2>&1
			snap "$ws.oracle" >"$T/after"
			rm -rf "$ws.oracle"
			diff "$T/before" "$T/after" | grep '^[<>]' >"$T/changed"
			check "[$M] workspace project removed: pnpm removes the dangling hoisted link: $(tr "\n" " " <"$T/changed")" \
				grep -qx '< ./node_modules/.pnpm/node_modules/c l ../../../packages/c' "$T/changed"
			check "[$M] workspace project removed: ... and the importer from its record, nothing else" \
				[ "$(grep -v 'packages/c' "$T/changed" | grep -v '^< *$' | grep -cv '^<  ')" = 0 ]
			check "[$M] workspace project removed: envpreflight passes" js "$out" 'c["status"] == "pass"'
		fi
	else
		not_ok "[$M] the workspace install: $(tail -3 "$T/install.out")"
	fi

	# an optional package of another platform (fsevents: darwin), from
	# the registry: skipped by pnpm, not counted
	op=$T/w/$M-opt
	rm -rf "$op"
	manifest "$op" "$(tgz tiny-a 1.0.0)" ',"optionalDependencies":{"fsevents":"2.3.3"}'
	if (cd "$op" && mgr $M install) >"$T/install.out" 2>&1; then
		agree $M "$op" "optional package of another platform skipped"
		check "[$M] optional skipped: not counted" js "$out" \
			'c["message"] == "1 package matches node_modules/.pnpm/lock.yaml"'
	else
		skip "[$M] fsevents from the registry: $(tail -1 "$T/install.out")"
	fi
done

# pnpm 11's global virtual store: the packages' folders are in the
# store, named by a hash (not looked at); the links still are
M=pnpm
if mgr_have $M; then
	gv=$T/w/$M-gvs
	rm -rf "$gv"
	manifest "$gv" "$(tgz tiny-a 1.0.0),$(tgz tiny-c 2.0.0)"
	printf 'enableGlobalVirtualStore: true\n' >"$gv/pnpm-workspace.yaml"
	if (cd "$gv" && mgr $M install --offline) >"$T/install.out" 2>&1 &&
		grep -q '"virtualStoreDir": "\.\./' "$gv/node_modules/.modules.yaml"; then
		agree $M "$gv" "global virtual store, up to date"
		rm "$gv/node_modules/tiny-a"
		agree $M "$gv" "global virtual store, a link deleted"
	else
		not_ok "[$M] the global virtual store install: $(tail -3 "$T/install.out")"
	fi
fi

# pnpm 11 and later: pnpm-lock.yaml is two YAML documents when the
# project has configDependencies (or a packageManager pnpm installs)
M=pnpm
if mgr_have $M; then
	cd2=$T/w/$M-config
	rm -rf "$cd2"
	manifest "$cd2" "$(tgz tiny-a 1.0.0)"
	printf 'configDependencies:\n  is-number: 7.0.0\n' >"$cd2/pnpm-workspace.yaml"
	if (cd "$cd2" && mgr $M install) >"$T/install.out" 2>&1; then
		check "[$M] configDependencies: two documents" [ "$(grep -c '^---$' "$cd2/pnpm-lock.yaml")" = 2 ]
		agree $M "$cd2" "two documents (configDependencies), up to date"
		check "[$M] two documents: the project's packages" js "$out" \
			'c["message"] == "1 package matches node_modules/.pnpm/lock.yaml"'
		rm "$cd2/node_modules/tiny-a"
		agree $M "$cd2" "two documents, a link deleted"
		fixed $M "$cd2" "two documents, a link deleted"
		# a third document: pnpm refuses the file; a failed check naming
		# the line, not an audit that cannot run
		printf -- '---\nlockfileVersion: "9.0"\n' >>"$cd2/pnpm-lock.yaml"
		third=$(grep -n '^---$' "$cd2/pnpm-lock.yaml" | sed -n 3p | cut -d: -f1)
		agree $M "$cd2" "three documents"
		check "[$M] three documents: ERR_PNPM_BROKEN_LOCKFILE" grep -q ERR_PNPM_BROKEN_LOCKFILE "$T/oracle.out"
		check "[$M] three documents: pnpm-lock.yaml:$third named, exit 1" js "$out" \
			'c["reason"] == "lockfile-invalid" and c["message"].startswith("pnpm-lock.yaml:'"$third"':1: a third YAML document")'
	else
		skip "[$M] configDependencies from the registry: $(tail -1 "$T/install.out")"
	fi
fi

# hoisted links (.modules.yaml hoistedDependencies): is-odd brings
# is-number, hoisted publicly with shamefully-hoist, privately into
# .pnpm/node_modules without it; pnpm 8 relinks a deleted one on a frozen
# install, pnpm 12 does not (the oracle decides either way)
for M in pnpm8 pnpm; do
	mgr_have $M || continue
	for how in public private; do
		h=$T/w/$M-hoist-$how
		rm -rf "$h" && mkdir -p "$h"
		printf '{"name":"x","version":"1.0.0","dependencies":{"is-odd":"3.0.1"}}\n' >"$h/package.json"
		if [ $how = public ]; then
			printf 'shamefully-hoist=true\n' >"$h/.npmrc"
			printf 'shamefullyHoist: true\n' >"$h/pnpm-workspace.yaml"
			link=node_modules/is-number
		else
			link=node_modules/.pnpm/node_modules/is-number
		fi
		[ $M = pnpm8 ] && rm -f "$h/pnpm-workspace.yaml"
		if ! (cd "$h" && mgr $M install) >"$T/install.out" 2>&1 || [ ! -L "$h/$link" ]; then
			skip "[$M] a $how hoisted link: is-odd from the registry: $(tail -n 1 "$T/install.out")"
			continue
		fi
		agree $M "$h" "$how hoisting, up to date"
		rm "$h/$link"
		agree $M "$h" "the $how hoisted link $link deleted"
		if [ "$is" = 1 ]; then
			check "[$M] $how hoisted link: named" js "$out" \
				'c["data"]["differences"][0]["key"] == "'"$link"'"'
			fixed $M "$h" "the $how hoisted link deleted"
		fi
	done
done
finish
