/* ast.h - the AST of a translation unit, as the brast(5) file holds it.
 *
 * The AST in memory IS the JSON document of brast(5): a tree of json.h's
 * values (jansson's interface). Every stage (brparse, brcheck, brgen,
 * brrun) reads and writes the same objects, so the pipe format and the
 * in-memory form cannot drift apart. This header
 * is the contract; man/brast.5 documents it for users.
 *
 * Document:
 *   {"brast": 1, "stage": "parsed"|"checked", "files": ["sum.br", ...],
 *    "decls": [DECL...]}
 *
 * Every node is an object with
 *   "k":  its kind (below)
 *   "at": [file, line, col]  index into "files", 1-based line and column of
 *         the original source (taken from brpp's linemarkers)
 *
 * TYPES (objects with "t", no "k"; the same form is used for declared types
 * and for the types brcheck computes)
 *   {"t":"void"} {"t":"bool"}
 *   {"t":"char"|"schar"|"uchar"|"short"|"ushort"|"int"|"uint"|"long"|"ulong"|
 *        "llong"|"ullong"|"float"|"double"|"ldouble"}
 *   {"t":"cfloat"|"cdouble"|"cldouble"|"ifloat"|"idouble"|"ildouble"}
 *       C99's float _Complex ... long double _Imaginary (host code)
 *   {"t":"float2".."float4"|"double2".."double4"|"int2".."int4"|
 *        "uint2".."uint4"|"char2".."char4"|"uchar2".."uchar4"|"short2"..
 *        "short4"|"ushort2".."ushort4"|"long2".."long4"|"ulong2".."ulong4"}
 *       (Brook's built-in vector types; "unsigned int4" is "uint4")
 *   {"t":"ptr", "to":TYPE}
 *   {"t":"array", "of":TYPE, "size":EXPR|null}          C array  T x[N]
 *       a parameter's array may also have "quals", "static": true and
 *       "star": true (C99 6.7.5.2: int a[static const 10], int b[*])
 *   {"t":"stream", "of":TYPE, "dims":[EXPR|null,...]}   Brook stream T x<..>
 *       "dims" lists the sizes as written, slowest first: float a<10,20>
 *       has dims [10,20]; a<> has [null]; e<,100> has [null,100].
 *       float b<>[2][3] is stream of array[2] of array[3] of float.
 *   {"t":"func", "ret":TYPE, "params":[PARAM...], "variadic":bool,
 *        "proto":bool}   proto false for K&R "int f()", and for a K&R
 *       definition "int f(a, b) int a; float b; {...}", whose params are
 *       those of "int f(int a, float b)" (int where none is declared)
 *   {"t":"struct"|"union", "tag":"name"|null, "fields":[FIELD...]}
 *       "fields" present only where the body is written; a reference to a
 *       tag declared elsewhere has no "fields". brparse adds "at" (where
 *       the keyword stands) to struct, union and enum types.
 *   {"t":"enum", "tag":"name"|null, "items":[{"name":"A","value":EXPR|null}]}
 *       "items" present only where the body is written; each item has
 *       "at" too.
 *   {"t":"typedef", "name":"size_t"}        a typedef name, as written
 *   Any type may carry "quals":["const","volatile","restrict"] (C
 *   qualifiers, in source order).
 *   FIELD: {"k":"field", "at":AT, "name":"x"|null, "type":TYPE,
 *           "bits":EXPR|null}
 *
 * DECLARATIONS (in "decls", and in blocks)
 *   {"k":"decl", "storage":null|"typedef"|"extern"|"static"|"auto"|
 *        "register", "type":TYPE, "vars":[VAR...]}
 *       One C declaration. "type" is the specifier type (what precedes the
 *       declarators: used to print "struct s {..} a, b;" once); each VAR
 *       holds its full type. A declaration with no declarator
 *       ("struct s { int x; };") has "vars": [].
 *   VAR: {"k":"var", "at":AT, "name":"a", "type":TYPE, "init":INIT|null,
 *         "quals":["shared","iter",...]}
 *       BrookGPU's "float4 a(1.0f, 2.0f, 3.0f, 4.0f)" has the init
 *       float4(1.0f, ...) (a ctor), "float4 c(b)" the init b.
 *       "quals": Brook qualifiers on a local or global (shared, iter, out,
 *       vout, reduce where written in the wrong place, so brcheck can say
 *       so).
 *   INIT: an EXPR, or {"k":"initlist", "at":AT, "items":[ITEM...]}
 *       ITEM: {"k":"inititem", "at":AT, "desig":[DESIG...], "value":INIT}
 *       DESIG: {"k":"desig_field","at":AT,"name":"x"} |
 *              {"k":"desig_index","at":AT,"index":EXPR}
 *   {"k":"func", "at":AT, "name":"sum", "storage":null|"static"|"extern",
 *        "inline":bool, "kernel":bool, "reduce":bool,
 *        "attrs":[ATTR...], "type":{"t":"func",...}, "body":BLOCK|null}
 *       "kernel": declared with the kernel keyword; "reduce": declared with
 *       the reduce keyword (reduce void f(...)). body null: a prototype.
 *       "noret": true when a kernel was written with no return type (its
 *       "ret" is then void). A declaration whose declarator is a function
 *       (not a typedef) is a func node with body null; one that declares
 *       functions and variables together ("int f(void), x;") becomes
 *       several nodes, in order.
 *   PARAM: {"k":"param", "at":AT, "name":"a"|null, "type":TYPE,
 *           "quals":["out"|"vout"|"reduce"|"iter"|"const"...]}
 *       ("vout", BrookGPU's variable output, is kept for brcheck to
 *       refuse: spec 7.1 "vout deprecated")
 *       "const" is listed when the type is const (the type's "quals"
 *       say so too; a printer prints it from the type).
 *       Stream parameters have a stream type (float a<>); gather parameters
 *       an array type (float b[][], float b[5][5]: sizes as written, null
 *       where empty); scatter parameters an array type with "out".
 *   ATTR: {"k":"attr", "at":AT, "name":"GroupSize", "args":[EXPR...]}
 *       from Attribute[GroupSize(64, 1, 1)] before a kernel.
 *   {"k":"directive", "at":AT, "text":"#include <stdio.h>"}
 *       a line brpp passed through (#include <...>, #pragma), re-emitted in
 *       place by brgen. Appears in "decls" and in blocks. A line written
 *       with the digraph %: has # in "text".
 *
 * STATEMENTS
 *   {"k":"block", "items":[DECL|STMT|directive...]}
 *   {"k":"expr", "e":EXPR}                 expression statement
 *   {"k":"empty"}                          ;
 *   {"k":"if", "cond":EXPR, "then":STMT, "else":STMT|null}
 *   {"k":"while", "cond":EXPR, "body":STMT}
 *   {"k":"do", "body":STMT, "cond":EXPR}
 *   {"k":"for", "init":DECL|EXPR|null, "cond":EXPR|null, "step":EXPR|null,
 *        "body":STMT}
 *   {"k":"switch", "cond":EXPR, "body":STMT}
 *   {"k":"case", "e":EXPR, "stmt":STMT}   {"k":"default", "stmt":STMT}
 *   {"k":"label", "name":"l", "stmt":STMT}  {"k":"goto", "label":"l"}
 *   {"k":"break"} {"k":"continue"} {"k":"return", "e":EXPR|null}
 *
 * EXPRESSIONS
 *   {"k":"id", "name":"a"}
 *   {"k":"int", "text":"0x10u", "value":16}         value: the number, or
 *        a string of decimal digits when it does not fit in int64
 *   {"k":"float", "text":"1.5f", "value":1.5}
 *   {"k":"char", "text":"'a'", "value":97}
 *   {"k":"string", "text":"\"ab\" \"c\""}   the literal(s) as written,
 *        adjacent pieces joined by one space
 *   {"k":"binop", "op":"+"|"-"|"*"|"/"|"%"|"<<"|">>"|"<"|">"|"<="|">="|
 *        "=="|"!="|"&"|"^"|"|"|"&&"|"||", "l":EXPR, "r":EXPR}
 *   {"k":"assign", "op":"="|"+="|"-="|"*="|"/="|"%="|"<<="|">>="|"&="|
 *        "^="|"|=", "l":EXPR, "r":EXPR}
 *   {"k":"unop", "op":"-"|"+"|"!"|"~"|"*"|"&"|"++"|"--", "e":EXPR}
 *        (++/-- here are the prefix forms)
 *   {"k":"postfix", "op":"++"|"--", "e":EXPR}
 *   {"k":"cond", "c":EXPR, "t":EXPR, "f":EXPR}
 *   {"k":"comma", "l":EXPR, "r":EXPR}
 *   {"k":"call", "fn":EXPR, "args":[EXPR...]}
 *        also instance(), instanceInGroup(), syncGroup(), iter(a, b),
 *        streamRead(s, p), builtins; s.domain(a, b) is a call whose "fn" is
 *        a member node.
 *   {"k":"ctor", "type":TYPE, "args":[EXPR...]}     float4(a, b, c, d) and
 *        float4_(a, b, c, d): a vector constructor; "underscore": true for
 *        the float4_ spelling.
 *   {"k":"index", "a":EXPR, "i":EXPR}
 *   {"k":"member", "e":EXPR, "name":"x", "arrow":bool}  also swizzles
 *   {"k":"cast", "type":TYPE, "e":EXPR}
 *   {"k":"sizeof", "type":TYPE} | {"k":"sizeof", "e":EXPR}
 *   {"k":"compound", "type":TYPE, "init":INIT}       (T){...}
 *   {"k":"indexof", "e":EXPR}                        indexof(a), indexof a
 *   {"k":"paren", "e":EXPR}                          (e), kept so printing
 *        gives back the program's own grouping
 *
 * WHAT BRCHECK ADDS (stage "checked")
 *   every VAR, PARAM, func, FIELD and enum item: "id": N, unique in the file
 *   every "id" EXPR that names a declaration: "ref": N (absent for a name
 *        only the host C compiler knows, such as printf)
 *   every EXPR: "ty": TYPE, with typedefs resolved; a name only the host C
 *        compiler knows has {"t":"unknown"}
 *   every "member" on a vector: "swizzle": [0..3, ...] component indices
 *   every "call": "callee": "kernel"|"reduce"|"sub"|"builtin"|"host"|
 *        "method"|"stream_op", and for builtins "builtin": "dot" etc.
 *   every "func" with "kernel" or "reduce": "class": "map"|"reduce"|
 *        "scatter"|"group", and "sub": true when another kernel calls it
 *   every PARAM of a kernel: "role": "in"|"out"|"gather"|"scatter"|
 *        "value"|"reduce"
 *   every "assign" whose left side is a reduce parameter: "reduce_op"
 *   "options": {"a": bool, "c": bool, ...} the semantic flags in force
 *   "digest": "16 hex digits", the document's last member in the text
 *        brcheck writes: the digest of the bytes before it (brast(5),
 *        util_digest), so brgen can skip checking an unedited file again;
 *        brast_load drops it
 */
