#!/bin/sh
# sandbox_cred.sh - the sandbox probe's secrets in reach (issue 19 point
# 2), against planted credentials of every kind it knows, each holding a
# marker drawn for this run.  For each configuration a prober tries to
# read every planted file from inside the same configuration (the same
# wrapper: unshare, setpriv), and the test asserts that the verdict lists
# exactly what the prober could read, with its kind and path.  The
# configurations: the plain process; a mount namespace in which ~/.ssh and
# ~/.kube are hidden under empty tmpfs; another user (nobody) to whom some
# files are closed; HOME pointed at an empty directory while the home the
# password database names (a private /etc/passwd) holds them; a private
# /run with docker secrets and a service-account token; the environment.
# And the markers appear in no output: --json, human, --explain, junit,
# github, tap, tap13, and the MCP server's answer.  What the kernel or the
# user here forbids (user namespaces, root) is skipped with its reason.
. "$(dirname "$0")/../lib.sh"
sbin=$EP_BIN
T=$TEST_TMPDIR/cred
other=0
if nobody_setup; then
	sbin=$PUB_BIN
	T=$PUB/cred
	other=1
fi
repo=$T/repo
home=$T/home
empty=$T/empty
M=QZ${T_MARK}
out=$T/out.json
err=$T/err
mkdir -p "$repo" "$home" "$empty"
chmod 755 "$T" "$repo" "$home" "$empty"
st=0

# sbx [WRAPPER...] -- [ARGS...]: the binary under WRAPPER, in a clean
# environment ($SBX_ENV adds to it, $SBX_HOME is HOME), --json
# --only=sandbox on $repo; the report is kept for run.sh's schema check.
sbx() {
	wrap=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		wrap="$wrap $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="${SBX_HOME:-$home}" LC_ALL=C.UTF-8 \
		XDG_CACHE_HOME="$T/cache" ${SBX_ENV:-} $wrap "$sbin" --json --only=sandbox "$@" \
		"$repo" >"$out" 2>"$err"
	st=$?
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$out" ]; then
		cp "$out" "$(mktemp "$EP_JSON_DIR/sandbox_cred.XXXXXX")"
	fi
	return 0
}

# get ID FIELD: the check's status, reason or message, or data.FIELD
get() {
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["checks"]:
    if c["id"] == "sandbox." + sys.argv[2]:
        f = sys.argv[3]
        v = c[f] if f in ("status", "reason", "message", "notes") else c["data"].get(f)
        print(json.dumps(v) if not isinstance(v, str) else v)
        break
else:
    print("(no check)")
EOF
}

is() {
	s=$(get "$1" status)
	r=$(get "$1" reason)
	if [ "$s" = "$2" ] && { [ -z "${3:-}" ] || [ "$r" = "$3" ]; }; then
		ok
	else
		not_ok "$1: want $2${3:+ ($3)}, got $s ($r): $(get "$1" message) [$(head -c 300 "$err")]"
	fi
}

