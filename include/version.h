/* version.h - the version of envpreflight, said once.
 *
 * The one place it is written: --version, JSON run.version, the MCP
 * server's serverInfo and the Makefile (make deb names the package from
 * it, make install writes it into the man page's footer, both reading the
 * line below) all take it from here; the golden cases mask it.  Keep the
 * line as it is: `#define EP_VERSION "X.Y.Z"`.
 */
#ifndef EP_VERSION_H
#define EP_VERSION_H

#define EP_VERSION "0.2.0"

#endif
