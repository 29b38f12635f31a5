/* grammar.y - the lemon grammar of C99 with the Brook+ extensions.
 *
 * Actions build brast(5) nodes (lib/brook/ast.h) through parse_build.c and
 * do nothing else. Typedef names arrive as TYPE_NAME, vector type names as
 * VECTYPE, vector constructors as CTOR/CTOR_U and Brook scalar names (uint,
 * uchar, ...) as SCALARNAME: parse.c classifies identifiers before they
 * reach the parser (C99 6.7.7, spec 6.1.1).
 */

%include {
#include "config.h"

/* lemon's template checks its generated tables with assert at every token
 * and calls its trace hooks, which nothing here turns on: both off, as
 * SQLite builds its lemon parser */
#ifndef NDEBUG
#define NDEBUG
#endif
#include <assert.h>
#include <stdlib.h>

#include "brook/parse_int.h"

/* keys are literals, which the nodes borrow */
#define SET(n, key, v) brj_object_setn_new_lent((n), (key), strlen(key), (v))
static json_t *nn(json_t *x) { return x ? x : json_null(); }
static json_t *ej(parse_ex e) { return e.j; }
}

%name parse_lemon
%token_prefix TK_
%extra_argument { parse_ctx *ctx }
%token_type { lex_token }
%default_type { json_t * }
%default_destructor { json_decref($$); (void)ctx; }
%stack_size 1000
%stack_overflow { parse_too_deep(ctx); }
%type error { int }
%destructor error { (void)ctx; }
%type unit { int }
%destructor unit { (void)ctx; }
%type ext_list { int }
%destructor ext_list { (void)ctx; }
%type comma_opt { int }
%destructor comma_opt { (void)ctx; }

/* Lemon defers the reduction that a shift-reduce action calls for until
 * the next token arrives, but that token's classification may depend on
 * the reduction ("typedef int T;" then "T x;"). parse.c calls this after
 * every token: it performs the reductions that need no lookahead. */
%code {
/* Would the parser, in its present state, shift token CODE (after the
 * reductions that token calls for)? parse.c asks this to tell a typedef
 * name used as a type from one being declared again ("typedef struct s
 * *T;" where T is already a typedef name). It simulates on the parser's
 * stack without running any action. */
int parse_lemon_accepts(void *p, int code)
{
	yyParser *yypParser = (yyParser *)p;
	YYACTIONTYPE virt[64];
	int nvirt = 0;
	yyStackEntry *real = yypParser->yytos;
	YYACTIONTYPE state = real->stateno;
	for (int guard = 0; guard < 10000; guard++) {
		YYACTIONTYPE act = state > YY_MAX_SHIFT ? state
			: yy_find_shift_action((YYCODETYPE)code, state);
		if (act <= YY_MAX_SHIFTREDUCE || act == YY_ACCEPT_ACTION)
			return 1;
		if (act < YY_MIN_REDUCE)
			return 0;
		int rule = act - YY_MIN_REDUCE;
		int pop = -yyRuleInfoNRhs[rule];
		if (pop <= nvirt) {
			nvirt -= pop;
		} else {
			real -= pop - nvirt;
			nvirt = 0;
			if (real < yypParser->yystack)
				return 0;
		}
		YYACTIONTYPE below = nvirt ? virt[nvirt - 1] : real->stateno;
		if (nvirt == (int)(sizeof virt / sizeof virt[0]))
			return 1;
		state = yy_find_reduce_action(below, yyRuleInfoLhs[rule]);
		virt[nvirt++] = state;
	}
	return 0;
}

void parse_lemon_settle(void *p, parse_ctx *ctx)
{
	yyParser *yypParser = (yyParser *)p;
	lex_token none = {0};
	yypParser->ctx = ctx;
	while (yypParser->yytos->stateno >= YY_MIN_REDUCE
		&& yypParser->yytos->stateno <= YY_MAX_REDUCE)
		yy_reduce(yypParser, yypParser->yytos->stateno - YY_MIN_REDUCE,
			YYNOCODE, none);
}
}

%syntax_error {
	int expected[YYNTOKEN], n = 0;
	for (int t = 1; t < YYNTOKEN; t++)
		if (yy_find_shift_action((YYCODETYPE)t, yypParser->yytos->stateno)
			!= YY_ERROR_ACTION)
			expected[n++] = t;
	parse_syntax_error(ctx, &TOKEN, expected, n);
	(void)yymajor;
}

/* Terminals, in the order grammar.h numbers them. */
%token IDENT TYPE_NAME SCALARNAME VECTYPE CTOR CTOR_U
	INTCONST FLOATCONST CHARCONST STRING DIRECTIVE.
%token AUTO BREAK CASE CHAR CONST CONTINUE DEFAULT DO DOUBLE ELSE ENUM EXTERN
	FLOAT FOR GOTO IF INLINE INT LONG REGISTER RESTRICT RETURN SHORT SIGNED
	SIZEOF STATIC STRUCT SWITCH TYPEDEF UNION UNSIGNED VOID VOLATILE WHILE
	BOOL COMPLEX IMAGINARY.
