/* lex.h - the lexer of brparse: C99 and Brook+ tokens of preprocessed text.
 *
 * The lexer knows nothing of typedef names or scopes: it returns LEX_IDENT
 * for every identifier that is not a keyword, and parse.c decides whether
 * the name is a typedef name. Token codes are lemon's (grammar.h) plus the
 * LEX_ pseudo-tokens below, which never reach the grammar.
 */
#ifndef BROOK_LEX_H
#define BROOK_LEX_H

#include <stddef.h>

/* Pseudo-tokens, above every code lemon assigns. */
enum {
	LEX_EOF = 0,		/* end of input (lemon's end marker too) */
	LEX_LINEMARK = 1000,	/* # 12 "file" flags, #line 12 "file" */
	LEX_ERROR		/* a character or literal that is not C */
};

typedef struct lex_token {
	int code;		/* grammar.h TK_*, or LEX_* */
	const char *s;		/* the token's text in the input */
	int len;
	int file, line, col;	/* where it starts: index into "files" */
} lex_token;

typedef struct lex_ctx {
	const char *cur, *lim;	/* input; *lim is NUL */
	const char *linestart;	/* first byte of the current line */
	int line;		/* line number of the current line */
	int file;		/* current file index */
	int bol;		/* nothing but blanks since the line began */
	const char *errmsg;	/* why the last LEX_ERROR was returned */
} lex_ctx;

void lex_init(lex_ctx *L, const char *text, size_t len);

/* The next token. Directive lines (#include, #pragma, anything else that
 * starts with # at the beginning of a line) come back as TK_DIRECTIVE with
 * the whole line as text; linemarkers as LEX_LINEMARK (parse.c reads them
 * and sets L->line and L->file for the following line). */
void lex_next(lex_ctx *L, lex_token *t);

#endif