#ifndef BROOK_AST_H
#define BROOK_AST_H

#include <string.h>

#include "brook/json.h"

#define BRAST_VERSION 1

/* Node accessors. All accept NULL and return NULL/""/0 when the field is
 * missing or of another JSON type, so callers test once, not at every step.
 * Inline, so that the length of a literal KEY is known where it is
 * written: json_object_get would count it again at each of the hundreds
 * of thousands of lookups the generators make. */
const char *ast_kind(const json_t *n);			/* n["k"] */

/* kind == n["k"]; most questions are answered no by the first letter,
 * which inline is a constant where KIND is a literal */
static inline int ast_is(const json_t *n, const char *kind)
{
	const char *k = kind ? ast_kind(n) : "";
	return kind && k[0] == kind[0] && strcmp(k, kind) == 0;
}

/* A number as written, signed or parenthesized: 5, -1.5f, (+'a'). */
int ast_is_literal(const json_t *n);
/* The type ("ty") the arguments ARGS of a built-in function are brought
 * to: the first one's that is not a literal, else the first one's. */
const json_t *ast_args_type(const json_t *args);

static inline json_t *ast_get(const json_t *n, const char *key) /* any */
{
	return n && key ? json_object_getn(n, key, strlen(key)) : NULL;
}

static inline const char *ast_str(const json_t *n, const char *key)
{
	const char *s = json_string_value(ast_get(n, key));
	return s ? s : "";
}