%token KERNEL REDUCE OUT VOUT ITER SHARED ATTRIBUTE INDEXOF.
%token ELLIPSIS SHRASSIGN SHLASSIGN ADDASSIGN SUBASSIGN MULASSIGN DIVASSIGN
	MODASSIGN ANDASSIGN XORASSIGN ORASSIGN SHR SHL INC DEC ARROW ANDAND OROR
	LE GE EQ NE SEMI LBRACE RBRACE COMMA COLON ASSIGN LPAREN RPAREN LBRACKET
	RBRACKET DOT AMP NOT TILDE MINUS PLUS STAR SLASH PERCENT LT GT CARET PIPE
	QUESTION.

/* C99 6.8.4: an else belongs to the nearest if. */
%nonassoc IFX.
%nonassoc ELSE.

/* ---- translation unit (C99 6.9) --------------------------------------- */
unit ::= ext_list.
ext_list ::= .
ext_list ::= ext_list ext_decl(D).	{ pb_list_add(&ctx->decls, D); }

ext_decl(A) ::= func_def(B).		{ A = B; }
ext_decl(A) ::= declaration(B).		{ A = B; }
ext_decl(A) ::= DIRECTIVE(T).		{ A = pb_directive(ctx, &T); }
ext_decl(A) ::= SEMI.			{ A = NULL; }
/* recovery at ';' and '}': report the next error as soon as it comes */
ext_decl(A) ::= error SEMI.		{ A = NULL; yypParser->yyerrcnt = -1; }
ext_decl(A) ::= error RBRACE.		{ A = NULL; yypParser->yyerrcnt = -1; }

/* function-definition = decl-specs? declarator declaration-list? block;
 * no specifiers: an old-style "main() {...}" (int); the declaration list
 * of a K&R definition "int f(a, b) int a; float b; {...}" (C99 6.9.1) */
func_def(A) ::= decl_specs(S) declarator(D) block(B).
	{ A = pb_funcdef(ctx, &S, &D, NULL, B); }
func_def(A) ::= declarator(D) block(B).
	{ A = pb_funcdef(ctx, NULL, &D, NULL, B); }
func_def(A) ::= decl_specs(S) declarator(D) knr_decls(K) block(B).
	{ A = pb_funcdef(ctx, &S, &D, K, B); }
func_def(A) ::= declarator(D) knr_decls(K) block(B).
	{ A = pb_funcdef(ctx, NULL, &D, K, B); }
knr_decls(A) ::= declaration(B).	{ A = NULL; pb_list_add(&A, B); }
knr_decls(A) ::= knr_decls(A) declaration(B).	{ pb_list_add(&A, B); }

/* ---- declarations (C99 6.7, spec 3.2, 6.2) ---------------------------- */
declaration(A) ::= decl_specs(S) SEMI.	{ A = pb_decl(ctx, &S, NULL); }
declaration(A) ::= decl_specs(S) init_list(L) SEMI.
	{ A = pb_decl(ctx, &S, L); }

%type decl_specs { parse_specs }
%destructor decl_specs { pb_specs_free(&$$); (void)ctx; }
decl_specs(A) ::= decl_spec_tok(T).	{ pb_specs_init(ctx, &A, &T); pb_specs_token(ctx, &A, &T); }
decl_specs(A) ::= tagged(T).		{ pb_specs_init(ctx, &A, NULL); pb_specs_type(ctx, &A, T); }
decl_specs(A) ::= attribute(L).		{ pb_specs_init(ctx, &A, NULL); pb_specs_attrs(ctx, &A, L); }
decl_specs(A) ::= decl_specs(A) decl_spec_tok(T).	{ pb_specs_token(ctx, &A, &T); }
decl_specs(A) ::= decl_specs(A) tagged(T).		{ pb_specs_type(ctx, &A, T); }
decl_specs(A) ::= decl_specs(A) attribute(L).		{ pb_specs_attrs(ctx, &A, L); }

%type decl_spec_tok { lex_token }
%destructor decl_spec_tok { (void)ctx; }
decl_spec_tok(A) ::= TYPEDEF|EXTERN|STATIC|AUTO|REGISTER(T).	{ A = T; }
decl_spec_tok(A) ::= VOID|CHAR|SHORT|INT|LONG|FLOAT|DOUBLE|SIGNED|UNSIGNED|BOOL|COMPLEX|IMAGINARY(T).	{ A = T; }
decl_spec_tok(A) ::= VECTYPE|SCALARNAME|TYPE_NAME(T).	{ A = T; }
decl_spec_tok(A) ::= CONST|VOLATILE|RESTRICT|INLINE(T).	{ A = T; }
decl_spec_tok(A) ::= KERNEL|REDUCE|OUT|VOUT|ITER|SHARED(T).	{ A = T; }