# ---- the planted credentials: one a kind, each with its marker ----------
# $T/planted: "CHECK KIND PATH" for every credential file; decoys (files a
# key's name or a token's place would suggest, holding none) are not
# listed there and must never be reported
plant() {
	h=$1
	rm -rf "$h"
	mkdir -p "$h/.ssh/keys" "$h/.aws" "$h/.config/gcloud" "$h/.config/gh" \
		"$h/.config/git" "$h/.docker" "$h/.kube" "$T/elsewhere"
	printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\n%sssh1\n-----END OPENSSH PRIVATE KEY-----\n' "$M" \
		>"$h/.ssh/deploy_key"
	printf -- '-----BEGIN RSA PRIVATE KEY-----\n%sssh2\n' "$M" >"$h/.ssh/github.pem"
	printf -- '-----BEGIN EC PRIVATE KEY-----\n%sssh3\n' "$M" >"$h/.ssh/keys/ec.key"
	printf -- '-----BEGIN DSA PRIVATE KEY-----\n%sssh4\n' "$M" >"$h/.ssh/old_dsa"
	printf -- '-----BEGIN PRIVATE KEY-----\n%sssh5\n' "$M" >"$h/.ssh/pkcs8.key"
	printf 'Bag Attributes\n    friendlyName: %sssh6\n-----BEGIN ENCRYPTED PRIVATE KEY-----\n%sssh6\n' \
		"$M" "$M" >"$h/.ssh/bagged.pem"
	printf 'PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-Lines: 1\n%sssh7\n' "$M" >"$h/.ssh/work.ppk"
	printf -- '-----BEGIN OPENSSH PRIVATE KEY-----\n%sssh8\n' "$M" >"$T/elsewhere/key"
	ln -sf "$T/elsewhere/key" "$h/.ssh/linked"
	# decoys: a public key, an empty id_, a certificate, a config
	printf 'ssh-ed25519 AAAA %sdecoy1\n' "$M" >"$h/.ssh/deploy_key.pub"
	: >"$h/.ssh/id_empty"
	printf -- '-----BEGIN CERTIFICATE-----\n%sdecoy2\n' "$M" >"$h/.ssh/cert.pem"
	printf 'Host *\n  IdentityFile ~/.ssh/deploy_key # %sdecoy3\n' "$M" >"$h/.ssh/config"
	printf 'github.com ssh-ed25519 AAAA%sdecoy4\n' "$M" >"$h/.ssh/known_hosts"
	printf '[default]\naws_access_key_id = AKIA%saws0\naws_secret_access_key = %saws1\n' "$M" "$M" \
		>"$h/.aws/credentials"
	printf '[profile ci]\nregion = eu-west-1\naws_session_token = %saws2\n' "$M" >"$h/.aws/config"
	printf '{"refresh_token": "%sgcloud1"}' "$M" \
		>"$h/.config/gcloud/application_default_credentials.json"
	printf '{"auths": {"registry.example": {"username": "me", "password": "%sdocker1"}}}' "$M" \
		>"$h/.docker/config.json"
	printf '//registry.npmjs.org/:_authToken=%snpm1\n' "$M" >"$h/.npmrc"
	printf 'machine example.com\n  login me password %snetrc1\n' "$M" >"$h/.netrc"
	printf 'https://me:%sgit1@github.com\n' "$M" >"$h/.git-credentials"
	printf 'https://ci:%sgit2@gitlab.example\n' "$M" >"$h/.config/git/credentials"
	printf 'github.com:\n    user: me\n    oauth_token: gho_%sgh1\n    git_protocol: https\n' "$M" \
		>"$h/.config/gh/hosts.yml"
	printf 'apiVersion: v1\nusers:\n- name: me\n  user:\n    client-certificate-data: AAAA\n    client-key-data: %skube1\n' \
		"$M" >"$h/.kube/config"
	printf '[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = pypi-%spypi1\n' \
		"$M" >"$h/.pypirc"
	cat >"$T/planted" <<EOF
ssh openssh-private-key $h/.ssh/deploy_key
ssh rsa-private-key $h/.ssh/github.pem
ssh ec-private-key $h/.ssh/keys/ec.key
ssh dsa-private-key $h/.ssh/old_dsa
ssh pkcs8-private-key $h/.ssh/pkcs8.key
ssh encrypted-private-key $h/.ssh/bagged.pem
ssh putty-private-key $h/.ssh/work.ppk
ssh openssh-private-key $h/.ssh/linked
aws aws-credentials $h/.aws/credentials
aws aws-config $h/.aws/config
gcloud gcloud-credentials $h/.config/gcloud/application_default_credentials.json
docker docker-auth $h/.docker/config.json
npmrc npm-token $h/.npmrc
netrc netrc-password $h/.netrc
git git-credentials $h/.git-credentials
git git-credentials $h/.config/git/credentials
gh gh-oauth-token $h/.config/gh/hosts.yml
kube kube-client-key $h/.kube/config
pypirc pypi-password $h/.pypirc
EOF
	chmod -R go+rX "$h" "$T/elsewhere"
}

# the prober: run under the same wrapper as the binary, it tries to read
# one byte of each planted file (never shown) and says which it could
cat >"$T/prober.sh" <<'EOF'
#!/bin/sh
while read -r check kind path; do
	if head -c 1 "$path" >/dev/null 2>&1 && [ -f "$path" ]; then
		echo "R $check $kind $path"
	else
		echo "U $check $kind $path"
	fi
done
EOF
chmod 755 "$T/prober.sh"

