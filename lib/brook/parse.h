/* parse.h - brparse as a library: preprocessed text to the brast(5)
 * document, and the AST file's reader and writer. */
#ifndef BROOK_PARSE_H
#define BROOK_PARSE_H

#include "brook/json.h"
#include <stddef.h>

#include "brook/ast.h"
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

/* parse_text, with the document written to FD while it is parsed (a
 * declaration of "decls" once the parser has it whole, in pieces as
 * brast_write sends them), in the text brast_write gives of parse_text's
 * document. Returns the document when it was all sent (the caller frees
 * it; freeing it walks the whole tree), else NULL. *STATUS: 0; 1 after
 * reporting errors in TEXT through d, when what was sent is not a whole
 * document; 2 with a message in ERR when FD cannot be written. */
json_t *parse_send(const char *text, size_t len, const char *name,
	const parse_options *o, diag_ctx *d, int fd, int *status, char *err,
	size_t errlen);

/* True when TEXT, the input NAME, is the output of a tool that failed:
 * it ends with the line "#brook failed" (brast(5), FAILED OUTPUT). Then
 * reports the error input-failed through d, unless NAME is "<stdin>" and
 * standard input a pipe: the tool before, still running beside this one
 * in a pipeline, has reported why it failed. The caller fails with
 * status 1, and marks its own output failed. */
int brast_failed_input(const char *text, size_t len, const char *name,
	diag_ctx *d);

/* Reads an AST file; rejects what is not JSON, not a brast document or of
 * another version, with a message through d, and the output of a tool
 * that failed (brast_failed_input). */
json_t *brast_load(const char *text, size_t len, const char *name,
	diag_ctx *d);

/* brast_load of the file PATH ("-": standard input), read as it arrives
 * (ast_read_fd): the next tool of a pipe reads while the one before it
 * writes. Returns -1 with a message in ERR where PATH cannot be read;
 * else 0 with *DOC the document, or NULL after messages through d. TEXT
 * holds the text read. */
struct strbuf;
int brast_read(const char *path, struct strbuf *text, json_t **doc,
	diag_ctx *d, char *err, size_t errlen);
/* brast_read, with ast_read_fd_each's EACH and ARG. */
int brast_read_each(const char *path, struct strbuf *text, json_t **doc,
	diag_ctx *d, char *err, size_t errlen, ast_each_fn *each, void *arg);

/* The document as compact JSON, one line plus a newline (malloc'd). */
char *brast_dump(const json_t *doc);

/* brast_dump with a "digest" member last, the digest of the text before
 * it (brast(5)): how brcheck writes a checked AST. */
char *brast_dump_sealed(const json_t *doc);

/* brast_dump's text, or brast_dump_sealed's when SEALED, to PATH ("-":
 * standard output) as util_write_file writes. To standard output the
 * text goes in pieces while it is made, so that the next tool of a pipe
 * starts reading before the last piece is written. Returns 0, or -1 with
 * a message in ERR. */
int brast_write(const char *path, const json_t *doc, int sealed, char *err,
	size_t errlen);

/* brast_write's sealed text of DOC to standard output, written while the
 * elements of its "decls" are checked: brast_send_begin writes the
 * members before "decls" (DOC's own, which do not change after), each
 * brast_send_decl one element, sending the text on in pieces; and
 * brast_send_end the members after "decls" and the digest, and returns 0
 * or -1 with a message in ERR. brast_send_drop stops without more text
 * (the caller ends the output as failed). */
typedef struct brast_sender brast_sender;
brast_sender *brast_send_begin(const json_t *doc);
void brast_send_decl(brast_sender *o, const json_t *decl);
int brast_send_end(brast_sender *o, const json_t *doc, char *err,
	size_t errlen);
void brast_send_drop(brast_sender *o);

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