/* guide, thread groups: Attribute[GroupSize(64, 1, 1)] */
attribute(A) ::= ATTRIBUTE LBRACKET attr_list(L) RBRACKET.	{ A = L; }
attr_list(A) ::= attr(B).			{ A = NULL; pb_list_add(&A, B); }
attr_list(A) ::= attr_list(A) COMMA attr(B).	{ pb_list_add(&A, B); }
attr(A) ::= IDENT(N) LPAREN args(L) RPAREN.	{ A = pb_attr(ctx, &N, L.j); }
attr(A) ::= IDENT(N).				{ A = pb_attr(ctx, &N, json_array()); }

/* struct-or-union-specifier, enum-specifier (C99 6.7.2.1-2) */
tagged(A) ::= su(K) tag(N) LBRACE field_list(F) RBRACE.	{ A = pb_struct(ctx, &K, &N, F); }
tagged(A) ::= su(K) LBRACE field_list(F) RBRACE.	{ A = pb_struct(ctx, &K, NULL, F); }
tagged(A) ::= su(K) tag(N).				{ A = pb_struct(ctx, &K, &N, NULL); }
tagged(A) ::= ENUM tag(N) LBRACE enum_list(L) comma_opt RBRACE.	{ A = pb_enum(ctx, &N, L); }
tagged(A) ::= ENUM LBRACE enum_list(L) comma_opt RBRACE.	{ A = pb_enum(ctx, NULL, L); }
tagged(A) ::= ENUM tag(N).				{ A = pb_enum(ctx, &N, NULL); }

%type su { lex_token }
%destructor su { (void)ctx; }
su(A) ::= STRUCT|UNION(T).	{ A = T; }
%type tag { lex_token }
%destructor tag { (void)ctx; }
tag(A) ::= IDENT|TYPE_NAME(T).	{ A = T; }
comma_opt ::= .
comma_opt ::= COMMA.

field_list(A) ::= .				{ A = json_array(); }
field_list(A) ::= field_list(A) field_decl(B).	{ json_array_extend(A, B); json_decref(B); }
field_decl(A) ::= decl_specs(S) SEMI.		{ A = pb_fields(ctx, &S, NULL); }
field_decl(A) ::= decl_specs(S) field_dlist(L) SEMI.	{ A = pb_fields(ctx, &S, L); }

%type field_dlist { parse_dlist * }
%destructor field_dlist { pb_dlist_free($$); (void)ctx; }
field_dlist(A) ::= field_decltor(B).	{ A = NULL; pb_dlist_add(&A, &B); }
field_dlist(A) ::= field_dlist(A) COMMA field_decltor(B).	{ pb_dlist_add(&A, &B); }
%type field_decltor { parse_dinit }
%destructor field_decltor { pb_decltor_free(&$$.d); json_decref($$.init); (void)ctx; }
field_decltor(A) ::= declarator(D).	{ A.d = D; A.init = NULL; A.has_decltor = 1; }
field_decltor(A) ::= declarator(D) COLON cond_expr(E).	{ A.d = D; A.init = E.j; A.has_decltor = 1; }
field_decltor(A) ::= COLON(T) cond_expr(E).
	{ pb_decltor_empty(ctx, &A.d, &T); A.init = E.j; A.has_decltor = 0; }

enum_list(A) ::= enumerator(B).		{ A = NULL; pb_list_add(&A, B); }
enum_list(A) ::= enum_list(A) COMMA enumerator(B).	{ pb_list_add(&A, B); }
enumerator(A) ::= IDENT(N).		{ A = pb_enumitem(ctx, &N, NULL); }
enumerator(A) ::= IDENT(N) ASSIGN cond_expr(E).	{ A = pb_enumitem(ctx, &N, E.j); }

%type init_list { parse_dlist * }
%destructor init_list { pb_dlist_free($$); (void)ctx; }
init_list(A) ::= init_decl(B).		{ A = NULL; pb_dlist_add(&A, &B); }
init_list(A) ::= init_list(A) COMMA init_decl(B).	{ pb_dlist_add(&A, &B); }
%type init_decl { parse_dinit }
%destructor init_decl { pb_decltor_free(&$$.d); json_decref($$.init); (void)ctx; }
init_decl(A) ::= declarator(D).		{ A.d = D; A.init = NULL; A.has_decltor = 1; }
init_decl(A) ::= declarator(D) ASSIGN initializer(I).	{ A.d = D; A.init = I; A.has_decltor = 1; }

/* ---- declarators (C99 6.7.5; spec 3.2 streams; 4.2 gather arrays) ------ */
%type declarator { parse_decltor }
%destructor declarator { pb_decltor_free(&$$); (void)ctx; }
declarator(A) ::= pointer(P) direct_decl(D).	{ A = D; pb_decltor_wrap(ctx, &A, &P); }
declarator(A) ::= direct_decl(D).		{ A = D; }