# agree HOME_SHOWN_AS_TILDE PROBED: every credential the prober read is
# in its check's data.credentials with its kind and path (shown from ~
# under HOME), every one it could not read is not, and no decoy is
agree() {
	py - "$out" "$1" "$2" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
tilde = sys.argv[2]
checks = {c["id"]: c for c in doc["checks"]}
bad = []
listed = set()
for c in doc["checks"]:
    if c["id"].startswith("sandbox.secrets.") and c["status"] != "error":
        for cr in c["data"]["credentials"]:
            listed.add((c["id"], cr["kind"], cr["path"]))
want = set()
for line in open(sys.argv[3]):
    r, check, kind, path = line.split()
    shown = "~" + path[len(tilde):] if tilde and path.startswith(tilde + "/") else path
    key = ("sandbox.secrets." + check, kind, shown)
    if r == "R":
        want.add(key)
        if key not in listed:
            bad.append("readable, not reported: %s %s %s" % key)
    elif key in listed:
        bad.append("not readable, reported: %s %s %s" % key)
# nothing but the planted files (and the variables, the agent) is listed
for key in listed:
    if key not in want and key[1] not in ("environment-variable", "ssh-agent-socket",
                                          "mounted-secret", "kubernetes-serviceaccount-token"):
        bad.append("reported, not planted: %s %s %s" % key)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
}

# verdict_matches PROBED: each secrets check of a planted kind fails
# exactly when the prober read one of its files
verdict_matches() {
	py - "$out" "$1" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
readable = {}
for line in open(sys.argv[2]):
    r, check, kind, path = line.split()
    readable[check] = readable.get(check, False) or r == "R"
bad = []
for c in doc["checks"]:
    name = c["id"].rsplit(".", 1)[1]
    if c["id"].startswith("sandbox.secrets.") and name in readable:
        want = "fail" if readable[name] else "pass"
        if c["status"] != want:
            bad.append("%s: %s, the prober says %s" % (c["id"], c["status"], want))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
}

names_of() { get "$1" credentials | py -c 'import json,sys; print(" ".join(sorted(c["variable"] or "" for c in json.load(sys.stdin))))'; }

# ---- 1. the plain process: everything planted is in reach --------------
plant "$home"
# the home /etc/passwd gives this user is looked in as well: in a private
# /etc/passwd (a mount namespace) it is $home too, so that nothing of
# this machine's real home enters the test; without one, the plain run is
# still made, and only what is planted is compared
printf 'root:x:0:0:root:%s:/bin/sh\nnobody:x:65534:65534:nobody:%s:/bin/sh\n' "$home" "$home" \
	>"$T/passwd"
chmod 644 "$T/passwd"
cat >"$T/pw.sh" <<EOF
mount --bind "$T/passwd" /etc/passwd || exit 99
exec "\$@"
EOF
userns=0
unshare --user --map-root-user --mount true 2>/dev/null && userns=1
PW=
[ "$userns" = 1 ] && PW="unshare --user --map-root-user --mount sh $T/pw.sh"

