/* parse.h - brparse as a library: preprocessed text to the brast(5)
 * document, and the AST file's reader and writer. */
#ifndef BROOK_PARSE_H
#define BROOK_PARSE_H

#include <jansson.h>
#include <stddef.h>

#include "brook/diag.h"

typedef struct parse_options {
	const char **typedefs;	/* more typedef names from system headers */
	int ntypedefs;
} parse_options;

/* Parses TEXT (brpp's or gcc -E's output; need not be NUL-terminated).
 * NAME is the file name for locations until a linemarker names another.
 * Returns the document (stage "parsed"), or NULL after reporting the
 * errors through d. o may be NULL. */
json_t *parse_text(const char *text, size_t len, const char *name,
	const parse_options *o, diag_ctx *d);

/* Reads an AST file; rejects what is not JSON, not a brast document or of
 * another version, with a message through d. */
json_t *brast_load(const char *text, size_t len, const char *name,
	diag_ctx *d);

/* The document as compact JSON, one line plus a newline (malloc'd). */
char *brast_dump(const json_t *doc);

/* brast_dump with a "digest" member last, the digest of the text before
 * it (brast(5)): how brcheck writes a checked AST. */
char *brast_dump_sealed(const json_t *doc);

/* True when TEXT ends with a "digest" member (trailing white space
 * allowed) that is the digest of the bytes before it: the text is, byte
 * for byte, what brast_dump_sealed wrote. */
int brast_sealed(const char *text, size_t len);

/* The same indented, for people (brparse --pretty). */
char *brast_dump_pretty(const json_t *doc);

/* A copy of doc without any "at" member: two documents that differ only in
 * locations compare equal (json_equal) after this. */
json_t *brast_strip_locations(const json_t *doc);

#endif
