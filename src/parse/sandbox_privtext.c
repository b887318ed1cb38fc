/* sandbox_privtext.c - the privilege checks' pure parsers (see
 * sandbox_privtext.h).  No system call. */
#include "sandbox_privtext.h"
#include "sandbox.h"
#include "span.h"

#include <string.h>

/* ---- mountinfo -------------------------------------------------------- */

/* "ro" among the comma-separated options */
static int has_ro(struct span opts)
{
	size_t i = 0;

	while (i < opts.n) {
		const char *comma = memchr(opts.p + i, ',', opts.n - i);
		struct span o = { opts.p + i, comma ? (size_t)(comma - opts.p) - i : opts.n - i };

		if (span_is(o, "ro"))
			return 1;
		i += o.n + 1;
	}
	return 0;
}

int sandbox_mount_at(const char *buf, size_t len, const char *mount_point,
		     struct sandbox_mount *out)
{
	struct span line;
	size_t pos = 0;
	int parsed = 0;

	memset(out, 0, sizeof(*out));
	while (span_next_line(buf, len, &pos, &line)) {
		/* id parent dev root point opts [tags...] - type source super */
		struct span w[32];
		size_t n = span_words(line, w, 32), dash, i;

		for (dash = 6; dash < n && !span_is(w[dash], "-"); dash++)
			;
		if (dash + 3 >= n)
			continue;
		parsed = 1;
		if (!sandbox_mountinfo_field_is(w[4].p, w[4].n, mount_point))
			continue;
		out->found = 1;
		out->mount_ro = has_ro(w[5]);
		out->super_ro = has_ro(w[dash + 3]);
		out->slave = 0;
		for (i = 6; i < dash; i++)
			out->slave |= w[i].n > 7 && !memcmp(w[i].p, "master:", 7);
		i = w[dash + 1].n < sizeof(out->fstype) ? w[dash + 1].n :
		    sizeof(out->fstype) - 1;
		memcpy(out->fstype, w[dash + 1].p, i);
		out->fstype[i] = '\0';
		if (memchr(out->fstype, '\0', i))
			out->fstype[0] = '\0';
	}
	return parsed ? 0 : -1;
}

/* ---- uid_map ---------------------------------------------------------- */

/* user_namespaces(7): each line "ID-inside-ns ID-outside-ns length" */
int sandbox_id_map_inside(const char *buf, size_t len, unsigned long outside,
			  unsigned long *inside)
{
	struct span line;
	size_t pos = 0;
	int rc = 1, lines = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		struct span w[4];
		unsigned long long in, out, count;

		if (span_words(line, w, 4) != 3 || span_number(w[0], 10, 10, &in) < 0 ||
		    span_number(w[1], 10, 10, &out) < 0 ||
		    span_number(w[2], 10, 10, &count) < 0 || in > 4294967295ULL ||
		    out > 4294967295ULL || count > 4294967295ULL)
			return -1;
		lines++;
		if (rc == 1 && outside >= out && outside - out < count &&
		    in + (outside - out) <= 4294967295ULL) {
			*inside = (unsigned long)(in + (outside - out));
			rc = 0;
		}
	}
	return lines ? rc : -1;
}

/* ---- the host's id 0 --------------------------------------------------- */

int sandbox_host_id0(const struct sandbox_id0 *e, unsigned long *inside)
{
	if (e->shown != e->overflow) {
		*inside = e->shown;
		return 1;
	}
	if (e->overflow_mapped == 0)
		return 0;
	*inside = e->overflow;
	if (e->overflow_mapped == 1 && e->asked >= 0)
		return e->asked;
	return -1;
}

/* capabilities(7), "Interaction with user namespaces": a capability acts
 * on what the user namespace that holds it (or a descendant) owns; the
 * network capabilities' checks are ns_capable(net->user_ns, ...)
 * (net/ipv4/af_inet.c inet_create for SOCK_RAW, net/core/dev_ioctl.c,
 * net/ipv4/af_inet.c inet_bind for ports below ip_unprivileged_port_start):
 * in a network namespace an ancestor owns, they are no capability at all
 * (kernel/capability.c and security/commoncap.c cap_capable: an
 * ancestor's namespace is never reached by walking up from a child). */
unsigned long long sandbox_caps_inert(unsigned long long reach, int netns_ours)
{
	return netns_ours == 0 ? reach & SANDBOX_CAPS_NET : 0;
}

/* ---- capabilities(7), "Transformation of capabilities during execve()"
 *
 *   P'(ambient)     = (file is privileged) ? 0 : P(ambient)
 *   P'(permitted)   = (P(inheritable) & F(inheritable)) |
 *                     (F(permitted) & P(bounding)) | P'(ambient)
 *   P'(effective)   = F(effective) ? P'(permitted) : P'(ambient)
 *
 * with, for root ("Capabilities and execution of programs by root"), the
 * file sets counted as all ones unless SECBIT_NOROOT; and with
 * no_new_privs the permitted set cannot grow (security/commoncap.c
 * cap_bprm_creds_from_file: cap_intersect with the old permitted set when
 * LSM_UNSAFE_NO_NEW_PRIVS). */

unsigned long long sandbox_caps_now(const struct sandbox_capsets *c)
{
	return c->eff | c->prm | c->amb;
}

unsigned long long sandbox_caps_exec(const struct sandbox_capsets *c)
{
	unsigned long long now = sandbox_caps_now(c);

	if (c->no_new_privs == 1 || !c->root || c->noroot)
		return now;
	return now | c->inh | c->bnd;
}

unsigned long long sandbox_caps_setuid(const struct sandbox_capsets *c)
{
	if (c->no_new_privs == 1)
		return 0;
	return c->inh | c->bnd;
}