%type pointer { parse_decltor }
%destructor pointer { pb_decltor_free(&$$); (void)ctx; }
pointer(A) ::= STAR(T) quals_opt(Q).	{ pb_decltor_empty(ctx, &A, &T); pb_pointer(ctx, &A, &T, Q); }
pointer(A) ::= STAR(T) quals_opt(Q) pointer(P).	{ A = P; pb_pointer(ctx, &A, &T, Q); }

array_mods(A) ::= STATIC.		{ A = pb_array_static(NULL); }
array_mods(A) ::= qlist(Q).		{ A = pb_array_mods(Q); }
array_mods(A) ::= STATIC qlist(Q).	{ A = pb_array_static(Q); }
array_mods(A) ::= qlist(Q) STATIC.	{ A = pb_array_static(Q); }
qlist(A) ::= CONST|VOLATILE|RESTRICT(T).	{ A = NULL; pb_list_add(&A, pb_name(&T)); }
qlist(A) ::= qlist(A) CONST|VOLATILE|RESTRICT(T).	{ pb_list_add(&A, pb_name(&T)); }

quals_opt(A) ::= .			{ A = NULL; }
quals_opt(A) ::= quals_opt(A) CONST|VOLATILE|RESTRICT(T).	{ pb_list_add(&A, pb_name(&T)); }

%type direct_decl { parse_decltor }
%destructor direct_decl { pb_decltor_free(&$$); (void)ctx; }
direct_decl(A) ::= IDENT(T).		{ pb_decltor_name(ctx, &A, &T); }
direct_decl(A) ::= LPAREN declarator(D) RPAREN.	{ A = D; }
direct_decl(A) ::= direct_decl(A) LBRACKET RBRACKET.	{ pb_decltor_array(ctx, &A, NULL); }
direct_decl(A) ::= direct_decl(A) LBRACKET assign_expr(E) RBRACKET.	{ pb_decltor_array(ctx, &A, E.j); }
/* C99 6.7.5.2: [static 10], [const], [const static 10], [*] */
direct_decl(A) ::= direct_decl(A) LBRACKET array_mods(M) RBRACKET.	{ pb_decltor_array_mods(ctx, &A, NULL, M); }
direct_decl(A) ::= direct_decl(A) LBRACKET array_mods(M) assign_expr(E) RBRACKET.	{ pb_decltor_array_mods(ctx, &A, E.j, M); }
direct_decl(A) ::= direct_decl(A) LBRACKET STAR RBRACKET.	{ pb_decltor_array_mods(ctx, &A, NULL, pb_array_star()); }
direct_decl(A) ::= direct_decl(A) LPAREN RPAREN.	{ pb_decltor_func(ctx, &A, json_array(), 0, 0); }
direct_decl(A) ::= direct_decl(A) LPAREN param_list(P) RPAREN.	{ pb_decltor_func(ctx, &A, P, 0, 1); }
direct_decl(A) ::= direct_decl(A) LPAREN param_list(P) COMMA ELLIPSIS RPAREN.	{ pb_decltor_func(ctx, &A, P, 1, 1); }
/* expressions in the parentheses: a K&R identifier list "f(a, b)" (C99
 * 6.7.5.3) or BrookGPU's constructor-style initializer "float4 a(0.2f,
 * 1.0f, 3.2f, 1.0f)"; pb_funcdef and pb_decl tell which */
direct_decl(A) ::= direct_decl(A) LPAREN args(L) RPAREN.	{ pb_decltor_args(ctx, &A, L.j); }
direct_decl(A) ::= direct_decl(A) LT dims(L) GT.	{ pb_decltor_stream(ctx, &A, L); }

/* spec 3.2: stream dimensions, slowest first; <> and <,100> leave sizes
 * out. A dimension is any integer expression but a comma expression
 * ("All dimensions must be integer expressions"). As in a C++ template
 * argument list, the first '>' outside parentheses, brackets and the
 * middle of ?: closes the list, so there '>', '>=', '>>' and '>>=' are
 * not operators: the dim_* rules below repeat the expression levels from
 * shift_expr up without them (ECMAScript's ...NoIn productions do the
 * same for 'in'). */
dims(A) ::= dim(B).			{ A = json_array(); json_array_append_new(A, B); }
dims(A) ::= dims(A) COMMA dim(B).	{ json_array_append_new(A, B); }
dim(A) ::= .				{ A = json_null(); }
dim(A) ::= dim_assign(E).		{ A = E.j; }

param_list(A) ::= param(P).		{ A = NULL; pb_list_add(&A, P); }
param_list(A) ::= param_list(A) COMMA param(P).	{ pb_list_add(&A, P); }
param(A) ::= decl_specs(S) declarator(D).	{ A = pb_param(ctx, &S, &D); }
param(A) ::= decl_specs(S) abs_decl(D).	{ A = pb_param(ctx, &S, &D); }
param(A) ::= decl_specs(S).		{ A = pb_param(ctx, &S, NULL); }

