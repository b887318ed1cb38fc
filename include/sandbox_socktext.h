/* sandbox_socktext.h - the pure parsers behind the sandbox probe's container
 * socket search (src/parse/sandbox_socktext.c; the probe's side is
 * src/probes/sandbox_sock.c): which file names are a container daemon's,
 * the listening sockets of /proc/net/unix, the mount points of
 * /proc/self/mountinfo, docker's context store, a DOCKER_HOST's host.
 * Bytes in, values out, no system call, safe to fuzz.
 */
#ifndef EP_SANDBOX_SOCKTEXT_H
#define EP_SANDBOX_SOCKTEXT_H

#include <stddef.h>

/* The daemon a socket's file name (its last component) names: "docker",
 * "podman", "containerd", "cri-o", "buildkit", "kubelet", ... (static), or
 * NULL for any other name. */
const char *sandbox_sock_kind(const char *name);

/* The listening unix sockets of a /proc/net/unix text, each path bound in
 * the file system (not abstract, not unnamed) once: cb(path, arg).
 * Returns how many. */
size_t sandbox_unix_listeners(const char *buf, size_t len,
			      void (*cb)(const char *path, void *arg), void *arg);

/* The abstract unix sockets of a /proc/net/unix text that a containerd
 * shim listens on ("@/containerd-shim/....sock"): cb(name, arg).  Returns
 * how many. */
size_t sandbox_unix_shims(const char *buf, size_t len,
			  void (*cb)(const char *name, void *arg), void *arg);

/* The mounts of a /proc/self/mountinfo text, their octal escapes (\040)
 * undone: cb(root, mount_point, arg), root the path of the mount's source
 * inside its file system (a bind-mounted /run/docker.sock on tmpfs /run:
 * "/docker.sock").  Returns how many. */
size_t sandbox_mount_points(const char *buf, size_t len,
			    void (*cb)(const char *root, const char *mount_point, void *arg),
			    void *arg);

/* The lower-case hex SHA-256 of s: the directory docker keeps a context's
 * metadata in (contexts/meta/<hex>/meta.json). */
void sandbox_sha256_hex(const char *s, size_t len, char hex[65]);

/* config.json's "currentContext" into out: 0, or -1 (none, not JSON, too
 * long for size). */
int sandbox_docker_current_context(const char *buf, size_t len, char *out,
				   size_t size);

/* meta.json's Endpoints.docker.Host into out: 0, or -1. */
int sandbox_docker_context_host(const char *buf, size_t len, char *out, size_t size);

/* The host and port of a tcp://, http://, https:// or ssh:// URL
 * (user@ dropped, [v6] unbracketed; port 0 when not given): 0, or -1. */
int sandbox_url_host(const char *url, char *host, size_t size, unsigned *port);

/* 1 when host is a loopback name or address (localhost, 127.0.0.0/8,
 * ::1), else 0. */
int sandbox_host_loopback(const char *host);

#endif