# shellcheck disable=SC2086
sbx $PW --
check "plain: a report ($st)" [ "$st" -le 1 ] && [ -s "$out" ]
check "12 secrets checks" [ "$(grep -c '"id": "sandbox\.secrets\.' "$out")" = 12 ]
# shellcheck disable=SC2086
$PW "$T/prober.sh" <"$T/planted" >"$T/probed"
check "plain: the prober read every planted file" sh -c "! grep -q '^U' '$T/probed'"
out_plain=$(agree "$home" "$T/probed") && ok || not_ok "plain: verdict and prober disagree: $out_plain"
res=$(verdict_matches "$T/probed") && ok || not_ok "plain: $res"
for s in ssh aws gcloud docker npmrc netrc git gh kube pypirc; do
	is "secrets.$s" fail exposed
done
is secrets.environment pass
check "ssh: named by content, whatever the name" [ "$(get secrets.ssh found)" = \
	'["bagged.pem", "deploy_key", "github.pem", "keys/ec.key", "linked", "old_dsa", "pkcs8.key", "work.ppk"]' ]
check "aws: credentials and config" [ "$(get secrets.aws found)" = '["credentials", "config"]' ]
check "the runtime option is data (null: leave it out)" [ "$(get secrets.kube runtime_option)" = null ]
check "homes: HOME" [ "$(get secrets.git homes)" = "[{\"path\": \"$home\", \"from\": \"HOME\"}]" ]
[ "$userns" = 1 ] || skip "a private /etc/passwd: user namespaces are not allowed here"

# ---- 2. the environment: names only, never values -----------------------
SBX_ENV="GITHUB_TOKEN=${M}env1 AWS_SECRET_ACCESS_KEY=${M}env2 MY_SERVICE_PASSWORD=${M}env3 \
DB_PASSWORD_FILE=/run/secrets/db EMPTY_TOKEN= OPENAI_API_KEY=sk-${M}env4" sbx $PW --
is secrets.environment fail exposed
check "environment: the names, sorted ($(names_of secrets.environment))" \
	[ "$(names_of secrets.environment)" = "AWS_SECRET_ACCESS_KEY GITHUB_TOKEN MY_SERVICE_PASSWORD OPENAI_API_KEY" ]
check "environment: no path, no value" [ "$(get secrets.environment credentials | py -c \
	'import json,sys; print(sorted({(c["kind"], c["path"]) for c in json.load(sys.stdin)}))')" = \
	"[('environment-variable', None)]" ]
cat >"$T/envprobe.sh" <<'EOF'
#!/bin/sh
for v in GITHUB_TOKEN AWS_SECRET_ACCESS_KEY MY_SERVICE_PASSWORD OPENAI_API_KEY EMPTY_TOKEN; do
	eval "x=\${$v:-}"
	[ -n "$x" ] && echo "$v"
done
EOF
chmod 755 "$T/envprobe.sh"
probed=$(env -i GITHUB_TOKEN=a AWS_SECRET_ACCESS_KEY=b MY_SERVICE_PASSWORD=c EMPTY_TOKEN= \
	OPENAI_API_KEY=d "$T/envprobe.sh" | sort | tr '\n' ' ')
check "environment: what a prober inside can read ($probed)" \
	[ "$probed" = "$(names_of secrets.environment) " ]

# sandbox.secrets lists what is allowed: the new names are policy words
printf 'version: 1\nsandbox:\n  secrets: [environment, gh, kube, git, pypirc, mounted]\n' \
	>"$repo/preflight.yaml"
SBX_ENV="GITHUB_TOKEN=${M}env1" sbx $PW --
is secrets.environment pass
check "allowed: not judged" [ "$(get secrets.environment judged)" = false ]
is secrets.gh pass
is secrets.pypirc pass
is secrets.ssh fail exposed
check "allowed: the expectation lists them" [ "$(get secrets.gh expect)" = \
	'["git", "gh", "kube", "pypirc", "environment", "mounted"]' ]
printf 'version: 1\nsandbox:\n  secrets: [github]\n' >"$repo/preflight.yaml"
sbx $PW --
check "an unknown secret name: exit 2 ($st)" [ "$st" = 2 ]
check "the names are listed" grep -q "pypirc, environment, mounted" "$err"
rm -f "$repo/preflight.yaml"

# ---- 3. no marker in any output format -----------------------------------
for fmt in json human junit github tap tap13; do
	# shellcheck disable=SC2086
	env -i PATH=/usr/bin:/bin HOME="$home" LC_ALL=C.UTF-8 GITHUB_TOKEN="${M}env1" \
		NPM_TOKEN="${M}env5" $PW "$sbin" --only=sandbox --explain --format=$fmt "$repo" \
		>"$T/all.$fmt" 2>&1
done
printf '%s\n' \
	'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sh","version":"1"}}}' \
	'{"jsonrpc":"2.0","method":"notifications/initialized"}' \
	'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"audit","arguments":{"only":["sandbox"]}}}' |
	(cd "$repo" && env -i PATH=/usr/bin:/bin HOME="$home" LC_ALL=C.UTF-8 \
		GITHUB_TOKEN="${M}env1" "$sbin" mcp --no-config >"$T/all.mcp" 2>&1)
check "mcp: the audit answered" grep -q 'sandbox.secrets.pypirc' "$T/all.mcp"
check "junit: the new checks are there" grep -q 'secrets.kube' "$T/all.junit"
check "no marker in any format (json human junit github tap tap13 mcp)" \
	sh -c "! grep -l '$M' '$T'/all.*"
check "no marker in the reports kept so far" sh -c "! grep -l '$M' '$out' '$err'"

# ---- 4. hidden in a mount namespace: what is under tmpfs is out of reach
if [ "$userns" = 1 ]; then
	cat >"$T/hide.sh" <<EOF
mount --bind "$T/passwd" /etc/passwd && mount -t tmpfs none "$home/.ssh" &&
mount -t tmpfs none "$home/.kube" || exit 99
exec "\$@"
EOF
	hide="unshare --user --map-root-user --mount sh $T/hide.sh"
	sbx $hide --
	$hide "$T/prober.sh" <"$T/planted" >"$T/probed"
	check "hidden: the prober could not read ~/.ssh" grep -q "^U ssh .*deploy_key" "$T/probed"
	res=$(agree "$home" "$T/probed") && ok || not_ok "hidden: verdict and prober disagree: $res"
	res=$(verdict_matches "$T/probed") && ok || not_ok "hidden: $res"
	is secrets.ssh pass
	is secrets.kube pass
	is secrets.pypirc fail exposed
else
	skip "hidden under tmpfs: user and mount namespaces are not allowed here"
fi

# ---- 5. another user: files closed to it are out of reach ----------------
if [ "$other" = 1 ] && unshare --mount true 2>/dev/null; then
	chmod 600 "$home/.ssh/deploy_key" "$home/.ssh/keys/ec.key" "$home/.git-credentials" \
		"$home/.config/gh/hosts.yml" "$home/.aws/credentials"
	chmod 700 "$home/.kube"
	asnobody="unshare --mount sh $T/pw.sh setpriv --reuid=65534 --regid=65534 --clear-groups"
	sbx $asnobody --
	$asnobody "$T/prober.sh" <"$T/planted" >"$T/probed"
	check "nobody: the prober could not read the closed key" grep -q "^U ssh .*deploy_key" "$T/probed"
	check "nobody: but the open one" grep -q "^R ssh .*github.pem" "$T/probed"
	res=$(agree "$home" "$T/probed") && ok || not_ok "nobody: verdict and prober disagree: $res"
	res=$(verdict_matches "$T/probed") && ok || not_ok "nobody: $res"
	is secrets.gh pass
	is secrets.kube pass
	is secrets.git fail exposed	# ~/.config/git/credentials is still open
	check "git: only the open store" [ "$(get secrets.git found)" = '["git/credentials"]' ]
	chmod -R go+rX "$home"
	chmod 644 "$home/.ssh/deploy_key" "$home/.ssh/keys/ec.key" "$home/.git-credentials" \
		"$home/.config/gh/hosts.yml" "$home/.aws/credentials"
else
	skip "another user to whom files are closed: ${NOBODY_WHY:-mount namespaces are not allowed here}"
fi

# ---- 6. HOME elsewhere: the home the password database gives ------------
if [ "$userns" = 1 ]; then
	SBX_HOME=$empty sbx $PW --
	$PW "$T/prober.sh" <"$T/planted" >"$T/probed"
	res=$(agree "" "$T/probed") && ok || not_ok "passwd home: verdict and prober disagree: $res"
	res=$(verdict_matches "$T/probed") && ok || not_ok "passwd home: $res"
	check "passwd home: both homes, said which" [ "$(get secrets.ssh homes)" = \
		"[{\"path\": \"$empty\", \"from\": \"HOME\"}, {\"path\": \"$home\", \"from\": \"passwd\"}]" ]
	check "passwd home: a note names it" sh -c "grep -q 'this user.s home in /etc/passwd, not in HOME' '$out'"
	check "passwd home: paths in full" grep -q "\"path\": \"$home/.pypirc\"" "$out"
else
	skip "the passwd home apart from HOME: user namespaces are not allowed here"
fi

# ---- 7. mounted secrets: a private /run ------------------------------------
if [ "$userns" = 1 ]; then
	cat >"$T/run.sh" <<EOF
mount --bind "$T/passwd" /etc/passwd && mount -t tmpfs none /run || exit 99
if [ "\$(readlink -f /var/run)" != /run ]; then mount --bind /run /var/run || exit 99; fi
sa=/run/secrets/kubernetes.io/serviceaccount
mkdir -p "\$sa/..2026_12_01" && printf '%s' "${M}sa1" >"\$sa/..2026_12_01/token" &&
printf 'ca' >"\$sa/..2026_12_01/ca.crt" && printf 'default' >"\$sa/..2026_12_01/namespace" &&
ln -s ..2026_12_01 "\$sa/..data" && ln -s ..data/token "\$sa/token" &&
ln -s ..data/ca.crt "\$sa/ca.crt" && ln -s ..data/namespace "\$sa/namespace" &&
printf '%s' "${M}db1" >/run/secrets/db_password || exit 99
printf 'mounted mounted-secret /run/secrets/db_password\nmounted kubernetes-serviceaccount-token /run/secrets/kubernetes.io/serviceaccount/token\n' >"$T/planted.run"
exec "\$@"
EOF
	run="unshare --user --map-root-user --mount sh $T/run.sh"
	sbx $run --
	is secrets.mounted fail exposed
	check "mounted: kinds and paths" [ "$(get secrets.mounted credentials)" = \
		'[{"kind": "mounted-secret", "path": "/run/secrets/db_password", "variable": null}, {"kind": "kubernetes-serviceaccount-token", "path": "/run/secrets/kubernetes.io/serviceaccount/token", "variable": null}]' ]
	$run "$T/prober.sh" <"$T/planted.run" >"$T/probed.run"
	check "mounted: the prober read both" [ "$(grep -c '^R' "$T/probed.run")" = 2 ]
	res=$(verdict_matches "$T/probed.run") && ok || not_ok "mounted: $res"
	check "mounted: no marker" sh -c "! grep -q '$M' '$out'"
	sbx $PW --
	check "no /run/secrets here (a private /run is its own)" true
else
	skip "mounted secrets in a private /run: user and mount namespaces are not allowed here"
fi

# ---- 8. what holds no credential passes ------------------------------------
rm -rf "$home"
mkdir -p "$home/.docker" "$home/.config/gh" "$home/.ssh" "$home/.kube"
printf '{"auths": {"ghcr.io": {}}, "credsStore": "desktop", "credHelpers": {"gcr.io": "gcloud"}}' \
	>"$home/.docker/config.json"
printf 'github.com:\n    user: me\n    git_protocol: https\n' >"$home/.config/gh/hosts.yml"
printf 'users:\n- name: me\n  user:\n    exec:\n      command: aws\n' >"$home/.kube/config"
printf 'https://me@github.com\n' >"$home/.git-credentials"
printf '[pypi]\nusername = __token__\n' >"$home/.pypirc"
: >"$home/.ssh/id_rsa"
printf 'not a key\n' >"$home/.ssh/deploy_key"
# never opened: a FIFO (it would block a reader), a link to a device
mkfifo "$home/.ssh/id_fifo"
ln -s /dev/zero "$home/.ssh/id_dev"
chmod -R go+rX "$home"
# shellcheck disable=SC2086
sbx $PW --
for s in docker gh kube git pypirc ssh environment; do
	is "secrets.$s" pass
done
check "a credsStore alone: nothing in reach" [ "$(get secrets.docker credentials)" = "[]" ]
check "a FIFO and a device in ~/.ssh: a report ($st)" [ "$st" -le 1 ] && [ -s "$out" ]
# an .npmrc whose token is ${NPM_TOKEN} in HOME, and one without a token
# in the passwd home: the variable stays named
if [ "$userns" = 1 ]; then
	printf '//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n' >"$empty/.npmrc"
	printf 'registry=https://registry.npmjs.org/\n' >"$home/.npmrc"
	chmod 644 "$empty/.npmrc" "$home/.npmrc"
	SBX_HOME=$empty SBX_ENV="NPM_TOKEN=${M}npm2" sbx $PW --
	is secrets.npmrc fail exposed
	check "npmrc: the variable, though the other home's has none" \
		[ "$(get secrets.npmrc variable)" = NPM_TOKEN ]
	check "npmrc: no marker" sh -c "! grep -q '$M' '$out'"
	rm -f "$empty/.npmrc"
fi
# KUBECONFIG: a list, each file looked at
printf 'users:\n- user:\n    token: %skube2\n' "$M" >"$T/kc2"
chmod 644 "$T/kc2"
SBX_ENV="KUBECONFIG=$home/.kube/config:$T/kc2" sbx $PW --
is secrets.kube fail exposed
check "KUBECONFIG: the file that holds one" [ "$(get secrets.kube credentials)" = \
	"[{\"kind\": \"kube-token\", \"path\": \"$T/kc2\", \"variable\": null}]" ]
check "KUBECONFIG: no marker" sh -c "! grep -q '$M' '$out'"
finish
