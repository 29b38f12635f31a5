/* pp.c - brpp, the preprocessor: C99 section 6.10 (and its translation
 * phases 1 to 4, 5.1.1.2), of which brcc's preprocessor (guide 1.15) is a
 * subset. Messages use the wording of the spec's section 7 where it has one.
 *
 * The input is read whole, its line splices removed (phase 2) while their
 * places are kept, so every token knows its physical line and column. A
 * lexer makes pp-tokens on demand; directives are read straight from it.
 * Macro expansion follows Prosser's algorithm with hide sets (C99 6.10.3.4:
 * rescanning and the no-recursion rule): the expansion of a macro is pushed
 * back onto the input and read again. Text is written as it is produced,
 * with GCC linemarkers and the original spacing of unexpanded lines. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "brook/pp.h"

/* Limits: exceeding one is a diagnostic, never a crash. */
enum {
	PP_MAX_INCLUDE = 200,	/* #include nesting */
	PP_MAX_EXPAND = 200,	/* macro calls nested in macro arguments */
	PP_MAX_EXPR = 256,	/* parentheses and unary operators in #if */
	PP_MAX_ERRORS = 50,	/* errors before brpp gives up */
	PP_MAX_GAP = 8		/* blank lines written before a linemarker is shorter */
};
#define PP_MAX_TOKENS 2000000L	/* tokens made by expanding one source token */

/* ------------------------------------------------------------------ */
/* Tokens */

enum pp_kind {
	TK_EOF, TK_NL, TK_IDENT, TK_NUMBER, TK_CHAR, TK_STRING, TK_HEADER,
	TK_PUNCT, TK_OTHER,
	TK_PARAM,		/* a macro parameter in a replacement list */
	TK_PLACEMARKER,		/* C99 6.10.3.3p2 */
	TK_BADQUOTE		/* from the scanner only: an unterminated literal */
};

/* Punctuators with more than one character; single ones are their char. */
enum pp_op {
	OP_PASTE = 256, OP_ELLIPSIS, OP_ASSIGN, OP_ARROW, OP_INC, OP_DEC,
	OP_SHL, OP_SHR, OP_LE, OP_GE, OP_EQ, OP_NE, OP_LAND, OP_LOR
};

enum pp_flag {
	TF_WS = 1,		/* white space (or a comment) before it */
	TF_PURE = 2,		/* ... made of blanks on its own line: copy it */
	TF_SRC = 4,		/* read from a file, not made by an expansion */
	TF_BOL = 8,		/* first token of a line */
	TF_SYNC = 16		/* may move the output to its line: read from a
				 * file, or first of the expansion of such */
};

typedef struct pp_sym pp_sym;
typedef struct pp_hs pp_hs;

typedef struct pp_tok {
	const char *s;		/* spelling, not NUL-terminated */
	const char *ws;		/* the white space before it */
	pp_sym *sym;		/* identifiers */
	pp_hs *hs;		/* hide set */
	int len, wslen;
	int line, col;		/* presumed line, column */
	int file;		/* presumed file name: index into names */
	unsigned short op;	/* punctuator; parameter index for TK_PARAM */
	unsigned char kind, flags;
} pp_tok;

typedef struct pp_tokvec {
	pp_tok *v;
	size_t n, cap;
} pp_tokvec;

/* Directives, by the code their name's symbol carries. */
enum pp_dir {
	D_NONE, D_DEFINE, D_UNDEF, D_INCLUDE, D_IF, D_IFDEF, D_IFNDEF, D_ELIF,
	D_ELSE, D_ENDIF, D_LINE, D_ERROR, D_WARNING, D_PRAGMA
};

/* Built-in macros whose value depends on where they are used. */
enum pp_builtin { B_NONE, B_FILE, B_LINE, B_DATE, B_TIME };

typedef struct pp_macro {
	pp_sym *name;
	pp_tok *body;
	int nbody;
	pp_sym **params;	/* __VA_ARGS__ last for a C99 variadic macro */
	int nparams;
	unsigned char funclike, variadic, builtin;
	unsigned char pastes;	/* has ## */
	pp_hs *self;		/* the hide set {name}, made once */
	struct pp_macro *retired;	/* next replaced definition */
	int file, line, col;	/* where it was defined */
} pp_macro;

struct pp_sym {
	pp_sym *next;		/* hash chain */
	const char *name;
	int len;
	unsigned hash;
	pp_macro *macro;
	unsigned char dir;	/* enum pp_dir */
};

/* A hide set: a list of symbols, immutable, tails shared. */
struct pp_hs {
	pp_sym *sym;
	pp_hs *next;
};

/* ------------------------------------------------------------------ */
/* Files, lexers, conditionals, the context */

typedef struct pp_file {
	struct pp_file *next;
	char *path;		/* as opened */
	char *dir;		/* where its "..." includes are searched first */
	int name;		/* index into names */
	char *buf;		/* splices removed, '\n'-terminated, NUL after */
	size_t len;
	size_t *splices;	/* offsets in buf where a splice was removed */
	size_t nsplices;
	pp_sym *guard;		/* its include guard, once known */
	int once;		/* #pragma once */
	int seen;		/* included at least once */
	int active;		/* on the include stack now */
} pp_file;

/* Multiple-include detection: the state of a file's outer #ifndef. */
enum pp_mi { MI_START, MI_OPEN, MI_CLOSED, MI_NONE };

typedef struct pp_lexer {
	pp_file *f;
	const char *p, *end;
	const char *loc_p, *loc_ls;	/* location cursor: position, line start */
	int loc_line;			/* physical line at loc_p */
	size_t sp;			/* next splice */
	int delta;			/* #line: presumed = physical + delta */
	int name;			/* presumed file name */
	int bol, quiet, header;
	int ret_line;			/* line of the includer after #include */
	size_t cond_base;		/* conditionals open when it was entered */
	int mi;				/* enum pp_mi */
	pp_sym *mi_guard;
} pp_lexer;

typedef struct pp_cond {
	int file, line, col;	/* the #if */
	unsigned char taken;	/* one of its groups was included */
	unsigned char had_else;
} pp_cond;

/* A token source: pushed-back tokens (next one last), then the tokens
 * V[I..N) (an argument or a directive's line, read in place), then the
 * current file when LEXER is set. IFMODE evaluates `defined` (C99
 * 6.10.1p1). */
typedef struct pp_in {
	pp_tokvec st;
	const pp_tok *v;
	size_t n, i;
	int lexer, ifmode;
} pp_in;

typedef struct pp_chunk {
	struct pp_chunk *next;
	size_t used, cap;
	char data[];
} pp_chunk;

typedef struct pp_out {
	strbuf *b;
	int file;		/* source position of the current output line */
	long long line;		/* (one past INT_MAX after its last line) */
	int col;		/* bytes on the current output line */
	int prev_kind;		/* last token written; TK_EOF at line start */
	const char *prev_s;
	int prev_len;
	int suppress;		/* reading <built-in> and <command-line> */
	int resync;		/* #line: the next token needs a linemarker */
} pp_out;

typedef struct pp_ctx {
	const pp_options *o;
	diag_ctx *d;
	int errors0;		/* d->nerrors when the run began */
	int stop;		/* too many errors */
	pp_chunk *arena;
	pp_sym **tab;		/* symbols */
	size_t ntab, nsyms;
	char **names;		/* file names for linemarkers and messages */
	size_t nnames, capnames;
	pp_file *files;
	pp_lexer **stack;	/* include stack; lex is its top */
	size_t depth, capstack;
	pp_lexer *lex;
	pp_cond *conds;
	size_t nconds, capconds;
	pp_in main;
	pp_out out;
	int in_args;		/* collecting macro arguments */
	int expand_depth;
	int drop;		/* an expansion failed: what it made is dropped,
				 * back to the source text or the directive */
	long budget;		/* tokens made since the last source token */
	int if_bad;		/* an error was reported in this #if */
	char date[16], time[16];
	pp_sym *s_defined, *s_va_args, *s_pragma_op, *s_once;
	pp_macro *retired;	/* replaced definitions, freed at the end: a
				 * call may be reading one */
} pp_ctx;

/* ------------------------------------------------------------------ */
/* Memory */

static void *pp_alloc(pp_ctx *c, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	pp_chunk *k = c->arena;
	if (!k || k->cap - k->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		k = xmalloc(sizeof *k + cap);
		k->used = 0;
		k->cap = cap;
		k->next = c->arena;
		c->arena = k;
	}
	void *p = k->data + k->used;
	k->used += n;
	return p;
}

/* A NUL-terminated copy in the arena: two such strings are never adjacent,
 * which the output relies on (tokens adjacent in memory were adjacent in
 * the source). */
