# tests/managers/lib.sh - the real package managers, the oracle of the
# deps tests (tests/integration/deps_*.sh).  Sourced after tests/lib.sh.
#
# make deps-check installs them from the npm registry into
# tests/managers/node_modules (pinned by package-lock.json, install
# scripts not run: every one is a JavaScript file or a binary the package
# itself carries):
#   pnpm8   pnpm 8.15.9 (JavaScript)        pnpm   pnpm 12 (the binary of @pnpm/exe.linux-x64)
#   pnpm9   pnpm 9.15.9 (JavaScript)        pnpm10 pnpm 10.34.8 (JavaScript)
#   yarn3   @yarnpkg/cli-dist 3.8.6         yarn4  @yarnpkg/cli-dist 4.18.1
#   bun     @oven/bun-linux-x64 1.4.5 (the binary, no postinstall download)
# npm is the machine's own.
#
# What they download is cached in tests/managers/cache (the npm cache, the
# pnpm store, yarn's global cache, bun's cache; each safe to share between
# two runs at once), or $ENVPREFLIGHT_MGR_CACHE; everything else (HOME,
# config, the projects) is in the run's scratch directory.  A test asks
# with mgr_have NAME, and skips with mgr_why's reason when it is missing.
mgr_dir=$(cd "$(dirname "$0")/../managers" && pwd)
mgr_nm=$mgr_dir/node_modules
MGR_CACHE=${ENVPREFLIGHT_MGR_CACHE:-$mgr_dir/cache}
mkdir -p "$MGR_CACHE" "$TEST_TMPDIR/mgr-home" "$TEST_TMPDIR/mgr-tmp"

# mgr_path NAME: the file that runs NAME (a script for node, or a binary)
mgr_path() {
	case $1 in
	pnpm8) echo "$mgr_nm/pnpm8/bin/pnpm.cjs" ;;
	pnpm9) echo "$mgr_nm/pnpm9/bin/pnpm.cjs" ;;
	pnpm10) echo "$mgr_nm/pnpm10/bin/pnpm.cjs" ;;
	pnpm) echo "$mgr_nm/pnpm/pnpm" ;;
	yarn3) echo "$mgr_nm/yarn3/bin/yarn.js" ;;
	yarn4) echo "$mgr_nm/yarn4/bin/yarn.js" ;;
	bun) echo "$mgr_nm/bun/bin/bun" ;;
	npm) command -v npm ;;
	esac
}

# mgr_have NAME: NAME can run here
mgr_have() {
	mgr_p=$(mgr_path "$1") && [ -n "$mgr_p" ] && [ -f "$mgr_p" ] || return 1
	case $1 in bun | pnpm) [ -x "$mgr_p" ] ;; *) command -v node >/dev/null 2>&1 ;; esac
}

# mgr_why NAME: why NAME is missing, for skip
mgr_why() {
	echo "$1 is not installed in tests/managers/node_modules (make deps-check installs it from the npm registry; offline?)"
}

# The caller's way to the registry, kept: a company network's CA bundle
# or proxy (node reads NODE_EXTRA_CA_CERTS; npm, pnpm, yarn and bun the
# proxy variables), as VAR=value words for env
mgr_net=
for mgr_v in NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR HTTPS_PROXY https_proxy \
	HTTP_PROXY http_proxy NO_PROXY no_proxy npm_config_cafile; do
	eval "mgr_x=\${$mgr_v:-}"
	[ -n "$mgr_x" ] && case $mgr_x in *[[:space:]]*) ;; *) mgr_net="$mgr_net $mgr_v=$mgr_x" ;; esac
done
# ... but not as NODE_EXTRA_CA_CERTS for the JavaScript managers: node
# reads and parses that file as it starts, every start (40 ms of CPU
# here: 110 against 70 for node -e 0, and they start about 500 times),
# though most runs are offline.  The same certificates, node's own and
# the extra ones, are one file that node reads at its first TLS
# connection only: --use-openssl-ca with SSL_CERT_FILE (OpenSSL's
# default path, X509_STORE_set_default_paths).  bun and pnpm 12, not
# node, keep the variable.
mgr_js_net=$mgr_net
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ] &&
	node -p "require('tls').rootCertificates.join('\n')" >"$TEST_TMPDIR/mgr-ca.pem" 2>/dev/null &&
	cat "$NODE_EXTRA_CA_CERTS" >>"$TEST_TMPDIR/mgr-ca.pem"; then
	mgr_js_net=
	for mgr_x in $mgr_net; do
		case $mgr_x in NODE_EXTRA_CA_CERTS=* | SSL_CERT_FILE=*) ;; *) mgr_js_net="$mgr_js_net $mgr_x" ;; esac
	done
	mgr_js_net="$mgr_js_net SSL_CERT_FILE=$TEST_TMPDIR/mgr-ca.pem NODE_OPTIONS=--use-openssl-ca"
fi

# mgr NAME ARGS...: run the manager NAME in the current directory with a
# clean environment of this run's own: no CI (yarn would turn immutable),
# no telemetry, no version switching (packageManager), the shared caches,
# the caller's way to the registry (above), a temporary folder in the
# scratch directory (bun left its unpacked file: packages in /tmp).
# glibc's malloc asks for transparent huge pages (glibc.malloc.hugetlb=1,
# glibc 2.35): on CI's machine a page fault costs 16 us of CPU, and a
# JavaScript manager's run took 28,000 of them, 22,000 with it (pnpm 8's
# frozen install; deps_pnpm_cfg.sh: 2.6 against 2.16 million faults, 95
# against 78 s of CPU).  A glibc without the tunable ignores it.
mgr() {
	mgr_n=$1
	shift
	mgr_p=$(mgr_path "$mgr_n")
	mgr_n_net=$mgr_js_net
	case $mgr_n in
	bun | pnpm) set -- "$mgr_p" "$@"; mgr_n_net=$mgr_net ;;
	npm) set -- "$mgr_p" "$@" ;;
	# the bundle's compiled code kept between runs (codecache.cjs)
	*) set -- node -r "$mgr_dir/codecache.cjs" "$mgr_p" "$@" ;;
	esac
	env -i PATH="$PATH" HOME="$TEST_TMPDIR/mgr-home" TMPDIR="$TEST_TMPDIR/mgr-tmp" \
		LC_ALL=C.UTF-8 TERM=dumb \
		npm_config_cache="$MGR_CACHE/npm" npm_config_update_notifier=false \
		npm_config_audit=false npm_config_fund=false \
		npm_config_store_dir="$MGR_CACHE/pnpm-store" \
		npm_config_manage_package_manager_versions=false \
		pnpm_config_store_dir="$MGR_CACHE/pnpm-store" \
		pnpm_config_manage_package_manager_versions=false \
		COREPACK_ENABLE_STRICT=0 YARN_ENABLE_TELEMETRY=0 \
		YARN_GLOBAL_FOLDER="$MGR_CACHE/yarn" YARN_ENABLE_GLOBAL_CACHE=1 \
		YARN_ENABLE_IMMUTABLE_INSTALLS=0 YARN_ENABLE_PROGRESS_BARS=0 \
		BUN_INSTALL_CACHE_DIR="$MGR_CACHE/bun" DO_NOT_TRACK=1 \
		GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
		EP_CODE_CACHE="$MGR_CACHE/v8" \
		$mgr_n_net ${MGR_ENV:-} "$@"
}