static inline json_t *ast_arr(const json_t *n, const char *key)
{
	json_t *a = ast_get(n, key);
	return json_is_array(a) ? a : NULL;
}

static inline int ast_bool(const json_t *n, const char *key)
{
	return json_is_true(ast_get(n, key));
}

static inline long long ast_int(const json_t *n, const char *key)
{
	return (long long)json_integer_value(ast_get(n, key));
}

/* json_array_foreach with ARRAY evaluated once: json_array_foreach
 * evaluates it twice a step, and where it is an ast_arr of a node that is
 * a lookup each time. Not for a loop whose body changes which array ARRAY
 * names. */
#define ast_array_foreach(array, index, value) \
	for (const json_t *ast_foreach_a = ((index) = 0, (array)); \
		(index) < json_array_size(ast_foreach_a) && \
		((value) = json_array_get(ast_foreach_a, (index))); \
		(index)++)

/* Whether a walk over the nodes under a node enters its member KEY: all
 * but the location "at" and brcheck's type "ty". Inline and without
 * strcmp: the walks ask it of every member of every node. */
static inline int ast_walks(const char *key)
{
	return !(((key[0] == 'a' && key[1] == 't') ||
		(key[0] == 't' && key[1] == 'y')) && key[2] == '\0');
}

/* The first node under N, N itself first, depth first through the members
 * ast_walks enters, for which PRED(node, CTX) holds; NULL if none. */