%type abs_decl { parse_decltor }
%destructor abs_decl { pb_decltor_free(&$$); (void)ctx; }
abs_decl(A) ::= pointer(P).		{ A = P; }
abs_decl(A) ::= pointer(P) dabs(D).	{ A = D; pb_decltor_wrap(ctx, &A, &P); }
abs_decl(A) ::= dabs(D).		{ A = D; }

%type dabs { parse_decltor }
%destructor dabs { pb_decltor_free(&$$); (void)ctx; }
dabs(A) ::= LPAREN abs_decl(D) RPAREN.	{ A = D; }
dabs(A) ::= LBRACKET(T) RBRACKET.	{ pb_decltor_empty(ctx, &A, &T); pb_decltor_array(ctx, &A, NULL); }
dabs(A) ::= LBRACKET(T) assign_expr(E) RBRACKET.	{ pb_decltor_empty(ctx, &A, &T); pb_decltor_array(ctx, &A, E.j); }
dabs(A) ::= LPAREN(T) RPAREN.		{ pb_decltor_empty(ctx, &A, &T); pb_decltor_func(ctx, &A, json_array(), 0, 0); }
dabs(A) ::= LPAREN(T) param_list(P) RPAREN.	{ pb_decltor_empty(ctx, &A, &T); pb_decltor_func(ctx, &A, P, 0, 1); }
dabs(A) ::= LPAREN(T) param_list(P) COMMA ELLIPSIS RPAREN.	{ pb_decltor_empty(ctx, &A, &T); pb_decltor_func(ctx, &A, P, 1, 1); }
dabs(A) ::= dabs(A) LBRACKET RBRACKET.	{ pb_decltor_array(ctx, &A, NULL); }
dabs(A) ::= dabs(A) LBRACKET assign_expr(E) RBRACKET.	{ pb_decltor_array(ctx, &A, E.j); }
dabs(A) ::= dabs(A) LPAREN RPAREN.	{ pb_decltor_func(ctx, &A, json_array(), 0, 0); }
dabs(A) ::= dabs(A) LPAREN param_list(P) RPAREN.	{ pb_decltor_func(ctx, &A, P, 0, 1); }
dabs(A) ::= dabs(A) LPAREN param_list(P) COMMA ELLIPSIS RPAREN.	{ pb_decltor_func(ctx, &A, P, 1, 1); }

type_name(A) ::= decl_specs(S).		{ A = pb_typename(ctx, &S, NULL); }
type_name(A) ::= decl_specs(S) abs_decl(D).	{ A = pb_typename(ctx, &S, &D); }

/* initializers (C99 6.7.8) */
initializer(A) ::= assign_expr(E).	{ A = E.j; }
initializer(A) ::= LBRACE(T) init_items(L) comma_opt RBRACE.	{ A = pb_initlist(ctx, &T, L); }
initializer(A) ::= LBRACE(T) RBRACE.	{ A = pb_initlist(ctx, &T, NULL); }
init_items(A) ::= init_item(B).		{ A = NULL; pb_list_add(&A, B); }
init_items(A) ::= init_items(A) COMMA init_item(B).	{ pb_list_add(&A, B); }
init_item(A) ::= initializer(I).	{ A = pb_inititem(ctx, NULL, I); }
init_item(A) ::= designation(D) ASSIGN initializer(I).	{ A = pb_inititem(ctx, D, I); }
designation(A) ::= designator(B).	{ A = NULL; pb_list_add(&A, B); }
designation(A) ::= designation(A) designator(B).	{ pb_list_add(&A, B); }
designator(A) ::= LBRACKET(T) cond_expr(E) RBRACKET.	{ A = pb_desig(ctx, &T, "desig_index", E.j); }
designator(A) ::= DOT IDENT|TYPE_NAME(N).	{ A = pb_desig(ctx, &N, "desig_field", pb_name(&N)); }

/* ---- statements (C99 6.8) --------------------------------------------- */
block(A) ::= LBRACE(T) items(L) RBRACE.	{ A = pb_block(ctx, &T, L); }
block(A) ::= LBRACE(T) items(L) error RBRACE.
	{ A = pb_block(ctx, &T, L); yypParser->yyerrcnt = -1; }
items(A) ::= .				{ A = json_array(); }
items(A) ::= items(A) item(B).		{ pb_list_add(&A, B); }
item(A) ::= declaration(B).		{ A = B; }
item(A) ::= stmt(B).			{ A = B; }
item(A) ::= DIRECTIVE(T).		{ A = pb_directive(ctx, &T); }
item(A) ::= error SEMI.			{ A = NULL; yypParser->yyerrcnt = -1; }

stmt(A) ::= block(B).			{ A = B; }
stmt(A) ::= SEMI(T).			{ A = pb_stmt(ctx, "empty", &T); }
stmt(A) ::= expr(E) SEMI.		{ A = pb_expr_stmt(ctx, E); }
stmt(A) ::= IDENT(N) COLON stmt(S).
	{ A = pb_stmt(ctx, "label", &N); SET(A, "name", pb_name(&N)); SET(A, "stmt", S); }
