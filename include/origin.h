/* origin.h - where a requirement, a check or a problem comes from: a
 * file of the repository and a position in it.  A type only, so that a
 * parser, a result and the model can all hold one without the model's
 * header (include/spec.h). */
#ifndef EP_ORIGIN_H
#define EP_ORIGIN_H

struct origin {
	const char *file;	/* repository-relative name, owned by the spec; NULL: none */
	unsigned line, col;	/* 1-based; 0 when unknown */
};

#endif
