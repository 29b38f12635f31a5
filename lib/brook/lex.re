/* lex.re - the lexer of brparse (re2c): C99 tokens, the Brook+ keywords and
 * vector type names, linemarkers and passed-through directive lines.
 *
 * Input is preprocessed text (brpp's or gcc -E's output), so there are no
 * macros here; comments are still skipped, for hand-written input.
 */
#include "config.h"

#include <limits.h>
#include <string.h>

#include "brook/lex.h"
#include "grammar.h"

void lex_init(lex_ctx *L, const char *text, size_t len)
{
	memset(L, 0, sizeof *L);
	L->cur = text;
	L->lim = text + len;
	L->linestart = text;
	L->line = 1;
	L->bol = 1;
}

/* A line starts at AFTER. Line numbers stop at INT_MAX (C99 6.10.4p3
 * ends them at 2147483647), which a linemarker may reach. */
static void next_line(lex_ctx *L, const char *after)
{
	if (L->line < INT_MAX)
		L->line++;
	L->linestart = after;
}

static void newline(lex_ctx *L, const char *after)
{
	next_line(L, after);
	L->bol = 1;
}

/* A line that starts with '#': reads it to its end (with backslash
 * continuations) and tells a linemarker from a directive to pass through.
 * Grammar: "#" digits ... | "#" "line" digits ... (linemarkers);
 * "#" (nothing) is the null directive and is skipped. */
static int directive(lex_ctx *L, lex_token *t)
{
	const char *p = L->cur, *end;
	while (p < L->lim && *p != '\n') {
		if (*p == '\\' && p + 1 < L->lim && p[1] == '\n')
			p++;
		p++;
	}
	end = p;
	t->s = L->cur;
	t->len = (int)(end - L->cur);
	while (t->len > 0 && (unsigned char)t->s[t->len - 1] <= ' ')
		t->len--;
	/* blanks and other control characters separate the words alike */
	const char *q = L->cur + (*L->cur == '%' ? 2 : 1);
	while (q < end && (unsigned char)*q <= ' ')
		q++;
	/* continuation lines inside the directive still count as lines */
	for (const char *r = L->cur; r < end; r++)
		if (*r == '\n')
			next_line(L, r + 1);
	L->cur = end;
	if (q == end)
		return -1;
	if ((*q >= '0' && *q <= '9') || (end - q > 4 && memcmp(q, "line", 4) == 0
		&& (unsigned char)q[4] <= ' '))
		return LEX_LINEMARK;
	return TK_DIRECTIVE;
}

/*!re2c
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = p;
	re2c:define:YYMARKER = m;
	re2c:yyfill:enable = 0;
	re2c:indent:string = "\t";

	D  = [0-9];
	O  = [0-7];
	H  = [0-9a-fA-F];
	L  = [a-zA-Z_$];
	IS = [uU] ([lL] | "ll" | "LL")? | ([lL] | "ll" | "LL") [uU]?;
	FS = [fFlL];
	E  = [eE] [+-]? D+;
	P  = [pP] [+-]? D+;
	ESC = "\\" [^\n\x00];
	// C99 6.4.3: universal character names; bytes beyond ASCII (UTF-8)
	UCN = "\\u" H{4} | "\\U" H{8};
	IDX = L | UCN | [\x80-\xff];
	VEC = ("float" | "double" | "int" | "uint" | "char" | "uchar" |
		"short" | "ushort" | "long" | "ulong") [234];
*/