stmt(A) ::= CASE(T) cond_expr(E) COLON stmt(S).
	{ A = pb_stmt(ctx, "case", &T); SET(A, "e", E.j); SET(A, "stmt", S); }
stmt(A) ::= DEFAULT(T) COLON stmt(S).
	{ A = pb_stmt(ctx, "default", &T); SET(A, "stmt", S); }
stmt(A) ::= IF(T) LPAREN expr(E) RPAREN stmt(S). [IFX]
	{ A = pb_stmt(ctx, "if", &T); SET(A, "cond", E.j); SET(A, "then", S); SET(A, "else", json_null()); }
stmt(A) ::= IF(T) LPAREN expr(E) RPAREN stmt(S) ELSE stmt(F).
	{ A = pb_stmt(ctx, "if", &T); SET(A, "cond", E.j); SET(A, "then", S); SET(A, "else", F); }
stmt(A) ::= SWITCH(T) LPAREN expr(E) RPAREN stmt(S).
	{ A = pb_stmt(ctx, "switch", &T); SET(A, "cond", E.j); SET(A, "body", S); }
stmt(A) ::= WHILE(T) LPAREN expr(E) RPAREN stmt(S).
	{ A = pb_stmt(ctx, "while", &T); SET(A, "cond", E.j); SET(A, "body", S); }
stmt(A) ::= DO(T) stmt(S) WHILE LPAREN expr(E) RPAREN SEMI.
	{ A = pb_stmt(ctx, "do", &T); SET(A, "body", S); SET(A, "cond", E.j); }
stmt(A) ::= FOR(T) LPAREN expr_opt(I) SEMI expr_opt(C) SEMI expr_opt(S) RPAREN stmt(B).
	{ A = pb_stmt(ctx, "for", &T); SET(A, "init", nn(I)); SET(A, "cond", nn(C)); SET(A, "step", nn(S)); SET(A, "body", B); }
stmt(A) ::= FOR(T) LPAREN declaration(I) expr_opt(C) SEMI expr_opt(S) RPAREN stmt(B).
	{ A = pb_stmt(ctx, "for", &T); SET(A, "init", nn(pb_for_init(ctx, I))); SET(A, "cond", nn(C)); SET(A, "step", nn(S)); SET(A, "body", B); }
stmt(A) ::= GOTO(T) IDENT|TYPE_NAME(N) SEMI.
	{ A = pb_stmt(ctx, "goto", &T); SET(A, "label", pb_name(&N)); }
stmt(A) ::= CONTINUE(T) SEMI.		{ A = pb_stmt(ctx, "continue", &T); }
stmt(A) ::= BREAK(T) SEMI.		{ A = pb_stmt(ctx, "break", &T); }
stmt(A) ::= RETURN(T) expr_opt(E) SEMI.
	{ A = pb_stmt(ctx, "return", &T); SET(A, "e", nn(E)); }

expr_opt(A) ::= .			{ A = NULL; }
expr_opt(A) ::= expr(E).		{ A = E.j; }

/* ---- expressions (C99 6.5), one level per precedence ------------------- */
%type primary { parse_ex }
%type postfix { parse_ex }
%type unary { parse_ex }
%type cast_expr { parse_ex }
%type mul_expr { parse_ex }
%type add_expr { parse_ex }
%type shift_expr { parse_ex }
%type rel_expr { parse_ex }
%type eq_expr { parse_ex }
%type and_expr { parse_ex }
%type xor_expr { parse_ex }
%type or_expr { parse_ex }
%type land_expr { parse_ex }
%type lor_expr { parse_ex }
%type cond_expr { parse_ex }
%type assign_expr { parse_ex }
%type expr { parse_ex }
%type strings { parse_ex }
%type args { parse_ex }
%destructor primary { json_decref($$.j); (void)ctx; }
%destructor postfix { json_decref($$.j); (void)ctx; }
%destructor unary { json_decref($$.j); (void)ctx; }
%destructor cast_expr { json_decref($$.j); (void)ctx; }
%destructor mul_expr { json_decref($$.j); (void)ctx; }
%destructor add_expr { json_decref($$.j); (void)ctx; }
%destructor shift_expr { json_decref($$.j); (void)ctx; }
%destructor rel_expr { json_decref($$.j); (void)ctx; }
%destructor eq_expr { json_decref($$.j); (void)ctx; }
%destructor and_expr { json_decref($$.j); (void)ctx; }
%destructor xor_expr { json_decref($$.j); (void)ctx; }
%destructor or_expr { json_decref($$.j); (void)ctx; }
%destructor land_expr { json_decref($$.j); (void)ctx; }
%destructor lor_expr { json_decref($$.j); (void)ctx; }
%destructor cond_expr { json_decref($$.j); (void)ctx; }
%destructor assign_expr { json_decref($$.j); (void)ctx; }
%destructor expr { json_decref($$.j); (void)ctx; }
%destructor strings { json_decref($$.j); (void)ctx; }
%destructor args { json_decref($$.j); (void)ctx; }

