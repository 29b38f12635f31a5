/* parse_int.h - what the lemon grammar (grammar.y) and the parser driver
 * (parse.c, parse_build.c) share: the parse context and the values the
 * grammar's symbols carry. Not an API for other modules: see parse.h. */
#ifndef BROOK_PARSE_INT_H
#define BROOK_PARSE_INT_H

#include "brook/json.h"

#include "brook/diag.h"
#include "brook/lex.h"

/* Deepest expression nesting accepted; the parser's stack bounds the rest.
 * Both keep the JSON document within what jansson reads back (2048). */
#define PARSE_MAX_DEPTH 1000
/* the longest identifier (parse-name-too-long) */
#define PARSE_MAX_NAME 127

/* An expression and the depth of its tree. */
typedef struct parse_ex {
	json_t *j;
	int d;
} parse_ex;

/* Declaration specifiers as they accumulate (C99 6.7, spec 6.2). */
typedef struct parse_specs {
	json_t *at;		/* location of the first specifier */
	const char *storage;	/* "typedef", "extern", ... or NULL */
	unsigned kw;		/* PS_* bits of the basic type keywords */
	int nlong;		/* "long" may appear twice */
	const char *named;	/* vector or Brook scalar type name ("float4") */
	json_t *type;		/* struct, union, enum or typedef type */
	json_t *cquals;		/* C qualifiers, array of strings or NULL */
	json_t *bquals;		/* Brook qualifiers (out, iter, shared,
				   reduce), array of strings or NULL */
	json_t *attrs;		/* Attribute[...] items or NULL */
	int inl, kernel, reduce;
} parse_specs;

enum {
	PS_VOID = 1, PS_CHAR = 2, PS_SHORT = 4, PS_INT = 8, PS_FLOAT = 16,
	PS_DOUBLE = 32, PS_SIGNED = 64, PS_UNSIGNED = 128, PS_BOOL = 256,
	PS_COMPLEX = 512, PS_IMAGINARY = 1024
};

/* A declarator, concrete or abstract: the derived types from the name
 * outwards ("top", the outermost, down to "inner", whose field "key" is
 * where the base type goes), C99 6.7.5. */
typedef struct parse_decltor {
	json_t *at;		/* location of the name, or of the first token */
	const char *name;	/* points into the input; NULL when abstract */
	int namelen;
	json_t *top, *inner;
	const char *key;	/* "to", "of" or "ret" */
	int depth;
	json_t *args;		/* expressions in a declarator's parentheses,
				   "f(a, b)" or "a(1.0f, 2.0f)", or NULL */
	json_t *argsfn;		/* the function type they made (in top) */
} parse_decltor;

/* A declarator with what follows it: an initializer or a bit width. */
typedef struct parse_dinit {
	parse_decltor d;
	json_t *init;		/* INIT, or a field's width, or NULL */
	int has_decltor;	/* 0 for an unnamed bit-field ": 3" */
} parse_dinit;

typedef struct parse_dlist {
	parse_dinit *v;
	int n, cap;
} parse_dlist;

/* One binding of a name in a scope (typedef names against ordinary
 * identifiers, C99 6.2.1). */
typedef struct parse_sym {
	const char *name;
	int len;
	int level;
	int kind;		/* PARSE_SYM_* */
	int next;		/* the next binding in this hash bucket, or -1 */
} parse_sym;

enum { PARSE_SYM_ORD, PARSE_SYM_TYPEDEF, PARSE_SYM_BROOKTYPE };

#define PARSE_INT_CACHE 4096
#define PARSE_KIND_CACHE 128