void lex_next(lex_ctx *L, lex_token *t)
{
	const char *p, *m;
again:
	p = L->cur;
	if (L->bol) {
		while (p < L->lim && (*p == ' ' || *p == '\t' || *p == '\f' ||
			*p == '\v' || *p == '\r'))
			p++;
		L->cur = p;
		/* C99 6.4.6p3: %: is # */
		if (p < L->lim && (*p == '#' || (*p == '%' && p + 1 < L->lim
			&& p[1] == ':'))) {
			t->file = L->file;
			t->line = L->line;
			t->col = (int)(p - L->linestart) + 1;
			int code = directive(L, t);
			if (code < 0)
				goto again;
			t->code = code;
			return;
		}
		L->bol = 0;
	}
	t->s = p;
	t->file = L->file;
	t->line = L->line;
	t->col = (int)(p - L->linestart) + 1;
	m = p;
#define TOK(c) do { t->code = (c); goto done; } while (0)
/*!re2c
	"\x00"	{
		if (p - 1 >= L->lim) {
			L->cur = L->lim;
			t->s = L->lim;
			t->len = 0;
			t->code = LEX_EOF;
			return;
		}
		L->errmsg = "null character in input";
		TOK(LEX_ERROR);
	}
	"\n"			{ newline(L, p); L->cur = p; goto again; }
	"\\" "\r"? "\n"		{ newline(L, p); L->bol = 0; L->cur = p; goto again; }
	[ \t\v\f\r]+		{ L->cur = p; goto again; }
	"//" [^\n\x00]*		{ L->cur = p; goto again; }
	"/*"			{ goto comment; }

	"auto"		{ TOK(TK_AUTO); }
	"break"		{ TOK(TK_BREAK); }
	"case"		{ TOK(TK_CASE); }
	"char"		{ TOK(TK_CHAR); }
	"const" | "__const" | "__const__"	{ TOK(TK_CONST); }
	"continue"	{ TOK(TK_CONTINUE); }
	"default"	{ TOK(TK_DEFAULT); }
	"do"		{ TOK(TK_DO); }
	"double"	{ TOK(TK_DOUBLE); }
	"else"		{ TOK(TK_ELSE); }
	"enum"		{ TOK(TK_ENUM); }
	"extern"	{ TOK(TK_EXTERN); }
	"float"		{ TOK(TK_FLOAT); }
	"for"		{ TOK(TK_FOR); }
	"goto"		{ TOK(TK_GOTO); }
	"if"		{ TOK(TK_IF); }
	"inline" | "__inline" | "__inline__"	{ TOK(TK_INLINE); }
	"int"		{ TOK(TK_INT); }
	"long"		{ TOK(TK_LONG); }
	"register"	{ TOK(TK_REGISTER); }
	"restrict" | "__restrict" | "__restrict__"	{ TOK(TK_RESTRICT); }
	"return"	{ TOK(TK_RETURN); }
	"short"		{ TOK(TK_SHORT); }
	"signed" | "__signed" | "__signed__"	{ TOK(TK_SIGNED); }
	"sizeof"	{ TOK(TK_SIZEOF); }
	"static"	{ TOK(TK_STATIC); }
	"struct"	{ TOK(TK_STRUCT); }
	"switch"	{ TOK(TK_SWITCH); }
	"typedef"	{ TOK(TK_TYPEDEF); }
	"union"		{ TOK(TK_UNION); }
	"unsigned"	{ TOK(TK_UNSIGNED); }
	"void"		{ TOK(TK_VOID); }
	"volatile" | "__volatile" | "__volatile__"	{ TOK(TK_VOLATILE); }
	"while"		{ TOK(TK_WHILE); }
	"_Bool"		{ TOK(TK_BOOL); }
	"_Complex" | "__complex__"	{ TOK(TK_COMPLEX); }
	"_Imaginary"	{ TOK(TK_IMAGINARY); }

	// spec 6.1, 6.2 and the guide's chapter on thread groups: Brook+
	// keywords. out, vout, iter, shared, reduce and Attribute are keywords only
	// where a type follows (parse.c), so host code may use them as names.
	"kernel"	{ TOK(TK_KERNEL); }
	"reduce"	{ TOK(TK_REDUCE); }
	"out"		{ TOK(TK_OUT); }
	"vout"		{ TOK(TK_VOUT); }	// BrookGPU; brcheck refuses it
	"iter"		{ TOK(TK_ITER); }
	"shared"	{ TOK(TK_SHARED); }
	"Attribute"	{ TOK(TK_ATTRIBUTE); }
	"indexof"	{ TOK(TK_INDEXOF); }
	// spec 6.1.1: vector types; guide: float4_(...) constructors
	VEC		{ TOK(TK_VECTYPE); }
	VEC "_"		{ TOK(TK_CTOR_U); }

	// C99 6.4.2.1: an identifier may hold universal character names
	// and other characters; parse.c refuses them (parse-name-char), so
	// that the whole name is one token with one message
	IDX (IDX | D)*	{ TOK(TK_IDENT); }
	"\\" [uU] H*	{
		L->errmsg = "incomplete universal character name: "
			"\\u takes 4 hex digits, \\U 8";
		TOK(LEX_ERROR);
	}

	"0" [xX] H+ IS?			{ TOK(TK_INTCONST); }
	"0" [bB] [01]+ IS?		{ TOK(TK_INTCONST); }
	D+ IS?				{ TOK(TK_INTCONST); }
	D* "." D+ E? FS?		{ TOK(TK_FLOATCONST); }
	D+ "." E? FS?			{ TOK(TK_FLOATCONST); }
	D+ E FS?			{ TOK(TK_FLOATCONST); }
	"0" [xX] H* "."? H* P FS?	{ TOK(TK_FLOATCONST); }
	"0" [xX] H+ "." H* P FS?	{ TOK(TK_FLOATCONST); }

	[LuU]? "'" ([^'\\\n\x00] | ESC)+ "'"	{ TOK(TK_CHARCONST); }
	("L" | "u8" | "u" | "U")? "\"" ([^"\\\n\x00] | ESC)* "\""	{ TOK(TK_STRING); }
	[LuU]? "'"	{ L->errmsg = "missing terminating ' character"; goto unterminated; }
	("L" | "u8" | "u" | "U")? "\""	{ L->errmsg = "missing terminating \" character"; goto unterminated; }

	"..."	{ TOK(TK_ELLIPSIS); }
	">>="	{ TOK(TK_SHRASSIGN); }
	"<<="	{ TOK(TK_SHLASSIGN); }
	"+="	{ TOK(TK_ADDASSIGN); }
	"-="	{ TOK(TK_SUBASSIGN); }
	"*="	{ TOK(TK_MULASSIGN); }
	"/="	{ TOK(TK_DIVASSIGN); }
	"%="	{ TOK(TK_MODASSIGN); }
	"&="	{ TOK(TK_ANDASSIGN); }
	"^="	{ TOK(TK_XORASSIGN); }
	"|="	{ TOK(TK_ORASSIGN); }
	">>"	{ TOK(TK_SHR); }
	"<<"	{ TOK(TK_SHL); }
	"++"	{ TOK(TK_INC); }
	"--"	{ TOK(TK_DEC); }
	"->"	{ TOK(TK_ARROW); }
	"&&"	{ TOK(TK_ANDAND); }
	"||"	{ TOK(TK_OROR); }
	"<="	{ TOK(TK_LE); }
	">="	{ TOK(TK_GE); }
	"=="	{ TOK(TK_EQ); }
	"!="	{ TOK(TK_NE); }
	";"	{ TOK(TK_SEMI); }
	// C99 6.4.6p3: the digraphs <: :> <% %> are [ ] { }
	"{" | "<%"	{ TOK(TK_LBRACE); }
	"}" | "%>"	{ TOK(TK_RBRACE); }
	","	{ TOK(TK_COMMA); }
	":"	{ TOK(TK_COLON); }
	"="	{ TOK(TK_ASSIGN); }
	"("	{ TOK(TK_LPAREN); }
	")"	{ TOK(TK_RPAREN); }
	"[" | "<:"	{ TOK(TK_LBRACKET); }
	"]" | ":>"	{ TOK(TK_RBRACKET); }
	"."	{ TOK(TK_DOT); }
	"&"	{ TOK(TK_AMP); }
	"!"	{ TOK(TK_NOT); }
	"~"	{ TOK(TK_TILDE); }
	"-"	{ TOK(TK_MINUS); }
	"+"	{ TOK(TK_PLUS); }
	"*"	{ TOK(TK_STAR); }
	"/"	{ TOK(TK_SLASH); }
	"%"	{ TOK(TK_PERCENT); }
	"<"	{ TOK(TK_LT); }
	">"	{ TOK(TK_GT); }
	"^"	{ TOK(TK_CARET); }
	"|"	{ TOK(TK_PIPE); }
	"?"	{ TOK(TK_QUESTION); }
	"%:%:" | "%:"	{ L->errmsg = "stray '%:' in program"; TOK(LEX_ERROR); }
	[^]	{ L->errmsg = "stray character in program"; TOK(LEX_ERROR); }
*/

comment:
	/* a block comment: skip to its end, counting lines */
	for (;;) {
		if (p >= L->lim) {
			L->cur = L->lim;
			L->errmsg = "unterminated comment";
			t->len = 2;
			t->code = LEX_ERROR;
			return;
		}
		if (*p == '*' && p + 1 < L->lim && p[1] == '/') {
			p += 2;
			break;
		}
		if (*p == '\n')
			newline(L, p + 1), L->bol = 0;
		p++;
	}
	L->cur = p;
	goto again;

unterminated:
	while (p < L->lim && *p != '\n')
		p++;
	t->code = LEX_ERROR;
done:
	t->len = (int)(p - t->s);
	L->cur = p;
#undef TOK
	(void)m;
}