primary(A) ::= IDENT(T).		{ A = pb_id(ctx, &T); }
primary(A) ::= INTCONST(T).		{ A = pb_int(ctx, &T); }
primary(A) ::= FLOATCONST(T).		{ A = pb_float(ctx, &T); }
primary(A) ::= CHARCONST(T).		{ A = pb_char(ctx, &T); }
primary(A) ::= strings(S).		{ A = S; }
primary(A) ::= LPAREN(T) expr(E) RPAREN.	{ A = pb_paren(ctx, &T, E); }
/* guide, vector constructors: float4(a, b, c, d), float4_(...) */
primary(A) ::= CTOR(T) LPAREN RPAREN.	{ A = pb_ctor(ctx, &T, json_array(), 0, 0); }
primary(A) ::= CTOR(T) LPAREN args(L) RPAREN.	{ A = pb_ctor(ctx, &T, L.j, L.d, 0); }
primary(A) ::= CTOR_U(T) LPAREN RPAREN.	{ A = pb_ctor(ctx, &T, json_array(), 0, 1); }
primary(A) ::= CTOR_U(T) LPAREN args(L) RPAREN.	{ A = pb_ctor(ctx, &T, L.j, L.d, 1); }
/* spec 5 and BrookGPU: indexof(s), indexof s */
primary(A) ::= INDEXOF(T) LPAREN expr(E) RPAREN.	{ A = pb_indexof(ctx, &T, E); }
primary(A) ::= INDEXOF(T) IDENT(N).	{ A = pb_indexof(ctx, &T, pb_id(ctx, &N)); }

strings(A) ::= STRING(T).		{ A = pb_string(ctx, &T); }
strings(A) ::= strings(A) STRING(T).	{ pb_string_more(ctx, &A, &T); }

postfix(A) ::= primary(B).		{ A = B; }
postfix(A) ::= postfix(B) LBRACKET expr(I) RBRACKET.	{ A = pb_index(ctx, B, I); }
postfix(A) ::= postfix(B) LPAREN RPAREN.	{ A = pb_call(ctx, B, json_array(), 0); }
postfix(A) ::= postfix(B) LPAREN args(L) RPAREN.	{ A = pb_call(ctx, B, L.j, L.d); }
postfix(A) ::= postfix(B) DOT IDENT|TYPE_NAME(N).	{ A = pb_member(ctx, B, &N, 0); }
postfix(A) ::= postfix(B) ARROW IDENT|TYPE_NAME(N).	{ A = pb_member(ctx, B, &N, 1); }
postfix(A) ::= postfix(B) INC|DEC(T).	{ A = pb_unop(ctx, "postfix", &T, B, 1); }
postfix(A) ::= LPAREN(T) type_name(N) RPAREN LBRACE init_items(L) comma_opt RBRACE.
	{ A = pb_compound(ctx, &T, N, pb_initlist(ctx, &T, L)); }

/* an argument list: the array of arguments and the deepest one's depth */
args(A) ::= assign_expr(E).		{ A.j = NULL; A.d = 0; pb_args_add(&A, E); }
args(A) ::= args(A) COMMA assign_expr(E).	{ pb_args_add(&A, E); }

unary(A) ::= postfix(B).		{ A = B; }
unary(A) ::= INC|DEC(T) unary(B).	{ A = pb_unop(ctx, "unop", &T, B, 0); }
unary(A) ::= AMP|PLUS|MINUS|TILDE|NOT(T) cast_expr(B).	{ A = pb_unop(ctx, "unop", &T, B, 0); }
unary(A) ::= STAR(T) cast_expr(B).	{ A = pb_unop(ctx, "unop", &T, B, 0); }
unary(A) ::= SIZEOF(T) unary(B).	{ A = pb_unop(ctx, "sizeof", &T, B, 0); }
unary(A) ::= SIZEOF(T) LPAREN type_name(N) RPAREN.	{ A = pb_sizeof_type(ctx, &T, N); }

cast_expr(A) ::= unary(B).		{ A = B; }
cast_expr(A) ::= LPAREN(T) type_name(N) RPAREN cast_expr(E).	{ A = pb_cast(ctx, &T, N, E); }