static char *pp_strndup(pp_ctx *c, const char *s, size_t n)
{
	char *p = pp_alloc(c, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* Makes room for NEED elements in the array *P of *CAP elements. */
static void grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	*(void **)pp = xrealloc(*(void **)pp, n * elem);
	*cap = n;
}

static void tv_push(pp_tokvec *v, const pp_tok *t)
{
	grow(&v->v, &v->cap, v->n + 1, sizeof *v->v);
	v->v[v->n++] = *t;
}

static void tv_free(pp_tokvec *v)
{
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

/* Pushes N tokens back so that they are read in order. */
static void in_push(pp_in *in, const pp_tok *t, size_t n)
{
	grow(&in->st.v, &in->st.cap, in->st.n + n, sizeof *in->st.v);
	for (size_t i = n; i-- > 0;)
		in->st.v[in->st.n++] = t[i];
}

/* Drops the tokens IN holds; its file, if any, is read on. */
static void in_drop(pp_in *in)
{
	in->st.n = 0;
	in->i = in->n;
}

/* ------------------------------------------------------------------ */
/* Symbols and hide sets */

static unsigned pp_hash(const char *s, int n)
{
	unsigned h = 2166136261u;
	for (int i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static pp_sym *intern(pp_ctx *c, const char *s, int n)
{
	unsigned h = pp_hash(s, n);
	size_t i = h & (c->ntab - 1);
	for (pp_sym *y = c->tab[i]; y; y = y->next)
		if (y->hash == h && y->len == n && memcmp(y->name, s, (size_t)n) == 0)
			return y;
	if (c->nsyms >= c->ntab) {
		size_t nt = c->ntab * 2;
		pp_sym **t = xcalloc(nt, sizeof *t);
		for (size_t j = 0; j < c->ntab; j++)
			for (pp_sym *y = c->tab[j], *nx; y; y = nx) {
				nx = y->next;
				y->next = t[y->hash & (nt - 1)];
				t[y->hash & (nt - 1)] = y;
			}
		free(c->tab);
		c->tab = t;
		c->ntab = nt;
		i = h & (nt - 1);
	}
	pp_sym *y = pp_alloc(c, sizeof *y);
	memset(y, 0, sizeof *y);
	y->name = pp_strndup(c, s, (size_t)n);
	y->len = n;
	y->hash = h;
	c->nsyms++;
	y->next = c->tab[i];
	c->tab[i] = y;
	return y;
}

static int hs_has(const pp_hs *h, const pp_sym *y)
{
	for (; h; h = h->next)
		if (h->sym == y)
			return 1;
	return 0;
}

static pp_hs *hs_cons(pp_ctx *c, pp_sym *y, pp_hs *next)
{
	pp_hs *h = pp_alloc(c, sizeof *h);
	h->sym = y;
	h->next = next;
	return h;
}

static size_t hs_len(const pp_hs *h)
{
	size_t n = 0;
	for (; h; h = h->next)
		n++;
	return n;
}

/* A ∪ B: the members of the shorter put in front of the longer, so a
 * chain of expansions costs one node a step, not a copy of the set. */
static pp_hs *hs_union(pp_ctx *c, pp_hs *a, pp_hs *b)
{
	if (!a || a == b)
		return b;
	if (!b)
		return a;
	if (hs_len(a) > hs_len(b)) {
		pp_hs *t = a;
		a = b;
		b = t;
	}
	pp_hs *r = b;
	for (; a; a = a->next)
		if (!hs_has(b, a->sym))
			r = hs_cons(c, a->sym, r);
	return r;
}

static pp_hs *hs_inter(pp_ctx *c, pp_hs *a, pp_hs *b)
{
	if (a == b)
		return a;
	pp_hs *r = NULL;
	for (; a && b; a = a->next)
		if (hs_has(b, a->sym))
			r = hs_cons(c, a->sym, r);
	return r;
}

/* ------------------------------------------------------------------ */
/* Diagnostics */

static void vreport(pp_ctx *c, diag_level lv, int file, int line, int col,
	const char *id, const char *fmt, va_list ap)
{
	if (c->stop)
		return;
	strbuf m = {0};
	sb_vprintf(&m, fmt, ap);
	diag_report(c->d, lv, file >= 0 ? c->names[file] : NULL, line, col,
		id, "%s", m.s);
	sb_free(&m);
	if (c->d->nerrors - c->errors0 >= PP_MAX_ERRORS) {
		diag_report(c->d, DIAG_ERROR, file >= 0 ? c->names[file] : NULL,
			line, col, "pp-too-many-errors",
			"too many errors, giving up");
		c->stop = 1;
	}
}

static void pp_msg(pp_ctx *c, diag_level lv, const pp_tok *t,
	const char *id, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void pp_msg(pp_ctx *c, diag_level lv, const pp_tok *t,
	const char *id, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(c, lv, t ? t->file : -1, t ? t->line : 0, t ? t->col : 0, id,
		fmt, ap);
	va_end(ap);
}

static void pp_msg_at(pp_ctx *c, diag_level lv, int file, int line, int col,
	const char *id, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static void pp_msg_at(pp_ctx *c, diag_level lv, int file, int line, int col,
	const char *id, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(c, lv, file, line, col, id, fmt, ap);
	va_end(ap);
}

#define pp_error(c, t, ...) pp_msg(c, DIAG_ERROR, t, __VA_ARGS__)
#define pp_warning(c, t, ...) pp_msg(c, DIAG_WARNING, t, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* Reading files: phases 1 and 2 */

static int add_name(pp_ctx *c, const char *name)
{
	for (size_t i = c->nnames; i-- > 0;)
		if (strcmp(c->names[i], name) == 0)
			return (int)i;
	grow(&c->names, &c->capnames, c->nnames + 1, sizeof *c->names);
	c->names[c->nnames] = xstrdup(name);
	return (int)c->nnames++;
}

/* C99 5.1.1.2p1, phase 2: removes each backslash-newline, remembering
 * where; "\r\n" reads as "\n". A NUL byte is an error and reads as a
 * space; a file that does not end in a newline gets one. */
static void file_clean(pp_ctx *c, pp_file *f, const char *raw, size_t n)
{
	char *b = xmalloc(n + 2);
	size_t o = 0, cap = 0, line = 1, ls = 0, nuls = 0;
	for (size_t i = 0; i < n;) {
		char ch = raw[i];
		if (ch == '\\' && i + 1 < n && (raw[i + 1] == '\n' ||
		    (raw[i + 1] == '\r' && i + 2 < n && raw[i + 2] == '\n'))) {
			grow(&f->splices, &cap, f->nsplices + 1, sizeof *f->splices);
			f->splices[f->nsplices++] = o;
			i += raw[i + 1] == '\n' ? 2 : 3;
			line++;
			ls = i;
			continue;
		}
		if (ch == '\r' && i + 1 < n && raw[i + 1] == '\n') {
			i++;
			continue;
		}
		if (ch == '\0') {
			if (nuls++ == 0)
				pp_msg_at(c, DIAG_ERROR, f->name, (int)line,
					(int)(i - ls + 1), "pp-nul-byte",
					"null character in input");
			ch = ' ';
		} else if (ch == '\n') {
			line++;
			ls = i + 1;
		}
		b[o++] = ch;
		i++;
	}
	if (o > 0 && b[o - 1] != '\n')
		b[o++] = '\n';
	b[o] = '\0';
	f->buf = b;
	f->len = o;
}

/* The file at PATH, read and cleaned once per run; NULL when it cannot be
 * read, with the reason in ERR. */
static pp_file *file_load(pp_ctx *c, const char *path, const char *name,
	char *err, size_t errlen)
{
	for (pp_file *f = c->files; f; f = f->next)
		if (strcmp(f->path, path) == 0)
			return f;
	char *raw;
	size_t n;
	if (util_read_file(path, &raw, &n, err, errlen) != 0)
		return NULL;
	pp_file *f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	const char *slash = strcmp(path, "-") == 0 ? NULL : strrchr(path, '/');
	f->dir = slash ? xstrndup(path, (size_t)(slash - path) + (slash == path))
		: xstrdup(".");
	f->name = add_name(c, name);
	f->next = c->files;
	c->files = f;
	file_clean(c, f, raw, n);
	free(raw);
	return f;
}

/* A file made from text: <built-in> and <command-line>. */
static pp_file *file_text(pp_ctx *c, const char *name, const char *text)
{
	pp_file *f = xcalloc(1, sizeof *f);
	f->path = xstrdup(name);
	f->dir = xstrdup(".");
	f->name = add_name(c, name);
	f->next = c->files;
	c->files = f;
	file_clean(c, f, text, strlen(text));
	return f;
}

static void files_free(pp_ctx *c)
{
	for (pp_file *f = c->files, *nx; f; f = nx) {
		nx = f->next;
		free(f->path);
		free(f->dir);
		free(f->buf);
		free(f->splices);
		free(f);
	}
	c->files = NULL;
}

/* ------------------------------------------------------------------ */
/* The lexer: phase 3, pp-tokens (C99 6.4) */

static int is_ident_start(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		ch == '_' || ch == '$' || ch >= 0x80;
}

static int is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int is_ident_char(int ch)
{
	return is_ident_start(ch) || is_digit(ch);
}

/* C99 6.4.6: the punctuator at S, digraphs included: its length, or 0;
 * its code in *OP (a digraph has the code of what it stands for). */
static int scan_punct(const char *s, unsigned short *op)
{
	char a = s[0], b = s[1], c = b ? s[2] : 0;
	*op = (unsigned char)a;
	switch (a) {
	case '[': case ']': case '(': case ')': case '{': case '}':
	case '~': case '?': case ';': case ',':
		return 1;
	case '.':
		if (b == '.' && c == '.')
			return *op = OP_ELLIPSIS, 3;
		return 1;
	case '-':
		if (b == '>')
			return *op = OP_ARROW, 2;
		if (b == '-')
			return *op = OP_DEC, 2;
		break;
	case '+':
		if (b == '+')
			return *op = OP_INC, 2;
		break;
	case '&':
		if (b == '&')
			return *op = OP_LAND, 2;
		break;
	case '|':
		if (b == '|')
			return *op = OP_LOR, 2;
		break;
	case '*': case '/': case '^':
		break;
	case '!':
		if (b == '=')
			return *op = OP_NE, 2;
		return 1;
	case '=':
		if (b == '=')
			return *op = OP_EQ, 2;
		return 1;
	case '<':
	case '>':
		if (b == a)
			return c == '=' ? (*op = OP_ASSIGN, 3) :
				(*op = a == '<' ? OP_SHL : OP_SHR, 2);
		if (b == '=')
			return *op = a == '<' ? OP_LE : OP_GE, 2;
		if (a == '<' && (b == ':' || b == '%'))
			return *op = b == ':' ? '[' : '{', 2;
		return 1;
	case '%':
		if (b == ':')
			return c == '%' && s[3] == ':' ? (*op = OP_PASTE, 4) :
				(*op = '#', 2);
		if (b == '>')
			return *op = '}', 2;
		break;
	case ':':
		if (b == '>')
			return *op = ']', 2;
		return 1;
	case '#':
		if (b == '#')
			return *op = OP_PASTE, 2;
		return 1;
	default:
		*op = 0;
		return 0;
	}
	/* the operators that may take '=': + - & | * / ^ % */
	if (b == '=')
		return *op = OP_ASSIGN, 2;
	return 1;
}

/* Scans one pp-token at S, which is NUL-terminated and starts with no
 * white space: C99 6.4p1
 *   preprocessing-token = identifier | pp-number | character-constant
 *       | string-literal | punctuator | other non-white-space character
 * Returns its kind (TK_BADQUOTE for a literal with no closing quote, whose
 * length then runs to the end of the line) and sets *LEN and *OP. */
static int scan_token(const char *s, int *len, unsigned short *op)
{
	const unsigned char *p = (const unsigned char *)s;
	*op = 0;
	/* C99 6.4.4.4, 6.4.5: L'x' L"x" (and GCC's u, U, u8) */
	const unsigned char *q = p;
	if (*q == 'L' || *q == 'U')
		q++;
	else if (*q == 'u')
		q += q[1] == '8' && q[2] == '"' ? 2 : 1;
	if (*q == '"' || *q == '\'') {
		int quote = *q++;
		while (*q && *q != quote && *q != '\n') {
			if (*q == '\\' && q[1] && q[1] != '\n')
				q++;
			q++;
		}
		if (*q != quote) {
			*len = (int)(q - p);
			return TK_BADQUOTE;
		}
		*len = (int)(q + 1 - p);
		return quote == '"' ? TK_STRING : TK_CHAR;
	}
	if (is_ident_start(*p)) {
		q = p + 1;
		while (is_ident_char(*q))
			q++;
		*len = (int)(q - p);
		return TK_IDENT;
	}
	/* C99 6.4.8: pp-number = digit | . digit | pp-number (digit |
	 * identifier-nondigit | e sign | E sign | p sign | P sign | .) */
	if (is_digit(*p) || (*p == '.' && is_digit(p[1]))) {
		q = p + 1;
		for (;;) {
			if ((*q == '+' || *q == '-') && (q[-1] == 'e' ||
			    q[-1] == 'E' || q[-1] == 'p' || q[-1] == 'P'))
				q++;
			else if (is_ident_char(*q) || *q == '.')
				q++;
			else
				break;
		}
		*len = (int)(q - p);
		return TK_NUMBER;
	}
	if ((*len = scan_punct(s, op)) > 0)
		return TK_PUNCT;
	*len = 1;
	return TK_OTHER;
}

static void lex_init(pp_lexer *l, pp_file *f)
{
	memset(l, 0, sizeof *l);
	l->f = f;
	l->p = l->loc_p = l->loc_ls = f->buf;
	/* a UTF-8 byte order mark is no text, as for GCC and Clang */
	if (f->len >= 3 && memcmp(f->buf, "\xef\xbb\xbf", 3) == 0)
		l->p = l->loc_p = l->loc_ls = f->buf + 3;
	l->end = f->buf + f->len;
	l->loc_line = 1;
	l->name = f->name;
	l->bol = 1;
}

/* Moves the location cursor to POS (never backwards): newlines and
 * removed splices both start a physical line. */
static void loc_advance(pp_lexer *l, const char *pos)
{
	const pp_file *f = l->f;
	if (pos < l->loc_p)
		return;
	for (;;) {
		const char *sp = l->sp < f->nsplices ?
			f->buf + f->splices[l->sp] : NULL;
		const char *lim = sp && sp <= pos ? sp : pos;
		const char *nl;
		while ((nl = memchr(l->loc_p, '\n', (size_t)(lim - l->loc_p)))) {
			l->loc_line++;
			l->loc_ls = l->loc_p = nl + 1;
		}
		l->loc_p = lim;
		if (lim != sp)
			return;
		l->loc_line++;
		l->loc_ls = sp;
		l->sp++;
	}
}

/* Whether L's location cursor is past line 2147483647, where C99 6.10.4p3
 * ends line numbers (the line after a `#line 2147483647`, say). */
static int lex_past_max(const pp_lexer *l)
{
	return l->delta > 0 && l->loc_line > INT_MAX - l->delta;
}

/* The presumed line at L's location cursor: the physical one, moved by
 * #line; INT_MAX past it. */
static int lex_line(const pp_lexer *l)
{
	return lex_past_max(l) ? INT_MAX : l->loc_line + l->delta;
}

/* The next pp-token of L's file, NL at each end of line, EOF at the end,
 * or at a token past line 2147483647 (after an error). */
static void lex_next(pp_ctx *c, pp_lexer *l, pp_tok *t)
{
	const char *p = l->p, *gap = p;
	int ws = 0, pure = 1;
	for (;;) {
		char ch = *p;
		if (ch == ' ' || ch == '\t') {
			p++;
			ws = 1;
		} else if (ch == '\v' || ch == '\f' || ch == '\r') {
			p++;
			ws = 1;
			pure = 0;
		} else if (ch == '/' && p[1] == '*') {
			/* C99 6.4.9: a comment is one space */
			const char *e = strstr(p + 2, "*/");
			if (!e) {
				loc_advance(l, p);
				pp_msg_at(c, DIAG_ERROR, l->name, lex_line(l),
					(int)(p - l->loc_ls) + 1, "pp-unterminated-comment",
					"Expecting end of comment");
				p = l->end;
				break;
			}
			p = e + 2;
			ws = 1;
			pure = 0;
		} else if (ch == '/' && p[1] == '/') {
			while (*p != '\n' && p < l->end)
				p++;
			ws = 1;
			pure = 0;
		} else
			break;
	}
	memset(t, 0, sizeof *t);
	t->ws = gap;
	t->wslen = (int)(p - gap);
	if (pure && ws) {
		loc_advance(l, gap);
		int gl = l->loc_line;
		loc_advance(l, p);
		pure = gl == l->loc_line;
	} else
		loc_advance(l, p);
	t->s = p;
	t->line = lex_line(l);
	t->col = (int)(p - l->loc_ls) + 1;
	t->file = l->name;
	if (p >= l->end) {
		t->kind = TK_EOF;
		l->p = l->end;
		return;
	}
	if (*p == '\n') {
		t->kind = TK_NL;
		t->len = 1;
		l->p = p + 1;
		l->bol = 1;
		return;
	}
	if (lex_past_max(l)) {
		pp_msg_at(c, DIAG_ERROR, l->name, INT_MAX, 0, "pp-line-range",
			"line number out of range: nothing after line %d is read",
			INT_MAX);
		t->kind = TK_EOF;
		l->p = l->end;
		return;
	}
	t->flags = TF_SRC | TF_SYNC | (ws ? TF_WS : 0) | (ws && pure ? TF_PURE : 0) |
		(l->bol ? TF_BOL : 0);
	l->bol = 0;
	if (l->header && *p == '<') {
		/* C99 6.4.7: h-char-sequence, only after #include */
		const char *e = p + 1;
		while (*e != '>' && *e != '\n')
			e++;
		if (*e == '>') {
			t->kind = TK_HEADER;
			t->len = (int)(e + 1 - p);
			l->p = e + 1;
			return;
		}
	}
	int kind = scan_token(p, &t->len, &t->op);
	if (kind == TK_BADQUOTE) {
		if (l->quiet) {
			kind = TK_OTHER;
			t->len = 1;
		} else {
			const char *q = p;
			while (*q != '"' && *q != '\'')
				q++;		/* past the prefix L, u, U or u8 */
			int ch = *q;
			pp_error(c, t, ch == '"' ? "pp-unterminated-string" :
				"pp-unterminated-char",
				"missing terminating %c character", ch);
			kind = TK_OTHER;	/* the rest of the line, as it is */
		}
	} else if (kind == TK_OTHER && !l->quiet &&
	    ((unsigned char)*p < 0x20 || *p == 0x7f))
		pp_error(c, t, "pp-stray-char",
			"stray character '\\%03o' in input", (unsigned char)*p);
	t->kind = (unsigned char)kind;
	if (kind == TK_IDENT)
		t->sym = intern(c, p, t->len);
	l->p = p + t->len;
}

/* ------------------------------------------------------------------ */
/* Output: text with GCC linemarkers */

/* NAME as a C string literal's contents: quote, backslash and
 * unprintable bytes escaped (GCC's linemarker spelling). */
static void put_escaped(strbuf *b, const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (*p == '"' || *p == '\\') {
			sb_putc(b, '\\');
			sb_putc(b, *p);
		} else if (*p < 0x20 || *p == 0x7f)
			sb_printf(b, "\\%03o", *p);
		else
			sb_putc(b, *p);
	}
}

static void out_newline(pp_ctx *c)
{
	sb_putc(c->out.b, '\n');
	c->out.col = 0;
	c->out.line++;
	c->out.prev_kind = TK_EOF;
}

/* `# LINE "FILE" FLAG`: what follows is line LINE of FILE. FLAG is "",
 * " 1" (entering an include) or " 2" (back from one). */
static void out_marker(pp_ctx *c, int line, int file, const char *flag)
{
	pp_out *o = &c->out;
	if (o->suppress)
		return;
	if (o->col > 0)
		out_newline(c);
	if (!c->o->no_linemarkers) {
		sb_printf(o->b, "# %d \"", line);
		put_escaped(o->b, c->names[file]);
		sb_printf(o->b, "\"%s\n", flag);
	}
	o->line = line;
	o->file = file;
	o->prev_kind = TK_EOF;
}

/* Brings the output to the line of T: newlines for a short gap, else a
 * linemarker. Only a token read from the file moves to a later line once
 * a line has text; the expansion of a macro stays on its line. */
static void out_sync(pp_ctx *c, const pp_tok *t)
{
	pp_out *o = &c->out;
	if (c->o->no_linemarkers) {
		/* -P: lines as GCC's -P writes them, with no empty ones */
		if (o->col > 0 && (t->flags & TF_SYNC) &&
		    (t->line > o->line || t->file != o->file))
			out_newline(c);
		o->line = t->line;
		o->file = t->file;
		return;
	}
	if (t->file != o->file || o->resync) {
		o->resync = 0;
		out_marker(c, t->line, t->file, "");
		return;
	}
	if (o->col > 0 && (!(t->flags & TF_SYNC) || t->line <= o->line))
		return;
	long long gap = t->line - o->line;
	if (o->col == 0 && gap == 0)
		return;
	if (gap > 0 && gap <= PP_MAX_GAP) {
		while (o->line < t->line)
			out_newline(c);
	} else
		out_marker(c, t->line, t->file, "");
}

/* Whether writing T right after the previous token, with no space, would
 * read back as other tokens (GCC's cpp_avoid_paste). */
static int avoid_paste(const pp_out *o, const pp_tok *t)
{
	int pk = o->prev_kind, tk = t->kind;
	const char *ps = o->prev_s;
	if (pk == TK_EOF)
		return 0;
	if ((pk == TK_IDENT || pk == TK_NUMBER) &&
	    (tk == TK_IDENT || tk == TK_NUMBER))
		return 1;
	if (pk == TK_NUMBER && strchr(".+-", t->s[0]))
		return 1;
	if (pk == TK_IDENT && (tk == TK_STRING || tk == TK_CHAR))
		return 1;
	if ((pk != TK_PUNCT && pk != TK_OTHER) || o->prev_len > 4)
		return 0;
	if (o->prev_len == 1 && ps[0] == '.' && (t->s[0] == '.' || tk == TK_NUMBER))
		return 1;
	if (o->prev_len == 1 && ps[0] == '/' && (t->s[0] == '/' || t->s[0] == '*'))
		return 1;
	char buf[16];
	int n = t->len < 4 ? t->len : 4, len;
	unsigned short op;
	memcpy(buf, ps, (size_t)o->prev_len);
	memcpy(buf + o->prev_len, t->s, (size_t)n);
	buf[o->prev_len + n] = '\0';
	scan_token(buf, &len, &op);
	return len != o->prev_len;
}

static void put_spaces(pp_ctx *c, int n)
{
	for (int i = 0; i < n; i++)
		sb_putc(c->out.b, ' ');
	c->out.col += n;
}

static void put_gap(pp_ctx *c, const pp_tok *t)
{
	sb_putn(c->out.b, t->ws, (size_t)t->wslen);
	c->out.col += t->wslen;
}

/* Writes T. Spacing: the original blanks where they were plain blanks on
 * the token's own line; spaces up to the original column after a comment
 * or at the start of a line; one space where the source had white space
 * or where two tokens would otherwise run together. */
static void out_token(pp_ctx *c, const pp_tok *t)
{
	pp_out *o = &c->out;
	if (o->suppress)
		return;
	out_sync(c, t);
	if (o->col == 0) {
		if ((t->flags & TF_PURE) && t->wslen == t->col - 1)
			put_gap(c, t);
		else
			put_spaces(c, t->col - 1);
	} else if (t->flags & TF_WS) {
		if (t->flags & TF_PURE)
			put_gap(c, t);
		else if ((t->flags & TF_SRC) && o->prev_s + o->prev_len == t->ws)
			put_spaces(c, t->col - 1 - o->col > 1 ?
				t->col - 1 - o->col : 1);
		else
			put_spaces(c, 1);
	} else if (o->prev_s + o->prev_len != t->s && avoid_paste(o, t))
		put_spaces(c, 1);
	sb_putn(o->b, t->s, (size_t)t->len);
	o->col += t->len;
	o->prev_kind = t->kind;
	o->prev_s = t->s;
	o->prev_len = t->len;
}

/* A line passed through as it is (#include <...>, #pragma), after a
 * linemarker giving its place. */
static void out_line(pp_ctx *c, int file, int line, const char *text)
{
	pp_out *o = &c->out;
	if (o->suppress)
		return;
	if (o->col > 0)
		out_newline(c);
	if (!c->o->no_linemarkers)
		out_marker(c, line, file, "");
	sb_puts(o->b, text);
	sb_putc(o->b, '\n');
	o->file = file;
	o->line = (long long)line + 1;
	o->col = 0;
	o->prev_kind = TK_EOF;
}

/* ------------------------------------------------------------------ */
/* Macro expansion: C99 6.10.3 */

static void expand_next(pp_ctx *c, pp_in *in, pp_tok *t);
static void handle_directive(pp_ctx *c, const pp_tok *hash);

static int is_op(const pp_tok *t, int op)
{
	return t->kind == TK_PUNCT && t->op == op;
}

/* The next token of IN, unexpanded. */
static void in_next(pp_ctx *c, pp_in *in, pp_tok *t)
{
	if (in->st.n > 0)
		*t = in->st.v[--in->st.n];
	else if (in->i < in->n)
		*t = in->v[in->i++];
	else if (in->lexer && c->lex)
		lex_next(c, c->lex, t);
	else {
		memset(t, 0, sizeof *t);
		t->kind = TK_EOF;
		t->file = -1;
	}
}

/* A token made by the preprocessor, spelled TEXT, at the place of AT. */
static pp_tok make_tok(pp_ctx *c, const pp_tok *at, int kind, const char *text,
	size_t len)
{
	pp_tok t = *at;
	t.s = pp_strndup(c, text, len);
	t.len = (int)len;
	t.kind = (unsigned char)kind;
	t.op = 0;
	t.sym = NULL;
	t.flags &= (unsigned char)~(TF_SRC | TF_BOL | TF_SYNC);
	return t;
}

static pp_tok make_string(pp_ctx *c, const pp_tok *at, const char *s)
{
	strbuf b = {0};
	sb_putc(&b, '"');
	put_escaped(&b, s);
	sb_putc(&b, '"');
	pp_tok t = make_tok(c, at, TK_STRING, b.s, b.len);
	sb_free(&b);
	return t;
}

/* C99 6.10.8: __DATE__ and __TIME__, made when first used at AT: from
 * SOURCE_DATE_EPOCH when set, for reproducible output. As in GCC, that
 * must be seconds since 1970 from 0 to 253402300799 (the end of 9999);
 * else it is an error, and the current time is used. */
static void init_time(pp_ctx *c, const pp_tok *at)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = 0;
	struct tm tm;
	int fixed = 0;
	if (sde && *sde) {
		char *end;
		errno = 0;
		long long v = strtoll(sde, &end, 10);
		t = (time_t)v;
		fixed = is_digit(*sde) && !*end && errno == 0 &&
			v <= 253402300799LL && t == v && gmtime_r(&t, &tm);
		if (!fixed)
			pp_error(c, at, "pp-source-date-epoch", "SOURCE_DATE_EPOCH "
				"must be an integer from 0 to 253402300799, not \"%s\"",
				sde);
	}
	if (!fixed) {
		t = time(NULL);
		localtime_r(&t, &tm);
	}
	strftime(c->date, sizeof c->date, "%b %e %Y", &tm);
	strftime(c->time, sizeof c->time, "%H:%M:%S", &tm);
}

/* C99 6.10.8: __FILE__, __LINE__, __DATE__, __TIME__. */
static pp_tok builtin_value(pp_ctx *c, const pp_macro *m, const pp_tok *at)
{
	char num[32];
	switch (m->builtin) {
	case B_FILE:
		return make_string(c, at, at->file >= 0 ? c->names[at->file] : "");
	case B_LINE:
		snprintf(num, sizeof num, "%d", at->line);
		return make_tok(c, at, TK_NUMBER, num, strlen(num));
	default:	/* B_DATE, B_TIME */
		if (!c->date[0])
			init_time(c, at);
		return make_string(c, at, m->builtin == B_DATE ? c->date : c->time);
	}
}

/* The arguments of one macro call: argument I is v[start[I]..start[I+1])
 * less its last token, the ',' or ')' after it. V is RAW, or the tokens
 * of an outer call's argument read in place: calls nested in arguments
 * then hold no copies of them. */
typedef struct pp_args {
	const pp_tok *v;
	pp_tokvec raw;
	size_t *start;
	int n;
	pp_tokvec *exp;		/* fully expanded arguments, made on demand */
	unsigned char *done;
	int va_omitted;		/* no variable arguments, not even empty ones */
} pp_args;

/* Argument I of A as written, its length in *N. */
static const pp_tok *arg_raw(const pp_args *a, int i, size_t *n)
{
	*n = a->start[i + 1] - a->start[i] - 1;
	return a->v + a->start[i];
}

static void args_free(pp_args *a)
{
	tv_free(&a->raw);
	for (int i = 0; a->exp && i < a->n; i++)
		tv_free(&a->exp[i]);
	free(a->exp);
	free(a->done);
	free(a->start);
}

/* C99 6.10.3p10-12: reads the arguments of a call of M up to the matching
 * ')', which it leaves in *RP. Returns 0 after an error.
 *   arguments = "(" [ argument { "," argument } ] ")"
 * where an argument is any tokens with balanced parentheses, and in a
 * variadic macro the last one takes the remaining commas too. */
static int collect_args(pp_ctx *c, pp_in *in, const pp_macro *m,
	const pp_tok *name, pp_args *a, pp_tok *rp)
{
	size_t cap = 0, nstart = 0, base = in->i;
	int depth = 0, ws = 0;
	int inplace = in->st.n == 0 && !in->lexer;	/* all from in->v */
	grow(&a->start, &cap, 1, sizeof *a->start);
	a->start[nstart++] = 0;
	for (;;) {
		pp_tok t;
		in_next(c, in, &t);
		if (t.kind == TK_EOF || c->stop) {
			pp_error(c, name, "pp-unterminated-call",
				"unterminated argument list invoking macro \"%s\"",
				m->name->name);
			return 0;
		}
		if (t.kind == TK_NL) {
			ws = 1;
			continue;
		}
		if (is_op(&t, '#') && (t.flags & TF_BOL) && (t.flags & TF_SRC)) {
			/* C99 6.10.3p11: undefined; done in place, as GCC does */
			c->in_args++;
			handle_directive(c, &t);
			c->in_args--;
			if (name->sym->macro != m) {
				/* M itself was redefined or removed (and freed) */
				pp_error(c, name, "pp-args-redefine", "macro \"%.*s\" "
					"redefined or undefined in its own arguments",
					name->len, name->s);
				return 0;
			}
			ws = 1;
			continue;
		}
		if (ws)
			t.flags |= TF_WS;
		ws = 0;
		if (!inplace)
			tv_push(&a->raw, &t);
		size_t end = inplace ? in->i - base : a->raw.n;
		if (is_op(&t, '('))
			depth++;
		else if (is_op(&t, ')') && depth-- == 0) {
			*rp = t;
			grow(&a->start, &cap, nstart + 2, sizeof *a->start);
			a->start[nstart] = end;
			break;
		} else if (is_op(&t, ',') && depth == 0 &&
		    !(m->variadic && (int)nstart >= m->nparams)) {
			grow(&a->start, &cap, nstart + 1, sizeof *a->start);
			a->start[nstart++] = end;
		}
	}
	a->v = inplace ? in->v + base : a->raw.v;
	int n = (int)nstart;
	if (m->nparams == 0 && n == 1 && a->start[1] == 1)
		n = 0;
	if (n < m->nparams && m->variadic && n == m->nparams - 1) {
		/* the variadic part, empty */
		a->start[nstart + 1] = a->start[nstart] + 1;
		a->va_omitted = 1;
		n++;
	}
	if (n != m->nparams) {
		if (n < m->nparams)
			pp_error(c, name, "pp-macro-args",
				"macro \"%s\" requires %d arguments, but only %d given",
				m->name->name, m->nparams, n);
		else
			pp_error(c, name, "pp-macro-args",
				"macro \"%s\" passed %d arguments, but takes just %d",
				m->name->name, n, m->nparams);
		return 0;
	}
	a->n = n;
	a->exp = xcalloc((size_t)n + 1, sizeof *a->exp);
	a->done = xcalloc((size_t)n + 1, 1);
	return 1;
}

/* C99 6.10.3.1: an argument, completely macro replaced as if it formed
 * the rest of the file. */
static const pp_tokvec *arg_expanded(pp_ctx *c, pp_args *a, int i, int ifmode)
{
	if (a->done[i] || c->drop)
		return &a->exp[i];
	a->done[i] = 1;
	size_t n;
	const pp_tok *v = arg_raw(a, i, &n);
	if (c->expand_depth >= PP_MAX_EXPAND) {
		if (n > 0) {
			pp_error(c, v, "pp-expansion-too-deep",
				"macro calls nested more than %d deep in macro arguments",
				PP_MAX_EXPAND);
			c->drop = 1;
		}
		return &a->exp[i];
	}
	pp_in sub = {{0}, v, n, 0, 0, ifmode};
	c->expand_depth++;
	for (;;) {
		pp_tok t;
		expand_next(c, &sub, &t);
		if (t.kind == TK_EOF || c->drop)
			break;
		tv_push(&a->exp[i], &t);
	}
	c->expand_depth--;
	tv_free(&sub.st);
	return &a->exp[i];
}

/* Appends a copy of token T to R; at the place of AT when given. */
static void put_copy(pp_tokvec *r, const pp_tok *t, const pp_tok *at)
{
	pp_tok u = *t;
	u.flags &= (unsigned char)~(TF_SRC | TF_BOL | TF_SYNC);
	if (at) {
		u.file = at->file;
		u.line = at->line;
		u.col = at->col;
	}
	tv_push(r, &u);
}

/* Appends the N tokens V (an argument) where parameter token P stood:
 * the first takes P's spacing (when P is given); an empty argument is a
 * placemarker when PLACEMARKER is set. */
static void put_arg(pp_tokvec *r, const pp_tok *v, size_t n, const pp_tok *p,
	int placemarker)
{
	if (n == 0) {
		if (placemarker) {
			pp_tok u = *p;
			u.kind = TK_PLACEMARKER;
			u.len = 0;
			tv_push(r, &u);
		}
		return;
	}
	for (size_t k = 0; k < n; k++) {
		put_copy(r, &v[k], NULL);
		if (k == 0 && p) {
			pp_tok *u = &r->v[r->n - 1];
			u->flags = (unsigned char)((u->flags & ~(TF_WS | TF_PURE)) |
				(p->flags & (TF_WS | TF_PURE)));
			u->ws = p->ws;
			u->wslen = p->wslen;
		}
	}
}

/* C99 6.10.3.2: the # operator. */
static pp_tok stringize(pp_ctx *c, const pp_tok *v, size_t n, const pp_tok *at)
{
	strbuf b = {0};
	sb_putc(&b, '"');
	for (size_t k = 0; k < n; k++) {
		const pp_tok *t = &v[k];
		if (k > 0 && (t->flags & TF_WS))
			sb_putc(&b, ' ');
		if (t->kind == TK_STRING || t->kind == TK_CHAR) {
			for (int i = 0; i < t->len; i++) {
				if (t->s[i] == '"' || t->s[i] == '\\')
					sb_putc(&b, '\\');
				sb_putc(&b, t->s[i]);
			}
		} else
			sb_putn(&b, t->s, (size_t)t->len);
	}
	sb_putc(&b, '"');
	pp_tok t = make_tok(c, at, TK_STRING, b.s, b.len);
	sb_free(&b);
	return t;
}

/* C99 6.10.3.3: the ## operator; pastes R onto the last token of OUT. */
static void paste(pp_ctx *c, pp_tokvec *out, const pp_tok *r)
{
	pp_tok *l = &out->v[out->n - 1];
	if (r->kind == TK_PLACEMARKER)
		return;
	if (l->kind == TK_PLACEMARKER) {
		pp_tok u = *r;
		u.flags = (unsigned char)((u.flags & ~(TF_WS | TF_PURE | TF_SRC |
			TF_BOL | TF_SYNC)) |
			(l->flags & (TF_WS | TF_PURE)));
		u.ws = l->ws;
		u.wslen = l->wslen;
		*l = u;
		return;
	}
	strbuf b = {0};
	sb_putn(&b, l->s, (size_t)l->len);
	sb_putn(&b, r->s, (size_t)r->len);
	int len;
	unsigned short op;
	int kind = scan_token(b.s, &len, &op);
	if ((size_t)len != b.len || kind == TK_BADQUOTE) {
		pp_error(c, l, "pp-invalid-paste", "pasting \"%.*s\" and \"%.*s\" "
			"does not give a valid preprocessing token",
			l->len, l->s, r->len, r->s);
		put_copy(out, r, l);
		out->v[out->n - 1].flags |= TF_WS;
		sb_free(&b);
		return;
	}
	l->s = pp_strndup(c, b.s, b.len);
	l->len = len;
	l->kind = (unsigned char)kind;
	l->op = op;
	l->sym = kind == TK_IDENT ? intern(c, b.s, len) : NULL;
	sb_free(&b);
}

/* C99 6.10.3.1-3: the replacement list of M with its parameters
 * replaced, # and ## applied; placemarkers removed. */
static void subst(pp_ctx *c, const pp_macro *m, pp_args *a, int ifmode,
	const pp_tok *at, pp_tokvec *r)
{
	const pp_tok *b = m->body;
	for (int i = 0; i < m->nbody; i++) {
		const pp_tok *t = &b[i];
		int pasted = i + 1 < m->nbody && is_op(&b[i + 1], OP_PASTE);
		if (m->funclike && is_op(t, '#') && i + 1 < m->nbody &&
		    b[i + 1].kind == TK_PARAM) {
			size_t n;
			const pp_tok *v = arg_raw(a, b[++i].op, &n);
			pp_tok s = stringize(c, v, n, t);
			put_copy(r, &s, at);
			continue;
		}
		if (is_op(t, OP_PASTE) && r->n > 0 && i + 1 < m->nbody) {
			/* GCC: `a ## ## b` is one paste */
			while (i + 2 < m->nbody && is_op(&b[i + 1], OP_PASTE))
				i++;
			const pp_tok *u = &b[++i];
			if (u->kind == TK_PARAM) {
				size_t n;
				const pp_tok *v = arg_raw(a, u->op, &n);
				/* GCC: `, ## __VA_ARGS__` drops the comma when the
				 * variable arguments are left out (or empty, when
				 * they are all the arguments), else does not paste */
				if (m->variadic && u->op == m->nparams - 1 &&
				    is_op(&r->v[r->n - 1], ',')) {
					if (n == 0 && (a->va_omitted || m->nparams == 1))
						r->n--;
					else
						put_arg(r, v, n, u, 0);
					continue;
				}
				if (n == 0)
					continue;
				paste(c, r, &v[0]);
				put_arg(r, v + 1, n - 1, NULL, 0);
			} else if (m->funclike && is_op(u, '#') && i + 1 < m->nbody &&
			    b[i + 1].kind == TK_PARAM) {
				size_t n;
				const pp_tok *v = arg_raw(a, b[++i].op, &n);
				pp_tok s = stringize(c, v, n, u);
				paste(c, r, &s);
			} else {
				pp_tok s = *u;
				s.file = at->file;
				s.line = at->line;
				s.col = at->col;
				paste(c, r, &s);
			}
			continue;
		}
		if (t->kind == TK_PARAM) {
			if (pasted) {
				size_t n;
				const pp_tok *v = arg_raw(a, t->op, &n);
				put_arg(r, v, n, t, 1);
			} else {
				const pp_tokvec *e = arg_expanded(c, a, t->op, ifmode);
				put_arg(r, e->v, e->n, t, 0);
			}
			continue;
		}
		put_copy(r, t, at);
	}
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].kind != TK_PLACEMARKER)
			r->v[n++] = r->v[i];
	r->n = n;
}

/* Counts N more tokens made for one source token; 0 when past the limit,
 * after reporting it and dropping what IN holds. */
static int spend(pp_ctx *c, pp_in *in, const pp_tok *at, size_t n)
{
	c->budget += (long)n;
	if (c->budget <= PP_MAX_TOKENS)
		return 1;
	pp_error(c, at, "pp-expansion-too-big",
		"macro expansion exceeds %ld tokens", PP_MAX_TOKENS);
	in_drop(in);
	c->budget = 0;
	return 0;
}

/* The first token of an expansion is where the macro's name was. */
static void take_place(pp_tok *t, const pp_tok *name)
{
	t->flags = (unsigned char)((t->flags & ~(TF_WS | TF_PURE)) |
		(name->flags & (TF_WS | TF_PURE | TF_SYNC)));
	t->ws = name->ws;
	t->wslen = name->wslen;
}

/* An object-like macro with no ##: its replacement list, straight onto
 * IN, hidden from itself (the common case, made fast). */
static void expand_object(pp_ctx *c, pp_in *in, const pp_macro *m,
	const pp_tok *name)
{
	if (!spend(c, in, name, (size_t)m->nbody))
		return;
	pp_hs *hs = name->hs ? hs_union(c, name->hs, m->self) : m->self;
	grow(&in->st.v, &in->st.cap, in->st.n + (size_t)m->nbody,
		sizeof *in->st.v);
	for (int i = m->nbody; i-- > 0;) {
		pp_tok *t = &in->st.v[in->st.n++];
		*t = m->body[i];
		t->file = name->file;
		t->line = name->line;
		t->col = name->col;
		t->hs = hs;
		if (i == 0)
			take_place(t, name);
	}
}

/* Expands macro M called at NAME, pushing the result back onto IN.
 * Returns 0 when NAME is left as it is: a function-like macro not followed
 * by '(', or a call with an error. */
static int expand_macro(pp_ctx *c, pp_in *in, pp_macro *m, const pp_tok *name)
{
	pp_tokvec r = {0};
	pp_hs *hs;
	if (m->builtin) {
		pp_tok t = builtin_value(c, m, name);
		in_push(in, &t, 1);
		return 1;
	}
	if (!m->self)
		m->self = hs_cons(c, m->name, NULL);
	if (!m->funclike && !m->pastes) {
		expand_object(c, in, m, name);
		return 1;
	}
	if (!m->funclike) {
		hs = hs_union(c, name->hs, m->self);
		subst(c, m, NULL, in->ifmode, name, &r);
	} else {
		/* C99 6.10.3p10: the name must be followed by '(', maybe on
		 * a later line but not past a directive */
		pp_tokvec nls = {0};
		pp_tok t;
		for (;;) {
			in_next(c, in, &t);
			if (t.kind != TK_NL)
				break;
			tv_push(&nls, &t);
		}
		if (!is_op(&t, '(')) {
			in_push(in, &t, 1);
			in_push(in, nls.v, nls.n);
			tv_free(&nls);
			return 0;
		}
		tv_free(&nls);
		pp_args a = {0};
		pp_tok rp;
		if (!collect_args(c, in, m, name, &a, &rp)) {
			args_free(&a);
			return 0;
		}
		hs = hs_union(c, hs_inter(c, name->hs, rp.hs), m->self);
		subst(c, m, &a, in->ifmode, name, &r);
		args_free(&a);
	}
	/* C99 6.10.3.4p2: the macro's name is hidden in what it made */
	pp_hs *last_in = NULL, *last_out = hs;
	for (size_t i = 0; i < r.n; i++) {
		pp_tok *t = &r.v[i];
		if (t->hs != last_in) {
			last_in = t->hs;
			last_out = hs_union(c, t->hs, hs);
		}
		t->hs = last_out;
		if (i == 0)
			take_place(t, name);
	}
	if (!c->drop && spend(c, in, name, r.n))
		in_push(in, r.v, r.n);
	tv_free(&r);
	return 1;
}

/* C99 6.10.1p1: defined NAME, defined ( NAME ), read after `defined`. */
static void eval_defined(pp_ctx *c, pp_in *in, pp_tok *t)
{
	pp_tok n, at = *t;
	int paren = 0, val = 0;
	in_next(c, in, &n);
	if (is_op(&n, '(')) {
		paren = 1;
		in_next(c, in, &n);
	}
	if (n.kind != TK_IDENT) {
		if (!c->if_bad)
			pp_error(c, &at, "pp-if-syntax", "Unsupported #if syntax: "
				"operator \"defined\" requires an identifier");
		c->if_bad = 1;
		if (n.kind != TK_EOF)
			in_push(in, &n, 1);
	} else {
		val = n.sym->macro != NULL;
		if (paren) {
			pp_tok cl;
			in_next(c, in, &cl);
			if (!is_op(&cl, ')')) {
				if (!c->if_bad)
					pp_error(c, &at, "pp-if-syntax",
						"Unsupported #if syntax: missing ')' "
						"after \"defined\"");
				c->if_bad = 1;
				if (cl.kind != TK_EOF)
					in_push(in, &cl, 1);
			}
		}
	}
	*t = make_tok(c, &at, TK_NUMBER, val ? "1" : "0", 1);
}

/* The next token of IN with macros expanded (C99 6.10.3.4: rescanning);
 * NL and EOF included. */
static void expand_next(pp_ctx *c, pp_in *in, pp_tok *t)
{
	for (;;) {
		in_next(c, in, t);
		if (t->kind != TK_IDENT)
			return;
		if (in->ifmode && t->sym == c->s_defined) {
			eval_defined(c, in, t);
			return;
		}
		pp_macro *m = t->sym->macro;
		if (!m || hs_has(t->hs, t->sym) || c->stop)
			return;
		if (!expand_macro(c, in, m, t))
			return;
		if (c->drop) {
			in_drop(in);
			if (in->lexer)		/* back at the source text */
				c->drop = 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* #if expressions: C99 6.10.1, evaluated in intmax_t and uintmax_t
 * (6.10.1p3) with the usual arithmetic conversions between the two. */

typedef struct pp_val {
	uintmax_t v;		/* the bits; signed values in two's complement */
	int uns;
} pp_val;

typedef struct pp_expr {
	pp_ctx *c;
	const pp_tok *v;
	size_t n, i;
	int depth;
	const pp_tok *dir;	/* the directive, for messages at the end */
} pp_expr;

static pp_val ex_comma(pp_expr *e, int ev);

static int ex_failed(const pp_expr *e)
{
	return e->c->if_bad;
}

/* Reports a malformed expression once; evaluation then unwinds. */
static pp_val ex_fail(pp_expr *e, const char *what)
{
	pp_val z = {0, 0};
	if (!e->c->if_bad) {
		const pp_tok *at = e->i < e->n ? &e->v[e->i] : e->dir;
		if (e->i < e->n)
			pp_error(e->c, at, "pp-if-syntax",
				"Unsupported #if syntax: %s before \"%.*s\"", what,
				at->len, at->s);
		else
			pp_error(e->c, at, "pp-if-syntax",
				"Unsupported #if syntax: %s at end of line", what);
	}
	e->c->if_bad = 1;
	e->i = e->n;
	return z;
}

static intmax_t sval(pp_val a)
{
	return a.v <= INTMAX_MAX ? (intmax_t)a.v :
		-(intmax_t)(~a.v) - 1;
}

static void ex_overflow(pp_expr *e, int ev)
{
	if (ev)
		pp_warning(e->c, e->dir, "pp-if-overflow",
			"integer overflow in preprocessor expression");
}

/* C99 6.4.4.1: an integer constant, with GCC's 0b extension. */
static pp_val ex_number(pp_expr *e, const pp_tok *t)
{
	pp_val r = {0, 0};
	const char *s = t->s, *end = t->s + t->len;
	int base = 10, overflow = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
		base = 2;
		s += 2;
	} else if (s[0] == '0')
		base = 8;
	for (const char *p = t->s; p < end; p++)
		if (*p == '.' || ((*p == 'e' || *p == 'E') && base != 16) ||
		    ((*p == 'p' || *p == 'P') && base == 16)) {
			if (!e->c->if_bad)
				pp_error(e->c, t, "pp-if-syntax", "Unsupported #if "
					"syntax: floating constant \"%.*s\"", t->len, t->s);
			e->c->if_bad = 1;
			return r;
		}
	const char *digits = s;
	for (; s < end; s++) {
		int d = is_digit(*s) ? *s - '0' : (*s >= 'a' && *s <= 'f') ?
			*s - 'a' + 10 : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10 : 99;
		if (d >= base && (d >= 10 || base == 16 || base == 2))
			break;
		if (d >= base) {
			if (!e->c->if_bad)
				pp_error(e->c, t, "pp-if-syntax", "Unsupported #if "
					"syntax: invalid digit \"%c\" in \"%.*s\"", *s,
					t->len, t->s);
			e->c->if_bad = 1;
			return r;
		}
		if (r.v > (UINTMAX_MAX - (uintmax_t)d) / (uintmax_t)base)
			overflow = 1;
		r.v = r.v * (uintmax_t)base + (uintmax_t)d;
	}
	/* suffix: u, l, ll in either order, either case (not lL) */
	int u = 0, l = 0;
	const char *sfx = s;
	while (s < end) {
		if ((*s == 'u' || *s == 'U') && !u) {
			u = 1;
			s++;
		} else if ((*s == 'l' || *s == 'L') && !l) {
			l = 1;
			s += s + 1 < end && s[1] == s[0] ? 2 : 1;
		} else
			break;
	}
	if (s < end || digits == sfx) {
		if (!e->c->if_bad)
			pp_error(e->c, t, "pp-if-syntax", "Unsupported #if "
				"syntax: invalid integer constant \"%.*s\"",
				t->len, t->s);
		e->c->if_bad = 1;
		return r;
	}
	r.uns = u;
	if (overflow)
		pp_warning(e->c, t, "pp-int-range",
			"integer constant \"%.*s\" is too large for its type",
			t->len, t->s);
	else if (!u && r.v > INTMAX_MAX && base == 10)
		pp_warning(e->c, t, "pp-int-range",
			"integer constant \"%.*s\" is so large that it is unsigned",
			t->len, t->s);
	if (r.v > INTMAX_MAX)
		r.uns = 1;
	return r;
}

/* C99 6.4.4.4: a character constant; a plain char is signed, as in GCC
 * on the usual targets; several chars make an int, first char highest. */
static pp_val ex_char(pp_expr *e, const pp_tok *t)
{
	pp_val r = {0, 0};
	const unsigned char *p = (const unsigned char *)t->s;
	int wide = *p != '\'';
	while (*p != '\'')
		p++;
	p++;
	uintmax_t acc = 0, last = 0;
	int n = 0;
	while (*p != '\'') {
		uintmax_t ch;
		if (*p != '\\')
			ch = *p++;
		else {
			p++;
			const char *esc = strchr("abfnrtve", *p);
			static const char val[] = "\a\b\f\n\r\t\v\033";
			if (*p == 'x') {
				ch = 0;
				for (p++; is_digit(*p) || (*p >= 'a' && *p <= 'f') ||
				    (*p >= 'A' && *p <= 'F'); p++)
					ch = ch * 16 + (uintmax_t)(is_digit(*p) ? *p - '0' :
						(*p | 0x20) - 'a' + 10);
			} else if (*p >= '0' && *p <= '7') {
				ch = 0;
				for (int k = 0; k < 3 && *p >= '0' && *p <= '7'; k++)
					ch = ch * 8 + (uintmax_t)(*p++ - '0');
			} else if (*p && esc) {
				ch = (unsigned char)val[esc - "abfnrtve"];
				p++;
			} else
				ch = *p++;
		}
		last = ch;
		acc = (acc << 8) | (ch & 0xff);
		n++;
	}
	if (n == 0) {
		if (!e->c->if_bad)
			pp_error(e->c, t, "pp-if-syntax",
				"Unsupported #if syntax: empty character constant");
		e->c->if_bad = 1;
		return r;
	}
	if (wide) {
		r.v = (uint32_t)last;
		if (t->s[0] == 'L')
			r.v = (uintmax_t)(intmax_t)(int32_t)(uint32_t)last;
	} else if (n == 1)
		r.v = (uintmax_t)(intmax_t)(signed char)(unsigned char)acc;
	else
		r.v = (uintmax_t)(intmax_t)(int32_t)(uint32_t)acc;
	return r;
}

/* primary = number | character-constant | identifier | "(" expr ")" */
static pp_val ex_primary(pp_expr *e, int ev)
{
	pp_val z = {0, 0};
	if (e->i >= e->n)
		return ex_fail(e, "expected a value");
	const pp_tok *t = &e->v[e->i];
	switch (t->kind) {
	case TK_NUMBER:
		e->i++;
		return ex_number(e, t);
	case TK_CHAR:
		e->i++;
		return ex_char(e, t);
	case TK_IDENT:		/* C99 6.10.1p3: any identifier left is 0 */
		e->i++;
		return z;
	default:
		break;
	}
	if (is_op(t, '(')) {
		e->i++;
		pp_val v = ex_comma(e, ev);
		if (ex_failed(e))
			return z;
		if (e->i >= e->n || !is_op(&e->v[e->i], ')'))
			return ex_fail(e, "expected ')'");
		e->i++;
		return v;
	}
	return ex_fail(e, "expected a value");
}

/* unary = ("+" | "-" | "~" | "!") unary | primary */
static pp_val ex_unary(pp_expr *e, int ev)
{
	pp_val z = {0, 0};
	if (++e->depth > PP_MAX_EXPR) {
		if (!e->c->if_bad)
			pp_error(e->c, e->dir, "pp-if-too-deep",
				"#if expression nested more than %d deep", PP_MAX_EXPR);
		e->c->if_bad = 1;
		e->i = e->n;
		return z;
	}
	pp_val r;
	const pp_tok *t = e->i < e->n ? &e->v[e->i] : NULL;
	if (t && t->kind == TK_PUNCT && strchr("+-~!", t->op) && t->op) {
		e->i++;
		r = ex_unary(e, ev);
		switch (t->op) {
		case '-':
			if (!r.uns && r.v == (uintmax_t)INTMAX_MAX + 1)
				ex_overflow(e, ev);
			r.v = 0 - r.v;
			break;
		case '~':
			r.v = ~r.v;
			break;
		case '!':
			r.v = r.v == 0;
			r.uns = 0;
			break;
		}
	} else
		r = ex_primary(e, ev);
	e->depth--;
	return r;
}

static int binprec(const pp_tok *t)
{
	if (t->kind != TK_PUNCT)
		return 0;
	switch (t->op) {
	case OP_LOR: return 1;
	case OP_LAND: return 2;
	case '|': return 3;
	case '^': return 4;
	case '&': return 5;
	case OP_EQ: case OP_NE: return 6;
	case '<': case '>': case OP_LE: case OP_GE: return 7;
	case OP_SHL: case OP_SHR: return 8;
	case '+': case '-': return 9;
	case '*': case '/': case '%': return 10;
	default: return 0;
	}
}

/* GCC's shifts: a negative count shifts the other way; a count of the
 * width or more leaves 0 (or -1, shifting a negative value right). */
static uintmax_t ex_shift(pp_val a, pp_val b, int left)
{
	uintmax_t n = b.v;
	if (!b.uns && sval(b) < 0) {
		left = !left;
		n = 0 - b.v;
	}
	int neg = !a.uns && sval(a) < 0;
	int w = (int)(sizeof(uintmax_t) * CHAR_BIT);
	if (n >= (uintmax_t)w)
		return left || !neg ? 0 : ~(uintmax_t)0;
	if (left)
		return a.v << n;
	return neg ? ~(~a.v >> n) : a.v >> n;
}

/* Applies binary operator OP (not && or ||) to A and B. */
static pp_val ex_apply(pp_expr *e, const pp_tok *op, pp_val a, pp_val b, int ev)
{
	pp_val r = {0, a.uns || b.uns};
	intmax_t x = sval(a), y = sval(b);
	switch (op->op) {
	case '*':
		r.v = a.v * b.v;
		if (!r.uns && x != 0 && ((x == -1 && y == INTMAX_MIN) ||
		    (y == -1 && x == INTMAX_MIN) ||
		    (y != -1 && sval(r) / x != y)))
			ex_overflow(e, ev);
		break;
	case '/':
	case '%':
		if (b.v == 0) {
			if (ev)
				pp_error(e->c, op, "pp-div-zero",
					"division by zero in #if");
			if (ev)
				e->c->if_bad = 1;
			break;
		}
		if (r.uns)
			r.v = op->op == '/' ? a.v / b.v : a.v % b.v;
		else if (x == INTMAX_MIN && y == -1) {
			if (op->op == '/')
				ex_overflow(e, ev);
			r.v = op->op == '/' ? a.v : 0;
		} else
			r.v = (uintmax_t)(op->op == '/' ? x / y : x % y);
		break;
	case '+':
	case '-':
		r.v = op->op == '+' ? a.v + b.v : a.v - b.v;
		if (!r.uns) {
			int sa = x < 0, sb = (op->op == '+' ? y < 0 : !(y < 0)),
				sr = sval(r) < 0;
			if (sa == sb && sr != sa && !(op->op == '-' && y == 0))
				ex_overflow(e, ev);
		}
		break;
	case OP_SHL:
	case OP_SHR:
		r.uns = a.uns;
		r.v = ex_shift(a, b, op->op == OP_SHL);
		break;
	case '<': case '>': case OP_LE: case OP_GE: {
		int lt = r.uns ? a.v < b.v : x < y;
		int gt = r.uns ? a.v > b.v : x > y;
		r.v = (uintmax_t)(op->op == '<' ? lt : op->op == '>' ? gt :
			op->op == OP_LE ? !gt : !lt);
		r.uns = 0;
		break;
	}
	case OP_EQ:
	case OP_NE:
		r.v = (a.v == b.v) == (op->op == OP_EQ);
		r.uns = 0;
		break;
	case '&': r.v = a.v & b.v; break;
	case '^': r.v = a.v ^ b.v; break;
	case '|': r.v = a.v | b.v; break;
	}
	return r;
}

/* binary = unary { binary-operator unary }, by precedence climbing;
 * && and || evaluate their right side only when it decides (6.5.13-14). */
static pp_val ex_binary(pp_expr *e, int minprec, int ev)
{
	pp_val a = ex_unary(e, ev);
	while (!ex_failed(e) && e->i < e->n) {
		const pp_tok *op = &e->v[e->i];
		int prec = binprec(op);
		if (prec == 0 || prec < minprec)
			break;
		e->i++;
		if (op->op == OP_LAND || op->op == OP_LOR) {
			int land = op->op == OP_LAND;
			int decided = land ? a.v == 0 : a.v != 0;
			pp_val b = ex_binary(e, prec + 1, ev && !decided);
			a.v = land ? a.v != 0 && b.v != 0 : a.v != 0 || b.v != 0;
			a.uns = 0;
		} else {
			pp_val b = ex_binary(e, prec + 1, ev);
			a = ex_apply(e, op, a, b, ev);
		}
	}
	return a;
}

/* conditional = binary [ "?" expr ":" conditional ] */
static pp_val ex_cond(pp_expr *e, int ev)
{
	pp_val a = ex_binary(e, 1, ev);
	if (ex_failed(e) || e->i >= e->n || !is_op(&e->v[e->i], '?'))
		return a;
	e->i++;
	e->depth++;
	pp_val b = ex_comma(e, ev && a.v != 0);
	if (ex_failed(e))
		return a;
	if (e->i >= e->n || !is_op(&e->v[e->i], ':'))
		return ex_fail(e, "expected ':'");
	e->i++;
	pp_val d = ex_cond(e, ev && a.v == 0);
	e->depth--;
	pp_val r = a.v != 0 ? b : d;
	r.uns = b.uns || d.uns;
	return r;
}

/* expr = conditional { "," conditional } */
static pp_val ex_comma(pp_expr *e, int ev)
{
	if (++e->depth > PP_MAX_EXPR)
		return ex_unary(e, ev);	/* reports the depth */
	pp_val a = ex_cond(e, ev);
	while (!ex_failed(e) && e->i < e->n && is_op(&e->v[e->i], ',')) {
		e->i++;
		a = ex_cond(e, ev);
	}
	e->depth--;
	return a;
}

/* ------------------------------------------------------------------ */
/* Directives: C99 6.10 */

static void skip_line(pp_ctx *c)
{
	pp_tok t;
	do
		lex_next(c, c->lex, &t);
	while (t.kind != TK_NL && t.kind != TK_EOF);
}

/* The rest of the directive's line, NL read. */
static void read_line(pp_ctx *c, pp_tokvec *v)
{
	for (;;) {
		pp_tok t;
		lex_next(c, c->lex, &t);
		if (t.kind == TK_NL || t.kind == TK_EOF)
			return;
		tv_push(v, &t);
	}
}

/* V macro-expanded into R, alone (#if, #include and #line operands).
 * Returns 0 when an expansion failed and R lacks what it made. */
static int expand_all(pp_ctx *c, const pp_tokvec *v, int ifmode, pp_tokvec *r)
{
	pp_in in = {{0}, v->v, v->n, 0, 0, ifmode};
	for (;;) {
		pp_tok t;
		expand_next(c, &in, &t);
		if (t.kind == TK_EOF)
			break;
		tv_push(r, &t);
	}
	tv_free(&in.st);
	int ok = !c->drop;
	c->drop = 0;
	return ok;
}

/* The tokens V as text, with their spacing. */
static void spell(strbuf *b, const pp_tok *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		if (k > 0 && (v[k].flags & TF_WS)) {
			if (v[k].flags & TF_PURE)
				sb_putn(b, v[k].ws, (size_t)v[k].wslen);
			else
				sb_putc(b, ' ');
		}
		sb_putn(b, v[k].s, (size_t)v[k].len);
	}
}

/* spec 7: "Unexpected token following preprocessor directive (#undef
 * "TOKEN") -- expected a new line"; a warning, as in GCC. */
static void check_eol(pp_ctx *c, const char *dir, const pp_tok *operand)
{
	pp_tok t;
	lex_next(c, c->lex, &t);
	if (t.kind == TK_NL || t.kind == TK_EOF)
		return;
	if (operand)
		pp_warning(c, &t, "pp-extra-tokens", "Unexpected token following "
			"preprocessor directive (#%s \"%.*s\") -- expected a new line",
			dir, operand->len, operand->s);
	else
		pp_warning(c, &t, "pp-extra-tokens", "Unexpected token following "
			"preprocessor directive (#%s) -- expected a new line", dir);
	skip_line(c);
}

static void macro_free(pp_macro *m)
{
	if (!m)
		return;
	free(m->body);
	free(m->params);
	free(m);
}

/* A definition replaced by #define or #undef stays allocated to the end
 * of the run: a macro call whose arguments hold the directive still uses
 * it (and its address is not reused by a new definition). */
static void macro_retire(pp_ctx *c, pp_macro *m)
{
	if (!m)
		return;
	m->retired = c->retired;
	c->retired = m;
}

/* C99 6.10.3p2: the same kind, parameters and replacement list, with
 * white space between the same tokens. */
static int macro_same(const pp_macro *a, const pp_macro *b)
{
	if (a->builtin || b->builtin || a->funclike != b->funclike ||
	    a->variadic != b->variadic || a->nparams != b->nparams ||
	    a->nbody != b->nbody)
		return 0;
	for (int i = 0; i < a->nparams; i++)
		if (a->params[i] != b->params[i])
			return 0;
	for (int i = 0; i < a->nbody; i++) {
		const pp_tok *x = &a->body[i], *y = &b->body[i];
		if (x->kind != y->kind || x->len != y->len || x->op != y->op ||
		    memcmp(x->s, y->s, (size_t)x->len) != 0 ||
		    (i > 0 && (x->flags & TF_WS) != (y->flags & TF_WS)))
			return 0;
	}
	return 1;
}

/* Makes M the definition of its name. Guide 1.15 and spec 7: a different
 * redefinition warns "Macro redefinition", and the later one holds. */
static void macro_install(pp_ctx *c, pp_macro *m)
{
	pp_macro *old = m->name->macro;
	if (old && !macro_same(old, m)) {
		/* the note goes with the warning: not when -w dropped it */
		int shown = c->d->nwarnings + c->d->nerrors;
		pp_msg_at(c, DIAG_WARNING, m->file, m->line, m->col,
			"pp-macro-redefined", "\"%s\": Macro redefinition",
			m->name->name);
		if (c->d->nwarnings + c->d->nerrors > shown)
			pp_msg_at(c, DIAG_NOTE, old->file, old->line, old->col,
				"pp-macro-redefined", "See previous definition of "
				"\"%s\" and latest one considered as macro",
				m->name->name);
	}
	macro_retire(c, old);
	m->name->macro = m;
}

/* The name operand of #define, #undef, #ifdef and #ifndef in *T; 0 after
 * reporting that there is none or that it is no identifier. */
static int macro_name(pp_ctx *c, const char *dir, const pp_tok *hash, pp_tok *t)
{
	lex_next(c, c->lex, t);
	if (t->kind == TK_NL || t->kind == TK_EOF) {
		/* spec 7: "Expecting token after '#define'" */
		pp_error(c, hash, dir[0] == 'd' ? "pp-define-missing" :
			dir[0] == 'u' ? "pp-undef-missing" : "pp-ifdef-missing",
			"Expecting token after '#%s'", dir);
		return 0;
	}
	if (t->kind != TK_IDENT)
		pp_error(c, t, "pp-macro-name", "Unsupported preprocessor "
			"directive syntax: macro names must be identifiers, not "
			"\"%.*s\"", t->len, t->s);
	else if (t->sym == c->s_defined && dir[0] != 'i')
		pp_error(c, t, "pp-macro-name",	/* C99 6.10.8p4 */
			"\"defined\" cannot be used as a macro name");
	else
		return 1;
	skip_line(c);
	return 0;
}

/* #define's parameter list, after its '(':
 *   params = ")" | "..." ")" | ident { "," ident } [ "," "..." | "..." ] ")"
 * Returns 0 after reporting an error. */
static int define_params(pp_ctx *c, pp_macro *m)
{
	size_t cap = 0;
	for (;;) {
		pp_tok p;
		lex_next(c, c->lex, &p);
		if (m->nparams == 0 && is_op(&p, ')'))
			return 1;
		if (is_op(&p, OP_ELLIPSIS) || p.kind == TK_IDENT) {
			pp_sym *y = p.kind == TK_IDENT ? p.sym : c->s_va_args;
			if (p.kind == TK_IDENT && y == c->s_va_args) {
				pp_error(c, &p, "pp-define-syntax", "Unsupported "
					"preprocessor directive syntax: __VA_ARGS__ can "
					"only appear in the expansion of a variadic macro");
				skip_line(c);
				return 0;
			}
			for (int i = 0; i < m->nparams; i++)
				if (m->params[i] == y) {
					pp_error(c, &p, "pp-define-syntax", "Unsupported "
						"preprocessor directive syntax: duplicate "
						"macro parameter \"%s\"", y->name);
					skip_line(c);
					return 0;
				}
			grow(&m->params, &cap, (size_t)m->nparams + 1,
				sizeof *m->params);
			m->params[m->nparams++] = y;
			if (p.kind != TK_IDENT)
				m->variadic = 1;
			lex_next(c, c->lex, &p);
			if (!m->variadic && is_op(&p, OP_ELLIPSIS)) {
				m->variadic = 1;	/* GCC: NAME... */
				lex_next(c, c->lex, &p);
			}
			if (is_op(&p, ')'))
				return 1;
			if (is_op(&p, ',') && !m->variadic)
				continue;
		}
		if (p.kind == TK_NL || p.kind == TK_EOF)
			pp_error(c, &p, "pp-define-syntax", "Unsupported preprocessor "
				"directive syntax: missing ')' in macro parameter list");
		else
			pp_error(c, &p, "pp-define-syntax", "Unsupported preprocessor "
				"directive syntax: \"%.*s\" in macro parameter list",
				p.len, p.s);
		if (p.kind != TK_NL && p.kind != TK_EOF)
			skip_line(c);
		return 0;
	}
}

/* Checks C99 6.10.3.2p1 and 6.10.3.3p1 on a replacement list. */
static int define_check(pp_ctx *c, const pp_macro *m)
{
	const pp_tok *b = m->body;
	int n = m->nbody;
	if (n > 0 && (is_op(&b[0], OP_PASTE) || is_op(&b[n - 1], OP_PASTE))) {
		pp_error(c, is_op(&b[0], OP_PASTE) ? &b[0] : &b[n - 1],
			"pp-define-syntax", "Unsupported preprocessor directive "
			"syntax: '##' cannot appear at either end of a macro expansion");
		return 0;
	}
	for (int i = 0; m->funclike && i < n; i++)
		if (is_op(&b[i], '#') && (i + 1 == n || b[i + 1].kind != TK_PARAM)) {
			pp_error(c, &b[i], "pp-define-syntax", "Unsupported "
				"preprocessor directive syntax: '#' is not followed by "
				"a macro parameter");
			return 0;
		}
	return 1;
}

/* define = "#define" ident [ "(" params ] replacement-list newline
 * (C99 6.10.3; guide 1.15.1, one line, or several joined by '\'). */
static void do_define(pp_ctx *c, const pp_tok *hash)
{
	pp_tok t, u;
	if (!macro_name(c, "define", hash, &t))
		return;
	pp_macro *m = xcalloc(1, sizeof *m);
	m->name = t.sym;
	m->file = t.file;
	m->line = t.line;
	m->col = t.col;
	lex_next(c, c->lex, &u);
	if (is_op(&u, '(') && !(u.flags & TF_WS)) {
		m->funclike = 1;
		if (!define_params(c, m)) {
			macro_free(m);
			return;
		}
		lex_next(c, c->lex, &u);
	} else if (u.kind != TK_NL && u.kind != TK_EOF && !(u.flags & TF_WS))
		pp_warning(c, &u, "pp-define-whitespace", "missing white space "
			"after the macro name \"%s\"", m->name->name);	/* 6.10.3p3 */
	pp_tokvec body = {0};
	for (; u.kind != TK_NL && u.kind != TK_EOF; lex_next(c, c->lex, &u)) {
		u.flags &= (unsigned char)~(TF_SRC | TF_BOL | TF_SYNC);
		if (body.n == 0) {
			u.flags &= (unsigned char)~(TF_WS | TF_PURE);
			u.wslen = 0;
		}
		if (u.kind == TK_IDENT) {
			int k = m->nparams;
			while (--k >= 0 && m->params[k] != u.sym)
				;
			if (m->funclike && k >= 0) {
				u.kind = TK_PARAM;
				u.op = (unsigned short)k;
			} else if (u.sym == c->s_va_args)
				pp_warning(c, &u, "pp-va-args", "__VA_ARGS__ can only "
					"appear in the expansion of a C99 variadic macro");
		}
		if (is_op(&u, OP_PASTE))
			m->pastes = 1;
		tv_push(&body, &u);
	}
	m->body = body.v;
	m->nbody = (int)body.n;
	if (!define_check(c, m)) {
		macro_free(m);
		return;
	}
	macro_install(c, m);
}

/* undef = "#undef" ident newline */
static void do_undef(pp_ctx *c, const pp_tok *hash)
{
	pp_tok t;
	if (!macro_name(c, "undef", hash, &t))
		return;
	macro_retire(c, t.sym->macro);
	t.sym->macro = NULL;
	check_eol(c, "undef", &t);
}

static void cond_push(pp_ctx *c, const pp_tok *at, int taken)
{
	grow(&c->conds, &c->capconds, c->nconds + 1, sizeof *c->conds);
	pp_cond *k = &c->conds[c->nconds++];
	k->file = at->file;
	k->line = at->line;
	k->col = at->col;
	k->taken = (unsigned char)taken;
	k->had_else = 0;
}

/* An #else or #elif of the outer conditional: the file is not guarded. */
static void mi_else(pp_ctx *c)
{
	if (c->lex->mi == MI_OPEN && c->nconds == c->lex->cond_base + 1)
		c->lex->mi = MI_NONE;
}

/* The value of an #if or #elif expression, the rest of the line. */
static int if_value(pp_ctx *c, const pp_tok *at)
{
	pp_tokvec line = {0}, ex = {0};
	read_line(c, &line);
	if (line.n == 0) {
		pp_error(c, at, "pp-if-syntax", "Unsupported #if syntax: #%.*s "
			"with no expression", at->len, at->s);
		return 0;
	}
	c->if_bad = !expand_all(c, &line, 1, &ex);
	pp_expr e = {c, ex.v, ex.n, 0, 0, at};
	pp_val v = {0, 0};
	if (!c->if_bad)
		v = ex_comma(&e, 1);
	if (!c->if_bad && e.i < e.n)
		ex_fail(&e, "missing binary operator");
	int r = !c->if_bad && v.v != 0;
	c->if_bad = 0;
	tv_free(&line);
	tv_free(&ex);
	return r;
}

/* Skips a group whose condition failed, up to the #elif, #else or #endif
 * that ends it (C99 6.10.1p6: skipped directives are only counted). Its
 * name is left in *AT; returns D_NONE at the end of the file. */
static int skip_group(pp_ctx *c, pp_tok *at)
{
	pp_lexer *l = c->lex;
	int depth = 0;
	l->quiet = 1;
	for (;;) {
		pp_tok t;
		lex_next(c, l, &t);
		if (t.kind == TK_EOF || c->stop)
			break;
		if (!is_op(&t, '#') || !(t.flags & TF_BOL))
			continue;
		lex_next(c, l, &t);
		if (t.kind != TK_IDENT)
			continue;
		int d = t.sym->dir;
		if (d == D_IF || d == D_IFDEF || d == D_IFNDEF)
			depth++;
		else if ((d == D_ELIF || d == D_ELSE || d == D_ENDIF) && depth == 0) {
			l->quiet = 0;
			*at = t;
			return d;
		} else if (d == D_ENDIF)
			depth--;
	}
	l->quiet = 0;
	return D_NONE;
}

/* The name of the directive d: #elif, #else or #endif. */
static const char *cond_name(int d)
{
	return d == D_ELIF ? "elif" : d == D_ELSE ? "else" : "endif";
}

/* What #elif, #else or #endif (d, met at `at`) does to the innermost
 * conditional, in a group that is skipped or one that was included:
 * #endif closes it (returns D_ENDIF), #else is noted (D_ELSE, its line
 * read); #elif or #else after #else is an error, its line skipped
 * (D_NONE); else D_ELIF, its line not yet read. */
static int cond_next(pp_ctx *c, const pp_tok *at, int d)
{
	pp_cond *k = &c->conds[c->nconds - 1];
	if (d == D_ENDIF) {
		check_eol(c, "endif", NULL);
		c->nconds--;
		return D_ENDIF;
	}
	mi_else(c);
	if (k->had_else) {
		pp_error(c, at, "pp-else-after-else", "#%s after #else",
			cond_name(d));
		skip_line(c);
		return D_NONE;
	}
	if (d == D_ELSE) {
		k->had_else = 1;
		check_eol(c, "else", NULL);
	}
	return d;
}

/* Skips groups of the innermost conditional until one is taken or it
 * ends. */
static void skip_groups(pp_ctx *c)
{
	for (;;) {
		pp_tok at;
		int d = skip_group(c, &at);
		if (d == D_NONE)
			return;
		d = cond_next(c, &at, d);
		if (d == D_ENDIF)
			return;
		if (d == D_NONE)
			continue;
		pp_cond *k = &c->conds[c->nconds - 1];
		if (d == D_ELSE) {
			if (!k->taken) {
				k->taken = 1;
				return;
			}
		} else if (k->taken)
			skip_line(c);
		else if (if_value(c, &at)) {
			k->taken = 1;
			return;
		}
	}
}

/* ifdef = ("#ifdef" | "#ifndef") ident newline */
static void do_ifdef(pp_ctx *c, const pp_tok *hash, const pp_tok *dir, int neg)
{
	pp_tok t;
	pp_lexer *l = c->lex;
	int val = 0, outer = c->nconds == l->cond_base;
	if (macro_name(c, neg ? "ifndef" : "ifdef", hash, &t)) {
		val = (t.sym->macro != NULL) != neg;
		check_eol(c, neg ? "ifndef" : "ifdef", &t);
		if (neg && outer && l->mi == MI_START) {
			l->mi = MI_OPEN;
			l->mi_guard = t.sym;
		}
	}
	cond_push(c, dir, val);
	if (!val)
		skip_groups(c);
}

static void do_if(pp_ctx *c, const pp_tok *dir)
{
	int val = if_value(c, dir);
	cond_push(c, dir, val);
	if (!val)
		skip_groups(c);
}

/* #elif, #else and #endif met in a group that was included. */
static void do_else(pp_ctx *c, const pp_tok *dir, int d)
{
	if (c->nconds <= c->lex->cond_base) {
		pp_error(c, dir, "pp-unmatched-conditional", "#%s without #if",
			cond_name(d));
		skip_line(c);
		return;
	}
	d = cond_next(c, dir, d);
	if (d == D_ENDIF)
		return;
	if (d == D_ELIF)
		skip_line(c);
	skip_groups(c);
}

static pp_lexer *push_file(pp_ctx *c, pp_file *f)
{
	pp_lexer *l = xmalloc(sizeof *l);
	lex_init(l, f);
	l->cond_base = c->nconds;
	grow(&c->stack, &c->capstack, c->depth + 1, sizeof *c->stack);
	c->stack[c->depth++] = l;
	c->lex = l;
	f->active = 1;
	f->seen = 1;
	return l;
}

/* The end of the current file: its open conditionals are errors. */
static void pop_file(pp_ctx *c)
{
	pp_lexer *l = c->lex;
	if (c->nconds > l->cond_base) {
		pp_cond *k = &c->conds[c->nconds - 1];
		pp_msg_at(c, DIAG_ERROR, k->file, k->line, k->col,
			"pp-unterminated-if", "Expecting '#endif' before end of file");
		c->nconds = l->cond_base;
	}
	if (l->mi == MI_CLOSED)
		l->f->guard = l->mi_guard;
	l->f->active = 0;
	int ret = l->ret_line;
	free(l);
	c->depth--;
	c->lex = c->depth > 0 ? c->stack[c->depth - 1] : NULL;
	if (c->lex && c->depth > 0)
		out_marker(c, ret, c->lex->name, " 2");
}

/* The file "NAME" of an #include at AT: the includer's folder, then the
 * -I folders. NULL, after an error, when there is none. */
static pp_file *include_find(pp_ctx *c, const pp_tok *at, const char *name)
{
	size_t ndirs = (size_t)c->o->nincdirs + 1;
	for (size_t i = 0; i < ndirs; i++) {
		const char *dir = i == 0 ? c->lex->f->dir : c->o->incdirs[i - 1];
		strbuf p = {0};
		if (name[0] == '/' || (i == 0 && strcmp(dir, ".") == 0))
			sb_puts(&p, name);
		else {
			size_t dl = strlen(dir);
			sb_putn(&p, dir, dl);
			if (dl > 0 && dir[dl - 1] != '/')
				sb_putc(&p, '/');
			sb_puts(&p, name);
		}
		pp_file *f = NULL;
		for (f = c->files; f && strcmp(f->path, p.s) != 0; f = f->next)
			;
		if (!f && access(p.s, F_OK) == 0) {
			char err[512];
			f = file_load(c, p.s, p.s, err, sizeof err);
			if (!f)
				pp_error(c, at, "pp-include-missing",
					"cannot open include file \"%s\": %s", name, err);
			sb_free(&p);
			return f;
		}
		sb_free(&p);
		if (f || name[0] == '/')
			return f ? f : (pp_error(c, at, "pp-include-missing",
				"cannot open include file \"%s\": No such file or "
				"directory", name), NULL);
	}
	pp_error(c, at, "pp-include-missing", "cannot open include file "
		"\"%s\": No such file or directory", name);
	return NULL;
}

/* Enters the file NAME of the #include at AT. A file already being read
 * is a cycle unless its include guard is defined by now. */
static void include_file(pp_ctx *c, const pp_tok *at, const char *name)
{
	if (c->in_args) {
		pp_error(c, at, "pp-include-in-args",
			"#include in the arguments of a macro call");
		return;
	}
	if (c->depth > PP_MAX_INCLUDE) {
		pp_error(c, at, "pp-include-depth",
			"#include nested more than %d deep", PP_MAX_INCLUDE);
		return;
	}
	pp_file *f = include_find(c, at, name);
	if (!f || (f->once && f->seen) || (f->guard && f->guard->macro))
		return;
	if (f->active) {
		size_t i = 0;
		while (c->stack[i]->f != f)
			i++;
		if (c->stack[i]->mi == MI_OPEN && c->stack[i]->mi_guard->macro)
			return;
		strbuf chain = {0};
		for (size_t k = i; k < c->depth; k++)
			sb_printf(&chain, "%s includes ", c->stack[k]->f->path);
		sb_puts(&chain, f->path);
		pp_error(c, at, "pp-include-cycle", "#include cycle: %s", chain.s);
		sb_free(&chain);
		return;
	}
	pp_lexer *up = c->lex;
	loc_advance(up, up->p);
	int ret = lex_line(up);
	pp_lexer *l = push_file(c, f);
	l->ret_line = ret;
	out_marker(c, 1, f->name, " 1");
}

/* include = "#include" ( "\"" q-chars "\"" | "<" h-chars ">" | tokens )
 * (C99 6.10.2). <...> is passed through for the C compiler. */
static void do_include(pp_ctx *c, const pp_tok *hash)
{
	pp_tok t;
	c->lex->header = 1;
	lex_next(c, c->lex, &t);
	c->lex->header = 0;
	strbuf text = {0};
	char *name = NULL;
	if (t.kind == TK_HEADER) {
		sb_putn(&text, t.s, (size_t)t.len);
		check_eol(c, "include", NULL);
	} else if (t.kind == TK_STRING && t.s[0] == '"') {
		name = xstrndup(t.s + 1, (size_t)t.len - 2);
		check_eol(c, "include", NULL);
	} else if (t.kind != TK_NL && t.kind != TK_EOF) {
		/* C99 6.10.2p4: macros replaced, then one of the forms above */
		pp_tokvec v = {0}, ex = {0};
		tv_push(&v, &t);
		read_line(c, &v);
		expand_all(c, &v, 0, &ex);
		size_t k = 1;
		if (ex.n > 0 && ex.v[0].kind == TK_STRING && ex.v[0].s[0] == '"')
			name = xstrndup(ex.v[0].s + 1, (size_t)ex.v[0].len - 2);
		else if (ex.n > 0 && is_op(&ex.v[0], '<')) {
			while (k < ex.n && !is_op(&ex.v[k], '>'))
				k++;
			if (k < ex.n) {
				spell(&text, ex.v, ++k);
				if (text.len > 2 && text.s[1] == ' ')
					memmove(text.s + 1, text.s + 2, text.len-- - 1);
			}
		}
		if ((name || text.len) && k < ex.n)
			pp_warning(c, &ex.v[k], "pp-extra-tokens", "Unexpected token "
				"following preprocessor directive (#include) -- "
				"expected a new line");
		tv_free(&v);
		tv_free(&ex);
	}
	if (name)
		include_file(c, hash, name);
	else if (text.len) {
		strbuf line = {0};
		sb_printf(&line, "#include %s", text.s);
		out_line(c, hash->file, hash->line, line.s);
		sb_free(&line);
	} else
		pp_error(c, &t, "pp-include-syntax",
			"#include expects \"FILENAME\" or <FILENAME>");
	free(name);
	sb_free(&text);
}

/* line = "#line" digits [ string ] newline, after macro replacement
 * (C99 6.10.4); also GCC's linemarker "#" digits [ string { digits } ]. */
static void do_line(pp_ctx *c, const pp_tok *dir, int marker)
{
	pp_tokvec v = {0}, ex = {0};
	if (marker)
		tv_push(&v, dir);
	read_line(c, &v);
	if (marker)
		for (size_t i = 0; i < v.n; i++)
			tv_push(&ex, &v.v[i]);
	else
		expand_all(c, &v, 0, &ex);
	long n = 0;
	int ok = ex.n > 0 && ex.v[0].kind == TK_NUMBER;
	for (int i = 0; ok && i < ex.v[0].len; i++) {
		ok = is_digit(ex.v[0].s[i]);
		n = n * 10 + (ex.v[0].s[i] - '0');
		if (n > 2147483647)
			ok = 0;
	}
	const pp_tok *at = ex.n > 0 ? &ex.v[0] : dir;
	if (!ok)
		pp_error(c, at, "pp-line-syntax", "#line requires a line number "
			"from 0 to 2147483647, not \"%.*s\"", at == dir ? 0 : at->len,
			at->s);
	else if (ex.n > 1 && (ex.v[1].kind != TK_STRING || ex.v[1].s[0] != '"')) {
		pp_error(c, &ex.v[1], "pp-line-syntax",
			"invalid file name \"%.*s\" in #line", ex.v[1].len, ex.v[1].s);
		ok = 0;
	} else if (ex.n > 2 && !marker)
		pp_warning(c, &ex.v[2], "pp-extra-tokens", "Unexpected token "
			"following preprocessor directive (#line) -- expected a new "
			"line");
	if (ok) {
		pp_lexer *l = c->lex;
		loc_advance(l, l->p);
		l->delta = (int)n - l->loc_line;
		if (c->out.col > 0)
			out_newline(c);
		c->out.resync = 1;
		if (ex.n > 1) {
			strbuf s = {0};
			for (int i = 1; i < ex.v[1].len - 1; i++) {
				if (ex.v[1].s[i] == '\\' && i + 1 < ex.v[1].len - 1)
					i++;
				sb_putc(&s, ex.v[1].s[i]);
			}
			l->name = add_name(c, s.s ? s.s : "");
			sb_free(&s);
		}
	}
	tv_free(&v);
	tv_free(&ex);
}

/* #error and #warning: the rest of the line is the message. */
static void do_diagnostic(pp_ctx *c, const pp_tok *dir, int error)
{
	pp_tokvec v = {0};
	strbuf s = {0};
	c->lex->quiet = 1;
	read_line(c, &v);
	c->lex->quiet = 0;
	spell(&s, v.v, v.n);
	pp_msg(c, error ? DIAG_ERROR : DIAG_WARNING, dir, error ? "pp-error" :
		"pp-warning", "#%s %s", error ? "error" : "warning", s.s ? s.s : "");
	sb_free(&s);
	tv_free(&v);
}

/* #pragma is passed through, as the spec's 4 says of every directive;
 * `#pragma once` is done here. */
static void do_pragma(pp_ctx *c, const pp_tok *hash)
{
	pp_tokvec v = {0};
	c->lex->quiet = 1;
	read_line(c, &v);
	c->lex->quiet = 0;
	if (v.n == 1 && v.v[0].sym == c->s_once)
		c->lex->f->once = 1;
	else {
		strbuf s = {0};
		sb_puts(&s, "#pragma");
		if (v.n > 0)
			sb_putc(&s, ' ');
		spell(&s, v.v, v.n);
		out_line(c, hash->file, hash->line, s.s);
		sb_free(&s);
	}
	tv_free(&v);
}

static void next_no_nl(pp_ctx *c, pp_in *in, pp_tok *t)
{
	do
		in_next(c, in, t);
	while (t->kind == TK_NL);
}

/* C99 6.10.9: _Pragma ( string-literal ) is a #pragma line. */
static void do_pragma_op(pp_ctx *c, pp_in *in, const pp_tok *op)
{
	pp_tok a, s, b;
	next_no_nl(c, in, &a);
	if (is_op(&a, '(')) {
		next_no_nl(c, in, &s);
		if (s.kind == TK_STRING) {
			next_no_nl(c, in, &b);
			if (is_op(&b, ')')) {
				strbuf line = {0};
				const char *p = memchr(s.s, '"', (size_t)s.len);
				sb_puts(&line, "#pragma ");
				for (p++; p < s.s + s.len - 1; p++) {
					if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					sb_putc(&line, *p);
				}
				out_line(c, op->file, op->line, line.s);
				sb_free(&line);
				return;
			}
			in_push(in, &b, 1);
		}
		in_push(in, &s, 1);
	}
	in_push(in, &a, 1);
	pp_error(c, op, "pp-pragma-syntax",
		"_Pragma takes a parenthesized string literal");
}

/* One directive, its '#' read (C99 6.10p2: first on its line). */
static void handle_directive(pp_ctx *c, const pp_tok *hash)
{
	pp_lexer *l = c->lex;
	pp_tok t;
	lex_next(c, l, &t);
	int outer = c->nconds == l->cond_base;
	int d = t.kind == TK_IDENT ? t.sym->dir : D_NONE;
	if (outer && !(d == D_IFNDEF && l->mi == MI_START))
		l->mi = MI_NONE;
	if (t.kind == TK_NL || t.kind == TK_EOF)
		return;		/* C99 6.10.7: the null directive */
	if (t.kind == TK_NUMBER) {
		do_line(c, &t, 1);
		return;
	}
	switch (d) {
	case D_DEFINE: do_define(c, hash); break;
	case D_UNDEF: do_undef(c, hash); break;
	case D_INCLUDE: do_include(c, hash); break;
	case D_IF: do_if(c, &t); break;
	case D_IFDEF: do_ifdef(c, hash, &t, 0); break;
	case D_IFNDEF: do_ifdef(c, hash, &t, 1); break;
	case D_ELIF: case D_ELSE: case D_ENDIF: do_else(c, &t, d); break;
	case D_LINE: do_line(c, &t, 0); break;
	case D_ERROR: do_diagnostic(c, &t, 1); break;
	case D_WARNING: do_diagnostic(c, &t, 0); break;
	case D_PRAGMA: do_pragma(c, hash); break;
	default:
		pp_error(c, &t, "pp-unknown-directive",
			"Undefined preprocessor directive(\"%.*s\")", t.len, t.s);
		skip_line(c);
	}
	if (l->mi == MI_OPEN && c->nconds == l->cond_base)
		l->mi = MI_CLOSED;
}

/* ------------------------------------------------------------------ */
/* The main loop and the entry point */

/* Preprocesses the files on the include stack to their end. */
static void run_loop(pp_ctx *c)
{
	while (c->depth > 0) {
		pp_tok t;
		if (c->stop) {
			while (c->depth > 0) {
				c->nconds = c->lex->cond_base;
				pop_file(c);
			}
			break;
		}
		if (c->main.st.n == 0)
			c->budget = 0;
		expand_next(c, &c->main, &t);
		if (t.kind == TK_EOF) {
			pop_file(c);
			continue;
		}
		if (t.kind == TK_NL)
			continue;
		if (is_op(&t, '#') && (t.flags & TF_BOL) && (t.flags & TF_SRC)) {
			handle_directive(c, &t);
			continue;
		}
		if (c->nconds == c->lex->cond_base)
			c->lex->mi = MI_NONE;
		if (t.kind == TK_IDENT && t.sym == c->s_pragma_op)
			do_pragma_op(c, &c->main, &t);
		else
			out_token(c, &t);
	}
}

static void run_text(pp_ctx *c, const char *name, const char *text)
{
	c->out.suppress = 1;
	push_file(c, file_text(c, name, text));
	run_loop(c);
	c->out.suppress = 0;
}

static void init_syms(pp_ctx *c)
{
	static const struct { const char *name; int dir; } dirs[] = {
		{"define", D_DEFINE}, {"undef", D_UNDEF}, {"include", D_INCLUDE},
		{"if", D_IF}, {"ifdef", D_IFDEF}, {"ifndef", D_IFNDEF},
		{"elif", D_ELIF}, {"else", D_ELSE}, {"endif", D_ENDIF},
		{"line", D_LINE}, {"error", D_ERROR}, {"warning", D_WARNING},
		{"pragma", D_PRAGMA},
	};
	static const struct { const char *name; int b; } builtins[] = {
		{"__FILE__", B_FILE}, {"__LINE__", B_LINE},
		{"__DATE__", B_DATE}, {"__TIME__", B_TIME},
	};
	c->ntab = 4096;
	c->tab = xcalloc(c->ntab, sizeof *c->tab);
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
		intern(c, dirs[i].name, (int)strlen(dirs[i].name))->dir =
			(unsigned char)dirs[i].dir;
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
		pp_macro *m = xcalloc(1, sizeof *m);
		m->name = intern(c, builtins[i].name, (int)strlen(builtins[i].name));
		m->builtin = (unsigned char)builtins[i].b;
		m->file = -1;
		m->name->macro = m;
	}
	c->s_defined = intern(c, "defined", 7);
	c->s_va_args = intern(c, "__VA_ARGS__", 11);
	c->s_pragma_op = intern(c, "_Pragma", 7);
	c->s_once = intern(c, "once", 4);
}

/* __BRPP__: the version as a number, 0.1.0 is 100 (major, minor and
 * patch in two decimal digits each). */
static long version_number(void)
{
	long v = 0;
	const char *p = PACKAGE_VERSION;
	for (int k = 0; k < 3; k++) {
		v = v * 100 + strtol(p, (char **)&p, 10);
		if (*p == '.')
			p++;
	}
	return v;
}

static void predefine(pp_ctx *c)
{
	strbuf b = {0};
	sb_printf(&b, "#define __BROOK__ 1\n#define __BRPP__ %ld\n"
		"#define __STDC__ 1\n#define __STDC_VERSION__ 199901L\n"
		"#define __STDC_HOSTED__ 1\n", version_number());
	run_text(c, "<built-in>", b.s);
	sb_free(&b);
	/* -D NAME[=VALUE] is "#define NAME VALUE" (VALUE 1 by default);
	 * -U NAME is "#undef NAME", after every -D */
	b.len = 0;
	for (int i = 0; i < c->o->ndefines; i++) {
		const char *def = c->o->defines[i], *eq = strchr(def, '=');
		sb_puts(&b, "#define ");
		sb_putn(&b, def, eq ? (size_t)(eq - def) : strlen(def));
		sb_putc(&b, ' ');
		for (const char *p = eq ? eq + 1 : "1"; *p; p++)
			sb_putc(&b, *p == '\n' || *p == '\r' ? ' ' : *p);
		sb_putc(&b, '\n');
	}
	for (int i = 0; i < c->o->nundefs; i++)
		sb_printf(&b, "#undef %s\n", c->o->undefs[i]);
	if (b.len)
		run_text(c, "<command-line>", b.s);
	sb_free(&b);
}

static void ctx_free(pp_ctx *c)
{
	for (size_t i = 0; i < c->ntab; i++)
		for (pp_sym *y = c->tab[i]; y; y = y->next)
			macro_free(y->macro);
	while (c->retired) {
		pp_macro *m = c->retired;
		c->retired = m->retired;
		macro_free(m);
	}
	free(c->tab);
	while (c->arena) {
		pp_chunk *k = c->arena;
		c->arena = k->next;
		free(k);
	}
	for (size_t i = 0; i < c->nnames; i++) {
		/* the diagnostics keep the name of the last file they read */
		if (c->d->last_file == c->names[i])
			c->d->last_file = NULL;
		free(c->names[i]);
	}
	free(c->names);
	files_free(c);
	free(c->stack);
	free(c->conds);
	tv_free(&c->main.st);
}

int pp_run(const pp_options *o, const char *path, strbuf *out, diag_ctx *d)
{
	pp_ctx c;
	memset(&c, 0, sizeof c);
	c.o = o;
	c.d = d;
	c.errors0 = d->nerrors;
	c.out.b = out;
	c.out.file = -1;
	c.main.lexer = 1;
	init_syms(&c);
	predefine(&c);
	char err[512];
	int stdin_ = strcmp(path, "-") == 0;
	pp_file *f = file_load(&c, path, stdin_ ? "<stdin>" : path, err, sizeof err);
	if (!f) {
		diag_report(d, DIAG_ERROR, NULL, 0, 0, "pp-io", "cannot read %s", err);
		ctx_free(&c);
		return 2;
	}
	out_marker(&c, 1, f->name, "");
	push_file(&c, f);
	run_loop(&c);
	if (c.out.col > 0)
		out_newline(&c);
	int status = d->nerrors > c.errors0 ? 1 : 0;
	ctx_free(&c);
	return status;
}
