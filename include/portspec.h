/* portspec.h - host ports named by docker compose entries and by local
 * service URLs.  Pure string parsing: no I/O, safe to fuzz.
 */
#ifndef EP_PORTSPEC_H
#define EP_PORTSPEC_H

#include <stddef.h>

/* One compose "ports:" short-syntax entry,
 * [[HOST_IP:][HOST_PORTS]:]CONTAINER_PORTS[/PROTOCOL]. */
struct portspec {
	unsigned host_lo, host_hi;	/* host ports; 0, 0 for none */
	unsigned ctr_lo, ctr_hi;	/* container ports */
	/* a host range for one container port: docker binds the first free
	 * port of the range, so one free port is enough */
	int pick_one;
	char host_ip[46];	/* "" when not given; IPv6 without brackets */
	char proto[8];		/* "tcp" (the default), "udp" or "sctp" */
	int tcp;		/* proto is "tcp": the only one we check */
};

/* Parse s ("5433:5432", "127.0.0.1:8080:80", "8000-8002:8000-8002",
 * "3000", "53:53/udp", "[::1]:8080:80", ...).  A bare container port or an
 * empty host port ("127.0.0.1::80") binds no fixed host port: host_lo 0.
 * Returns 0, or -1 with a message in err (lowercase, the faulty part
 * quoted and cleaned of control characters). */
int portspec_parse(const char *s, struct portspec *out, char *err,
		   size_t errlen);

/* A port or range "8000" / "8000-8002" (compose long syntax "published"),
 * each port in 1-65535, lo <= hi.  Returns 0 or -1. */
int portspec_range(const char *s, unsigned *lo, unsigned *hi);

/* A *_URL value such as "postgres://u:p@localhost:5433/db".  Returns 1 with
 * *port when the URL names a TCP service on this machine (localhost,
 * 127.0.0.0/8, ::1, 0.0.0.0, ::), the scheme's default port when none is
 * given; -1 when it names this machine with an explicit port that is not
 * one of 1-65535 ("localhost:99999", "localhost:http"); 0 when it is not
 * local, not a URL, or its port is unknown (no default for the scheme, or
 * a variable or placeholder: "localhost:${DB_PORT}", "localhost:<port>").  The
 * value may hold a password: nothing of it is copied anywhere.  *scheme_out
 * (may be NULL) gets a static scheme name ("postgresql", "redis", ...) or
 * NULL for a scheme not in the table. */
int portspec_local_url(const char *value, unsigned *port,
		       const char **scheme_out);

#endif