typedef struct parse_ctx {
	diag_ctx *d;
	json_t *ints[PARSE_INT_CACHE];	/* shared small integers */
	struct { const char *name; json_t *j; } kinds[PARSE_KIND_CACHE];
	lex_ctx L;
	json_t *files;		/* the document's "files" */
	json_t *decls;		/* the document's "decls" */
	char *text;		/* a NUL-terminated copy of the input */
	int errors;		/* syntax errors reported by this parse */
	int quiet;		/* reports none (files_ahead) */
	int stop;		/* give up: too deep */
	/* scopes */
	parse_sym *syms;
	int nsyms, capsyms;
	int *buckets;
	int nbuckets;
	int level;
	/* token stream */
	lex_token look[2];	/* lookahead, not yet classified */
	int nlook;
	lex_token cur;		/* the token the parser is taking */
	lex_token last;		/* the one it took before */
	lex_token before;	/* the one before that */
	const char *tag_end;	/* where the '}' that last closed a struct,
				   union or enum body is in the text */
	const char *pend_name;	/* file name for tokens before the next
				   linemarker is applied (L.file == -1) */
	char *pend_owned;
	json_t *params;		/* parameters of the last function declarator,
				   declared in the body that may follow */
	char **owned;		/* names copied for the scope table */
	int nowned, capowned;
	void *parser;		/* lemon's */
	char *braces;		/* per open '{': what it opens, PARSE_BRACE_* */
	int nbraces, capbraces;
	int closed_tag;		/* the last token closed such a body */
	int prev;		/* code of the last token given to lemon */
	int prevtag;		/* the last token named a struct/union tag */
	int syntax_errors;	/* reported by parse_syntax_error */
} parse_ctx;

/* What an open '{' opens: a block (a function body or a compound
 * statement), a struct, union or enum body, or an initializer. */
enum { PARSE_BRACE_BLOCK, PARSE_BRACE_TAG, PARSE_BRACE_INIT };