const json_t *ast_find(const json_t *n,
	int (*pred)(const json_t *node, const void *ctx), const void *ctx);

/* Location: n["at"] as file name (from the document's "files"), line, col.
 * Returns 0 when n has a location. */
int ast_at(const json_t *doc, const json_t *n, const char **file, int *line,
	int *col);

/* Node construction (new references). */
json_t *ast_node(const char *kind, int file, int line, int col);
json_t *ast_type(const char *t);			/* {"t": t} */

/* The JSON text of an AST file as a tree, faster than json_loadb;
 * NULL where the text is not plain valid JSON, and then json_loadb gives
 * the tree or the error (brast_load does both). Equal short "ty" objects,
 * small integers and short strings are one value referenced from each
 * place: code that reads a loaded tree must not change those in place. */
json_t *ast_read_json(const char *text, size_t len);

/* Reads FD to its end into TEXT (emptied first; NUL-terminated), and
 * meanwhile reads the document as it arrives: *DOC is then the tree
 * ast_read_json makes of TEXT, or NULL where it makes none. So a tool at
 * the end of a pipe reads while the one before it still writes. Returns
 * 0, or -1 with errno set where a read failed (*DOC NULL). */
struct strbuf;
int ast_read_fd(int fd, struct strbuf *text, json_t **doc);
/* ast_read_fd, calling EACH(ARG, ELEM, I) for each element of the
 * document's "decls" as soon as it is read whole, I from 0 in order: a
 * tool can work on the first declarations while the rest arrive. The
 * elements handed out are those of *DOC only where the text was read as
 * it arrived; a text that only ast_read_json reads (and json_loadb) gives
 * a tree of its own, made again, so a caller compares. */
typedef void ast_each_fn(void *arg, json_t *elem, size_t i);
int ast_read_fd_each(int fd, struct strbuf *text, json_t **doc,
	ast_each_fn *each, void *arg);
/* For tests: the most bytes one read of ast_read_fd takes (0, as at the
 * start: as many as there is room for), so that a unit is cut off at
 * every place. */
void ast_read_fd_limit(size_t n);

/* ast_write.c: V as compact JSON text, byte for byte what json_dumps
 * writes without flags (brast_dump adds the newline), appended to B and
 * NUL-terminated; and one string as a JSON string. Faster than
 * json_dumps on a document of megabytes. */
void ast_write_json(struct strbuf *b, const json_t *v);
/* ast_write_json into B (emptied first), with the text sent on to FD in
 * pieces while it grows, so that a reader at the other end of a pipe
 * starts on it before the end is written. Returns how many bytes of B
 * went to FD: all but a tail (at least the closing bracket), which the
 * caller writes when it has ended the text. A failed write stops the
 * sending and sets *ERR to its errno (else 0). */
size_t ast_write_json_fd(struct strbuf *b, const json_t *v, int fd,
	int *err);
void ast_write_string(struct strbuf *b, const char *s, size_t n);

/* A document written as its "decls" are made, in the text that
 * ast_write_json_fd gives of the whole: ast_send_begin writes into B
 * (emptied first) the members of HEAD, then "decls":[; ast_send_elem each
 * element, sending the text on to FD in pieces between elements;
 * ast_send_end closes the array, writes the members of TAIL (may be NULL)
 * and closes the document, and returns the bytes of B sent, the rest
 * being the caller's to write (as ast_write_json_fd), with *ERR the errno
 * of a failed write (else 0). ast_send_drop ends it without more text. */
typedef struct ast_sender ast_sender;
ast_sender *ast_send_begin(struct strbuf *b, int fd, const json_t *head);
void ast_send_elem(ast_sender *s, const json_t *v);
size_t ast_send_end(ast_sender *s, const json_t *tail, int *err);
void ast_send_drop(ast_sender *s);

/* Every JSON value made between ast_arena_begin() and ast_arena_end()
 * comes from one arena, freed at once by ast_arena_end(); freeing a value
 * before that frees nothing, so a tool need not free its AST. For main()
 * only: the hooks are process-wide. (json_dumps' text comes from malloc
 * all the same.) */
void ast_arena_begin(void);
void ast_arena_end(void);
/* Threads and the arena: between ast_arena_share() and ast_arena_unshare()
 * (both called by the thread of main()), a thread that called
 * ast_arena_enter() allocates from an arena of its own, which lasts until
 * ast_arena_end() like the rest. Each returns 0, or -1 when it cannot:
 * ast_arena_share leaves the arena to one thread, and a thread whose
 * ast_arena_enter fails must make no JSON value. Without an arena
 * installed they change nothing (malloc serves threads). */
int ast_arena_share(void);
int ast_arena_enter(void);
void ast_arena_unshare(void);

#endif