mul_expr(A) ::= cast_expr(B).		{ A = B; }
mul_expr(A) ::= mul_expr(L) STAR|SLASH|PERCENT(T) cast_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
add_expr(A) ::= mul_expr(B).		{ A = B; }
add_expr(A) ::= add_expr(L) PLUS|MINUS(T) mul_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
shift_expr(A) ::= add_expr(B).		{ A = B; }
shift_expr(A) ::= shift_expr(L) SHL|SHR(T) add_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
rel_expr(A) ::= shift_expr(B).		{ A = B; }
rel_expr(A) ::= rel_expr(L) LT|GT|LE|GE(T) shift_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
eq_expr(A) ::= rel_expr(B).		{ A = B; }
eq_expr(A) ::= eq_expr(L) EQ|NE(T) rel_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
and_expr(A) ::= eq_expr(B).		{ A = B; }
and_expr(A) ::= and_expr(L) AMP(T) eq_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
xor_expr(A) ::= and_expr(B).		{ A = B; }
xor_expr(A) ::= xor_expr(L) CARET(T) and_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
or_expr(A) ::= xor_expr(B).		{ A = B; }
or_expr(A) ::= or_expr(L) PIPE(T) xor_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
land_expr(A) ::= or_expr(B).		{ A = B; }
land_expr(A) ::= land_expr(L) ANDAND(T) or_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
lor_expr(A) ::= land_expr(B).		{ A = B; }
lor_expr(A) ::= lor_expr(L) OROR(T) land_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
cond_expr(A) ::= lor_expr(B).		{ A = B; }
cond_expr(A) ::= lor_expr(C) QUESTION expr(T) COLON cond_expr(F).	{ A = pb_cond(ctx, C, T, F); }
assign_expr(A) ::= cond_expr(B).	{ A = B; }
assign_expr(A) ::= unary(L) ASSIGN|MULASSIGN|DIVASSIGN|MODASSIGN|ADDASSIGN|SUBASSIGN|SHLASSIGN|SHRASSIGN|ANDASSIGN|XORASSIGN|ORASSIGN(T) assign_expr(R).
	{ A = pb_binop(ctx, "assign", &T, L, R); }
expr(A) ::= assign_expr(B).		{ A = B; }
expr(A) ::= expr(L) COMMA(T) assign_expr(R).	{ A = pb_binop(ctx, "comma", &T, L, R); }

/* a stream dimension's expression: C99 6.5.7-6.5.16 without '>', '>=',
 * '>>' and '>>=' outside parentheses (see dims above) */
%type dim_shift { parse_ex }
%type dim_rel { parse_ex }
%type dim_eq { parse_ex }
%type dim_and { parse_ex }
%type dim_xor { parse_ex }
%type dim_or { parse_ex }
%type dim_land { parse_ex }
%type dim_lor { parse_ex }
%type dim_cond { parse_ex }
%type dim_assign { parse_ex }
%destructor dim_shift { json_decref($$.j); (void)ctx; }
%destructor dim_rel { json_decref($$.j); (void)ctx; }
%destructor dim_eq { json_decref($$.j); (void)ctx; }
%destructor dim_and { json_decref($$.j); (void)ctx; }
%destructor dim_xor { json_decref($$.j); (void)ctx; }
%destructor dim_or { json_decref($$.j); (void)ctx; }
%destructor dim_land { json_decref($$.j); (void)ctx; }
%destructor dim_lor { json_decref($$.j); (void)ctx; }
%destructor dim_cond { json_decref($$.j); (void)ctx; }
%destructor dim_assign { json_decref($$.j); (void)ctx; }

dim_shift(A) ::= add_expr(B).		{ A = B; }
dim_shift(A) ::= dim_shift(L) SHL(T) add_expr(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_rel(A) ::= dim_shift(B).		{ A = B; }
dim_rel(A) ::= dim_rel(L) LT|LE(T) dim_shift(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_eq(A) ::= dim_rel(B).		{ A = B; }
dim_eq(A) ::= dim_eq(L) EQ|NE(T) dim_rel(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_and(A) ::= dim_eq(B).		{ A = B; }
dim_and(A) ::= dim_and(L) AMP(T) dim_eq(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_xor(A) ::= dim_and(B).		{ A = B; }
dim_xor(A) ::= dim_xor(L) CARET(T) dim_and(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_or(A) ::= dim_xor(B).		{ A = B; }
dim_or(A) ::= dim_or(L) PIPE(T) dim_xor(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_land(A) ::= dim_or(B).		{ A = B; }
dim_land(A) ::= dim_land(L) ANDAND(T) dim_or(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_lor(A) ::= dim_land(B).		{ A = B; }
dim_lor(A) ::= dim_lor(L) OROR(T) dim_land(R).	{ A = pb_binop(ctx, "binop", &T, L, R); }
dim_cond(A) ::= dim_lor(B).		{ A = B; }
dim_cond(A) ::= dim_lor(C) QUESTION expr(T) COLON dim_cond(F).	{ A = pb_cond(ctx, C, T, F); }
dim_assign(A) ::= dim_cond(B).		{ A = B; }
dim_assign(A) ::= unary(L) ASSIGN|MULASSIGN|DIVASSIGN|MODASSIGN|ADDASSIGN|SUBASSIGN|SHLASSIGN|ANDASSIGN|XORASSIGN|ORASSIGN(T) dim_assign(R).
	{ A = pb_binop(ctx, "assign", &T, L, R); }