/* --- parse.c: diagnostics and the token stream --- */
void parse_error_at(parse_ctx *c, const json_t *at, const char *id,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void parse_syntax_error(parse_ctx *c, const lex_token *t, const int *expected,
	int nexpected);
void parse_too_deep(parse_ctx *c);
void parse_declare(parse_ctx *c, const char *name, int len, int kind);
void parse_forget(parse_ctx *c, const char *name, size_t len);

/* --- parse_build.c: node construction for the grammar's actions --- */
json_t *pb_at(parse_ctx *c, const lex_token *t);
json_t *pb_node(parse_ctx *c, const char *kind, json_t *at); /* steals at */
json_t *pb_kind(parse_ctx *c, const char *kind);	/* a shared string */
json_t *pb_name(const lex_token *t);		/* json string of the text */
/* what pb_text makes of bytes that are not printable UTF-8 */
enum { PB_NAME, PB_LITERAL, PB_FILE };
json_t *pb_text(const char *s, size_t n, int mode);
/* The code point of the UTF-8 character at S (N bytes), its length in
 * *LEN: 0 when S starts none (RFC 3629). */
unsigned long pb_utf8_char(const char *s, size_t n, size_t *len);
parse_ex pb_ex(parse_ctx *c, json_t *node, int d);

parse_ex pb_id(parse_ctx *c, const lex_token *t);
parse_ex pb_int(parse_ctx *c, const lex_token *t);
parse_ex pb_float(parse_ctx *c, const lex_token *t);
parse_ex pb_char(parse_ctx *c, const lex_token *t);
parse_ex pb_string(parse_ctx *c, const lex_token *t);
void pb_string_more(parse_ctx *c, parse_ex *s, const lex_token *t);
parse_ex pb_paren(parse_ctx *c, const lex_token *lp, parse_ex e);
parse_ex pb_binop(parse_ctx *c, const char *kind, const lex_token *op,
	parse_ex l, parse_ex r);
parse_ex pb_unop(parse_ctx *c, const char *kind, const lex_token *op,
	parse_ex e, int postfix);
parse_ex pb_cond(parse_ctx *c, parse_ex a, parse_ex b, parse_ex f);
parse_ex pb_call(parse_ctx *c, parse_ex fn, json_t *args, int argd);
parse_ex pb_ctor(parse_ctx *c, const lex_token *t, json_t *args, int argd,
	int underscore);
parse_ex pb_index(parse_ctx *c, parse_ex a, parse_ex i);
parse_ex pb_member(parse_ctx *c, parse_ex e, const lex_token *name, int arrow);
parse_ex pb_cast(parse_ctx *c, const lex_token *lp, json_t *type, parse_ex e);
parse_ex pb_sizeof_type(parse_ctx *c, const lex_token *t, json_t *type);
parse_ex pb_compound(parse_ctx *c, const lex_token *lp, json_t *type,
	json_t *init);
parse_ex pb_indexof(parse_ctx *c, const lex_token *t, parse_ex e);
void pb_args_add(parse_ex *args, parse_ex e);

void pb_specs_init(parse_ctx *c, parse_specs *s, const lex_token *t);
void pb_specs_free(parse_specs *s);
void pb_specs_token(parse_ctx *c, parse_specs *s, const lex_token *t);
void pb_specs_type(parse_ctx *c, parse_specs *s, json_t *type);
void pb_specs_attrs(parse_ctx *c, parse_specs *s, json_t *attrs);
json_t *pb_attr(parse_ctx *c, const lex_token *name, json_t *args);
json_t *pb_specs_base(parse_ctx *c, parse_specs *s, int *noret);

json_t *pb_struct(parse_ctx *c, const lex_token *kw, const lex_token *tag,
	json_t *fields);
json_t *pb_enum(parse_ctx *c, const lex_token *tag, json_t *items);
json_t *pb_enumitem(parse_ctx *c, const lex_token *name, json_t *value);
json_t *pb_fields(parse_ctx *c, parse_specs *s, parse_dlist *l);

void pb_decltor_name(parse_ctx *c, parse_decltor *d, const lex_token *t);
void pb_decltor_empty(parse_ctx *c, parse_decltor *d, const lex_token *t);
void pb_decltor_free(parse_decltor *d);
void pb_decltor_derive(parse_ctx *c, parse_decltor *d, json_t *t,
	const char *key);
void pb_decltor_array(parse_ctx *c, parse_decltor *d, json_t *size);
void pb_decltor_array_mods(parse_ctx *c, parse_decltor *d, json_t *size,
	json_t *mods);
json_t *pb_array_mods(json_t *quals);
json_t *pb_array_static(json_t *quals);
json_t *pb_array_star(void);
void pb_decltor_func(parse_ctx *c, parse_decltor *d, json_t *params,
	int variadic, int proto);
void pb_decltor_args(parse_ctx *c, parse_decltor *d, json_t *args);
void pb_decltor_stream(parse_ctx *c, parse_decltor *d, json_t *dims);
void pb_pointer(parse_ctx *c, parse_decltor *d, const lex_token *star,
	json_t *quals);
void pb_decltor_wrap(parse_ctx *c, parse_decltor *d, parse_decltor *ptr);
json_t *pb_apply(parse_decltor *d, json_t *base);
json_t *pb_typename(parse_ctx *c, parse_specs *s, parse_decltor *d);
json_t *pb_param(parse_ctx *c, parse_specs *s, parse_decltor *d);

void pb_dlist_add(parse_dlist **l, parse_dinit *di);
void pb_dlist_free(parse_dlist *l);
json_t *pb_decl(parse_ctx *c, parse_specs *s, parse_dlist *l);
json_t *pb_funcdef(parse_ctx *c, parse_specs *s, parse_decltor *d,
	json_t *knr, json_t *body);

json_t *pb_directive(parse_ctx *c, const lex_token *t);
json_t *pb_stmt(parse_ctx *c, const char *kind, const lex_token *t);
json_t *pb_block(parse_ctx *c, const lex_token *t, json_t *items);
json_t *pb_expr_stmt(parse_ctx *c, parse_ex e);
json_t *pb_desig(parse_ctx *c, const lex_token *t, const char *kind,
	json_t *v);
json_t *pb_inititem(parse_ctx *c, json_t *desig, json_t *value);
json_t *pb_initlist(parse_ctx *c, const lex_token *t, json_t *items);
void pb_list_add(json_t **list, json_t *item);
json_t *pb_for_init(parse_ctx *c, json_t *decl);

#endif
