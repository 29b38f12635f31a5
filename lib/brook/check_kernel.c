/* check_kernel.c - functions and kernels: classification of each kernel
 * as map, reduce, scatter or group (spec 4.1, guide 1.17), the rules on
 * parameters and attributes, and the checks after the pass (recursion,
 * group intrinsics). */
#include "config.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "brook/ast.h"
#include "brook/check_int.h"
#include "brook/type.h"
#include "brook/util.h"

const char *const chk_role_names[] = {
	NULL, "in", "out", "gather", "scatter", "value", "reduce"
};

const char *const chk_class_names[] = {
	NULL, "map", "reduce", "scatter", "group"
};

/* ---- kernels: classification (pre-pass) --------------------------------- */

/* The qualifiers of parameter P and of its type (chk_quals). */
static unsigned param_quals(json_t *p)
{
	return chk_quals(ast_get(p, "quals")) |
		chk_quals(ast_get(ast_get(p, "type"), "quals"));
}

static chk_role param_role(json_t *p)
{
	json_t *t = ast_get(p, "type");
	unsigned q = param_quals(p);
	/* vout (refused, chk_vout) is an output, so the body checks as one */
	int out = (q & (CHK_Q_OUT | CHK_Q_VOUT)) != 0;
	if (q & CHK_Q_REDUCE)
		return ROLE_REDUCE;
	if (ty_is_stream(t))
		return out ? ROLE_OUT : ROLE_IN;
	if (ty_is_array(t))
		return out ? ROLE_SCATTER : ROLE_GATHER;
	return out ? ROLE_OUT : ROLE_VALUE;
}

/* Product of the GroupSize attribute's constant values; 0 if none. Its
 * first value in *FIRST when FIRST is not NULL (0 if none). */
static long long group_size(json_t *f, long long *first)
{
	size_t i, j;
	json_t *a, *v;
	if (first)
		*first = 0;
	json_array_foreach(ast_get(f, "attrs"), i, a) {
		if (!ty_streq(ast_str(a, "name"), "GroupSize"))
			continue;
		long long n = 1, x;
		json_array_foreach(ast_get(a, "args"), j, v)
			if (chk_int_literal(v, &x) && x > 0) {
				n *= x;
				if (j == 0 && first)
					*first = x;
			}
		return json_array_size(ast_get(a, "args")) ? n : 0;
	}
	return 0;
}

/* Sets "role" on each parameter and "class" on the function (ast.h);
 * spec 4.1.2 (footnote 3: a reduce parameter makes a reduction), guide
 * 1.17 (GroupSize), 4.2 (scatter). */
void chk_classify(chk_ctx *c, chk_fn *fn, json_t *f)
{
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	size_t i;
	json_t *p;
	int streams = 0, reduce = 0, scatter = 0;
	if (!fn->kernel)
		return;
	json_array_foreach(params, i, p) {
		chk_role r = param_role(p);
		streams += r == ROLE_IN || r == ROLE_OUT;
		reduce += r == ROLE_REDUCE;
		scatter += r == ROLE_SCATTER;
		json_object_set_new_nocheck(p, "role",
			json_string_nocheck(chk_role_names[r]));
	}
	/* spec 4.1.2: reduce void max_reduce(double a, reduce double b): with
	 * no stream, the first other parameter is the input */
	if (!streams && ast_bool(f, "reduce"))
		json_array_foreach(params, i, p)
			if (chk_role_of(p) == ROLE_VALUE) {
				json_object_set_new_nocheck(p, "role",
					json_string_nocheck(chk_role_names[ROLE_IN]));
				break;
			}
	long long gx;
	long long gs = group_size(f, &gx);
	chk_class cls = reduce || ast_bool(f, "reduce") ? CLASS_REDUCE :
		gs ? CLASS_GROUP : scatter ? CLASS_SCATTER : CLASS_MAP;
	json_object_set_new_nocheck(f, "class",
		json_string_nocheck(chk_class_names[cls]));
	if (f == fn->def || !fn->def) {
		fn->cls = cls;
		fn->groupsize = gs;
		fn->group_x = gx;
	}
	(void)c;
}

/* ---- kernels: the rules on a definition --------------------------------- */

/* guide 1.17.1: Attribute[GroupSize(x, y, z)]. */
static void attributes(chk_ctx *c, json_t *f, int kernel)
{
	size_t i, j;
	json_t *a, *v;
	int seen = 0;
	json_array_foreach(ast_get(f, "attrs"), i, a) {
		json_t *args = ast_get(a, "args");
		json_array_foreach(args, j, v)
			chk_expr(c, v);
		if (!kernel || !ty_streq(ast_str(a, "name"), "GroupSize")) {
			chk_err(c, a, "E-attr-unknown", "Unsupported kernel Attribute: %s",
				ast_str(a, "name"));
			continue;
		}
		if (seen++) {
			chk_err(c, a, "E-groupsize-dup", "More than one GroupSize "
				"specified: only one GroupSize allowed");
			continue;
		}
		size_t n = json_array_size(args);
		if (n == 0)
			chk_err(c, a, "E-groupsize-empty", "GroupSize must have values");
		else if (n > 4)
			chk_err(c, a, "E-groupsize-arity",
				"More than 4 components not allowed in GroupSize");
		long long prod = 1, x;
		json_array_foreach(args, j, v) {
			if (!chk_int_literal(v, &x) || x <= 0) {
				chk_err(c, v, "E-groupsize-value", "GroupSize values must be "
					"positive integer constants");
				continue;
			}
			prod *= x;
			if (j > 0 && x != 1 && c->o->portable)
				chk_warn(c, 1, v, "W-portable-groupsize", "dimension %zu of "
					"GroupSize must be 1", j + 1);
		}
		if (c->o->portable && prod > 1024)
			chk_warn(c, 1, a, "W-portable-groupsize", "Group size must be <= "
				"1024");
	}
}

/* spec 6.3.7, 6.3.11: gather and scatter array sizes. */
static void array_param(chk_ctx *c, json_t *p, json_t *t, chk_role r,
	int *ncbuf)
{
	int rank = 0, known = 0, bad_size = 0;
	long long n;
	for (json_t *a = t; ty_is_array(a); a = ast_get(a, "of")) {
		json_t *sz = ast_get(a, "size");
		rank++;
		if (!sz || json_is_null(sz))
			continue;
		known++;
		const char *what = r == ROLE_SCATTER ? "Scatter" : "Gather";
		if (chk_int_literal(sz, &n)) {
			if (n <= 0) {
				chk_err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
					"E-gather-size", "%s Array size must be non-zero "
					"positive int value if specified", what);
				bad_size = 1;
			}
		} else if (!ty_scalar_is_integer(ty_scalar(ast_get(sz, "ty")))) {
			chk_err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
				"E-gather-size", "%s Array size must be constant int type "
				"if specified", what);
			bad_size = 1;
		} else {
			chk_err(c, sz, r == ROLE_SCATTER ? "E-scatter-size" :
				"E-gather-size", "%s Array size expression must be simple "
				"constant int if specified", what);
			bad_size = 1;
		}
	}
	if (r == ROLE_SCATTER) {
		if (known && !bad_size)
			chk_warn(c, 1, p, "W-scatter-size", "Specifying scatter array "
				"sizes have no meaning presently. Do not specify sizes");
		if (c->o->portable && ty_is_struct(ty_base(t)))
			chk_warn(c, 1, p, "W-portable-scatter", "Scatter stream not "
				"supported for struct");
		return;
	}
	if (known && known < rank) {
		const char *msg = "Incomplete array size specification: Specify all "
			"array sizes for cached gather array (e.g. a[5][5]) or no "
			"array sizes for Streams (e.g. a[][])";
		if (c->o->c)
			chk_warn(c, 1, p, "W-gather-incomplete", "%s", msg);
		else
			chk_err(c, p, "E-gather-incomplete", "%s", msg);
	}
	if (known == rank && !bad_size && !c->o->c) {
		(*ncbuf)++;
		if (c->o->portable && chk_array_count(t) > 4096)
			chk_warn(c, 1, p, "W-portable-cbuf", "Total number of elements of a "
				"constant buffer must be <= 4096");
	}
}

static void kernel_params(chk_ctx *c, json_t *f)
{
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	size_t i;
	json_t *p;
	int n[ROLE_REDUCE + 1] = {0}, ncbuf = 0;
	json_t *in = NULL, *red = NULL;
	json_array_foreach(params, i, p) {
		chk_role r = chk_role_of(p);
		json_t *raw = ast_get(p, "type");
		json_t *t = chk_resolve(c, raw);
		n[r]++;
		if (r == ROLE_IN && !in)
			in = p;
		if (r == ROLE_REDUCE && !red)
			red = p;
		if (param_quals(p) & CHK_Q_CONST)
			chk_err(c, p, "E-param-const", "Nothing special to use const "
				"qualifier for kernel parameters. It is a reserved usage");
		if ((chk_type_quals(raw) | chk_quals(ast_get(p, "quals"))) &
			(CHK_Q_VOLATILE | CHK_Q_RESTRICT))
			chk_err(c, p, "E-kernel-qualifier", "volatile or restrict "
				"qualifiers not allowed for kernel parameters");
		if (chk_type_has_ptr(ty_is_stream(t) ? ast_get(t, "of") : t))
			chk_err(c, p, "E-kernel-pointer",
				"pointers not allowed inside kernel");
		if (r == ROLE_OUT && !ty_is_stream(t))
			chk_err(c, p, "E-out-not-stream",
				"non-reduce output parameter must be stream type");
		if (!chk_stream_of_arrays(c, p, t) && ty_is_stream(t) &&
			!chk_stream_elem_ok(c, ast_get(t, "of"), 0)) {
			char *tn = TN(ast_get(t, "of"));
			chk_err(c, p, "E-stream-elem",
				"Stream element type not supported: %s", tn);
			free(tn);
		}
		chk_kernel_type(c, p, t);
		chk_stream_rank(c, p, t);
		if (r == ROLE_GATHER || r == ROLE_SCATTER)
			array_param(c, p, t, r, &ncbuf);
		json_decref(t);
	}
	/* spec 4.1.2, brookgpu: one input and one reduce output of the same
	 * type; a gather array is an input stream too (spec 7: "only one
	 * input stream"), and the combining step of a reduction has no
	 * element of it to read */
	if (n[ROLE_REDUCE] || ast_bool(f, "reduce")) {
		if (!n[ROLE_REDUCE])
			chk_err(c, f, "E-reduce-missing", "Specify reduce qualifier for "
				"kernel: a reduce function needs a reduce parameter");
		else if (n[ROLE_REDUCE] != 1 || n[ROLE_IN] != 1 || n[ROLE_OUT] ||
			n[ROLE_SCATTER] || n[ROLE_GATHER])
			chk_err(c, f, "E-reduce-params", "reduction kernel can only have "
				"one input stream and one reduction output scalar/stream");
		else {
			json_t *it = chk_resolve(c, ast_get(in, "type"));
			json_t *rt = chk_resolve(c, ast_get(red, "type"));
			json_t *ie = ty_is_stream(it) ? ast_get(it, "of") : it;
			json_t *re = ty_is_stream(rt) ? ast_get(rt, "of") : rt;
			if (!ty_equal(ie, re)) {
				char *a = TN(ie), *b = TN(re);
				chk_err(c, f, "E-reduce-type", "Both the input and the output "
					"stream of the reduction must be of the same type: "
					"%s and %s", a, b);
				free(a);
				free(b);
			} else if (ty_is_struct(re) && !ast_bool(f, "reduce")) {
				/* spec 4.1.2: "Reduction variables can be any of
				 * the primitive types" */
				const json_t *rw = ast_get(red, "type");
				char *a = TN(ty_is_stream(rw) ? ast_get(rw, "of") : rw);
				chk_err(c, red, "E-reduce-var-type", "reduction variable "
					"\"%s\" is of the struct type %s: +=, *=, |=, ^= and "
					"&= reduce primitive types only; a reduce function "
					"(reduce void f(%s a<>, reduce %s b<>)) reduces "
					"structs", ast_str(red, "name"), a, a, a);
				free(a);
			}
			json_decref(it);
			json_decref(rt);
		}
	}
	if (n[ROLE_SCATTER] > 1)
		chk_err(c, f, "E-scatter-count", "Only one scatter output allowed");
	if (n[ROLE_SCATTER] && n[ROLE_OUT])
		chk_err(c, f, "E-scatter-mixed",
			"Both scatter output and stream output not allowed");
	if (group_size(f, NULL) && n[ROLE_OUT])
		chk_err(c, f, "E-groupsize-output", "Output must be a scatter type if "
			"you specify GroupSize attribute");
	if (c->o->portable) {
		if (n[ROLE_OUT] + n[ROLE_SCATTER] > 8)
			chk_warn(c, 1, f, "W-portable-outputs", "more than 8 outputs: the "
				"2008 hardware binds at most 8 outputs to a kernel");
		if (n[ROLE_IN] + n[ROLE_GATHER] > 128)
			chk_warn(c, 1, f, "W-portable-inputs", "more than 128 inputs: the "
				"2008 hardware binds at most 128 inputs to a kernel");
		if (ncbuf > 10)
			chk_warn(c, 1, f, "W-portable-cbuf", "Maximum number of constant "
				"buffers allowed is 10");
	}
}

/* Whether type T (not a struct's fields) names typedef NAME. */
static int names_typedef(const json_t *t, const char *name)
{
	size_t i;
	json_t *p;

	for (; json_is_object(t); t = ast_get(t, ty_is_ptr(t) ? "to" : "of")) {
		if (ty_streq(ty_kind(t), "typedef"))
			return ty_streq(ast_str(t, "name"), name);
		if (ty_streq(ty_kind(t), "func")) {
			json_array_foreach(ast_arr(t, "params"), i, p)
				if (names_typedef(ast_get(p, "type"), name))
					return 1;
			return names_typedef(ast_get(t, "ret"), name);
		}
	}
	return 0;
}

/* C99 6.2.1: parameter P (the Ith of PARAMS), named NAME, hides the
 * typedef of that name from the parameters after it. */
static void hides_type(chk_ctx *c, json_t *params, size_t i, json_t *p,
	const char *name)
{
	chk_sym *s = chk_lookup(&c->names, name);
	json_t *q;

	if (!s || s->kind != SYM_TYPEDEF)
		return;
	for (i++; (q = json_array_get(params, i)); i++)
		if (names_typedef(ast_get(q, "type"), name)) {
			chk_err(c, p, "E-param-hides-type", "parameter \"%s\" "
				"hides the typedef that parameter %s's type "
				"names: rename it", name, ast_str(q, "name"));
			return;
		}
}

/* Parameters in the function's scope, as the body sees them: a stream
 * parameter names one element. */
static void declare_params(chk_ctx *c, json_t *f, int kernel)
{
	json_t *params = ast_arr(ast_get(f, "type"), "params");
	size_t i;
	json_t *p;
	json_array_foreach(params, i, p) {
		const char *name = ast_str(p, "name");
		json_t *t = chk_decl_type(c, p, "type");
		unsigned q = param_quals(p);
		chk_give_id(c, p);
		c->in_params++;
		chk_walk_sizes(c, ast_get(p, "type"));
		c->in_params--;
		if (!kernel && (q & (CHK_Q_OUT | CHK_Q_REDUCE)))
			chk_err(c, p, q & CHK_Q_OUT ? "E-out-qualifier" :
				"E-reduce-qualifier", "%s qualifier allowed only for kernel "
				"parameters", q & CHK_Q_OUT ? "out" : "reduce");
		if (q & CHK_Q_VOUT)
			chk_vout(c, p);
		if ((q & CHK_Q_ITER) && !ty_is_stream(t))
			chk_iter_qual(c, p);
		if (q & CHK_Q_SHARED)
			chk_err(c, p, "E-shared-placement", "Shared qualifier valid only "
				"for Local Array declared inside kernel");
		if (!kernel)
			chk_stream_of_arrays(c, p, t);
		if (!*name || json_is_null(ast_get(p, "name"))) {
			json_decref(t);
			continue;
		}
		if (chk_in_scope(c, &c->names, name))
			chk_err(c, p, "E-duplicate", "Variable name Duplicated: %s", name);
		chk_role r = chk_role_of(p);
		if (kernel && ty_is_stream(t)) {
			json_t *e = chk_resolve(c, ast_get(t, "of"));
			json_decref(t);
			t = e;
		}
		if (kernel && chk_type_has_ptr(t)) {
			/* E-kernel-pointer said it: of no type, so that its
			   uses ("a[0]") say nothing more */
			json_decref(t);
			t = json_incref(chk_T(c, "unknown"));
		}
		chk_generated_name(c, p, name);
		hides_type(c, params, i, p, name);
		chk_sym *s = chk_declare(c, &c->names, name, SYM_PARAM, p, t);
		s->role = kernel ? r : ROLE_NONE;
		s->constq = (q & CHK_Q_CONST) != 0;
	}
}

/* ---- names the generated code takes (brgen.1, "Names") ------------------ */

/* What makes a name reserved in kernel code. */
enum {
	W_CL,		/* a word of OpenCL C */
	W_CLFN,		/* an OpenCL C function the generated code calls: a
			 * kernel so named is renamed (gen_cl_name) */
	W_C,		/* a type or macro of the C headers the generated C
			 * includes, or a function it calls */
	W_CFN,		/* a function of those headers: refused as a kernel's
			 * name only (a local may hide it) */
	W_BRT		/* brt.h's */
};

typedef struct chk_word {
	const char *pat;	/* an fnmatch(3) pattern */
	int why;
} chk_word;

/* OpenCL C 1.2: keywords and qualifiers (6.1.9, 6.5-6.8), types (6.1.1-
 * 6.1.4; vectors in cl_vector_name), macros (6.10, 6.12.2, 6.12.3,
 * 6.12.12, 6.12.9), the work-item, synchronization, vector, atomic and
 * conversion functions the generated code calls (6.12.1, 6.12.7-6.12.11,
 * 6.2.3); C99's <math.h>, <stdint.h>, <stddef.h>, <stdio.h> and
 * <string.h> (7.12, 7.18, 7.17, 7.19, 7.21), which the generated C
 * includes; brt.h. */
static const chk_word chk_words[] = {
	{ "global", W_CL }, { "local", W_CL }, { "constant", W_CL },
	{ "private", W_CL }, { "kernel", W_CL }, { "read_only", W_CL },
	{ "write_only", W_CL }, { "read_write", W_CL }, { "uniform", W_CL },
	{ "pipe", W_CL }, { "bool", W_CL }, { "true", W_CL },
	{ "false", W_CL }, { "half", W_CL }, { "quad", W_CL },
	{ "complex", W_CL }, { "imaginary", W_CL }, { "vec_step", W_CL },
	{ "uchar", W_CL }, { "ushort", W_CL }, { "uint", W_CL },
	{ "ulong", W_CL }, { "image*_t", W_CL }, { "sampler_t", W_CL },
	{ "event_t", W_CL }, { "queue_t", W_CL }, { "clk_event_t", W_CL },
	{ "ndrange_t", W_CL }, { "reserve_id_t", W_CL },
	{ "cl_*", W_CL }, { "memory_order", W_CL }, { "memory_scope", W_CL },
	{ "MAXFLOAT", W_CL }, { "M_*", W_CL }, { "FLT_*", W_CL },
	{ "DBL_*", W_CL }, { "HALF_*", W_CL }, { "CLK_*", W_CL },
	{ "CL_*", W_CL }, { "FP_*", W_CL }, { "CHAR_*", W_CL },
	{ "SCHAR_*", W_CL }, { "UCHAR_*", W_CL }, { "SHRT_*", W_CL },
	{ "USHRT_*", W_CL }, { "INT_*", W_CL }, { "UINT_*", W_CL },
	{ "LONG_*", W_CL }, { "ULONG_*", W_CL }, { "ENDIAN_LITTLE", W_CL },
	{ "FAST_RELAXED_MATH", W_CL }, { "INFINITY", W_CL }, { "NAN", W_CL },
	{ "HUGE_VAL*", W_CL },
	{ "get_*", W_CLFN }, { "barrier", W_CLFN }, { "mem_fence", W_CLFN },
	{ "read_mem_fence", W_CLFN }, { "write_mem_fence", W_CLFN },
	{ "vload*", W_CLFN }, { "vstore*", W_CLFN }, { "atomic_*", W_CLFN },
	{ "atom_*", W_CLFN }, { "async_*", W_CLFN }, { "convert_*", W_CLFN },
	{ "as_*", W_CLFN }, { "wait_group_events", W_CLFN },
	{ "prefetch", W_CLFN },
	{ "size_t", W_C }, { "ptrdiff_t", W_C }, { "wchar_t", W_C },
	{ "NULL", W_C }, { "offsetof", W_C }, { "float_t", W_C },
	{ "double_t", W_C }, { "MATH_ERR*", W_C },
	{ "math_errhandling", W_C }, { "int*_t", W_C }, { "uint*_t", W_C },
	{ "INT*_MAX", W_C }, { "INT*_MIN", W_C }, { "UINT*_MAX", W_C },
	{ "INT*_C", W_C }, { "UINT*_C", W_C }, { "PTRDIFF_*", W_C },
	{ "SIZE_MAX", W_C }, { "SIG_ATOMIC_*", W_C }, { "WCHAR_*", W_C },
	{ "WINT_*", W_C }, { "LLONG_*", W_C }, { "ULLONG_*", W_C },
	{ "FILE", W_C }, { "fpos_t", W_C }, { "EOF", W_C },
	{ "BUFSIZ", W_C }, { "FILENAME_MAX", W_C }, { "FOPEN_MAX", W_C },
	{ "L_tmpnam", W_C }, { "TMP_MAX", W_C }, { "SEEK_*", W_C },
	{ "_IO[FLN]BF", W_C }, { "stdin", W_C }, { "stdout", W_C },
	{ "stderr", W_C }, { "memset", W_C }, { "memcpy", W_C },
	{ "brt_*", W_BRT }, { "BRT_*", W_BRT }, { "BR_*", W_BRT },
	{ "BRerror", W_BRT }, { "BError", W_BRT }, { "brmalloc", W_BRT },
	{ "brfree", W_BRT },
	{ "memchr", W_CFN }, { "memcmp", W_CFN }, { "memmove", W_CFN },
	{ "strcat", W_CFN }, { "strchr", W_CFN }, { "strcmp", W_CFN },
	{ "strcoll", W_CFN }, { "strcpy", W_CFN }, { "strcspn", W_CFN },
	{ "strerror", W_CFN }, { "strlen", W_CFN }, { "strncat", W_CFN },
	{ "strncmp", W_CFN }, { "strncpy", W_CFN }, { "strpbrk", W_CFN },
	{ "strrchr", W_CFN }, { "strspn", W_CFN }, { "strstr", W_CFN },
	{ "strtok", W_CFN }, { "strxfrm", W_CFN }, { "malloc", W_CFN },
	{ "calloc", W_CFN }, { "realloc", W_CFN }, { "free", W_CFN },
	{ "abort", W_CFN }, { "exit", W_CFN }, { "*printf", W_CFN },
	{ "*scanf", W_CFN }, { "fopen", W_CFN }, { "freopen", W_CFN },
	{ "fclose", W_CFN }, { "fflush", W_CFN }, { "fgetc", W_CFN },
	{ "fgets", W_CFN }, { "fputc", W_CFN }, { "fputs", W_CFN },
	{ "fread", W_CFN }, { "fwrite", W_CFN }, { "fgetpos", W_CFN },
	{ "fsetpos", W_CFN }, { "fseek", W_CFN }, { "ftell", W_CFN },
	{ "feof", W_CFN }, { "ferror", W_CFN }, { "getc", W_CFN },
	{ "getchar", W_CFN }, { "gets", W_CFN }, { "putc", W_CFN },
	{ "putchar", W_CFN }, { "puts", W_CFN }, { "ungetc", W_CFN },
	{ "clearerr", W_CFN }, { "perror", W_CFN }, { "remove", W_CFN },
	{ "rename", W_CFN }, { "rewind", W_CFN }, { "setbuf", W_CFN },
	{ "setvbuf", W_CFN }, { "tmpfile", W_CFN }, { "tmpnam", W_CFN },
	/* C99 7.20, stdlib.h: the SSE headers' mm_malloc.h includes it */
	{ "atof", W_CFN }, { "atoi", W_CFN }, { "atol", W_CFN },
	{ "atoll", W_CFN }, { "strto[dfl]", W_CFN }, { "strtold", W_CFN },
	{ "strtoll", W_CFN }, { "strtoul", W_CFN }, { "strtoull", W_CFN },
	{ "rand", W_CFN }, { "srand", W_CFN }, { "atexit", W_CFN },
	{ "_Exit", W_CFN }, { "getenv", W_CFN }, { "system", W_CFN },
	{ "bsearch", W_CFN }, { "qsort", W_CFN }, { "abs", W_CFN },
	{ "labs", W_CFN }, { "llabs", W_CFN }, { "div", W_CFN },
	{ "ldiv", W_CFN }, { "lldiv", W_CFN }, { "mblen", W_CFN },
	{ "mbtowc", W_CFN }, { "wctomb", W_CFN }, { "mbstowcs", W_CFN },
	{ "wcstombs", W_CFN }, { "posix_memalign", W_CFN },
	{ "RAND_MAX", W_C }, { "EXIT_SUCCESS", W_C }, { "EXIT_FAILURE", W_C },
	{ "MB_CUR_MAX", W_C }, { "div_t", W_C }, { "ldiv_t", W_C },
	{ "lldiv_t", W_C },
};

/* C99 7.12's functions and function-like macros; each function F also
 * as Ff and Fl. */
static const char *const c_math[] = {
	"acos", "asin", "atan", "atan2", "cos", "sin", "tan", "acosh",
	"asinh", "atanh", "cosh", "sinh", "tanh", "exp", "exp2", "expm1",
	"frexp", "ilogb", "ldexp", "log", "log10", "log1p", "log2", "logb",
	"modf", "scalbn", "scalbln", "cbrt", "fabs", "hypot", "pow", "sqrt",
	"erf", "erfc", "lgamma", "tgamma", "ceil", "floor", "nearbyint",
	"rint", "lrint", "llrint", "round", "lround", "llround", "trunc",
	"fmod", "remainder", "remquo", "copysign", "nan", "nextafter",
	"nexttoward", "fdim", "fmax", "fmin", "fma", "fpclassify",
	"isfinite", "isinf", "isnan", "isnormal", "signbit", "isgreater",
	"isgreaterequal", "isless", "islessequal", "islessgreater",
	"isunordered", NULL
};

/* OpenCL C's vector types (6.1.2), reserved ones (6.1.4: bool, half and
 * quad vectors, float and double matrices) included: a scalar type's
 * name and 2, 3, 4, 8 or 16, or NxM. */
static int cl_vector_name(const char *name)
{
	static const char *const scalar[] = { "bool", "char", "uchar",
		"short", "ushort", "int", "uint", "long", "ulong", "float",
		"double", "half", "quad", NULL };
	static const char *const width[] = { "2", "3", "4", "8", "16" };
	size_t i, j, k, n;

	for (i = 0; scalar[i]; i++) {
		if (scalar[i][0] != name[0])
			continue;
		n = strlen(scalar[i]);
		if (strncmp(name, scalar[i], n) != 0)
			continue;
		for (j = 0; j < 5; j++) {
			size_t w = strlen(width[j]);
			if (strncmp(name + n, width[j], w) != 0)
				continue;
			if (!name[n + w])
				return 1;
			for (k = 0; name[n + w] == 'x' && k < 5; k++)
				if (strcmp(name + n + w + 1, width[k]) == 0)
					return 1;
		}
	}
	return 0;
}

enum { NWORDS = sizeof chk_words / sizeof chk_words[0] };

/* The patterns of chk_words by their first byte, each byte's in the
 * table's order, and after them those that begin with a wildcard (two:
 * *printf and *scanf), which any name may match. Made once
 * (pthread_once). */
static struct {
	pthread_once_t once;
	unsigned short start[257];	/* byte c's: order[start[c] ..
					   start[c + 1]); the wildcards'
					   from start[256] */
	unsigned short order[NWORDS];
} words_by_first = { PTHREAD_ONCE_INIT, {0}, {0} };

static int wild_first(const char *pat)
{
	return pat[0] == '*' || pat[0] == '?' || pat[0] == '[';
}

/* A pattern's place in words_by_first: its first byte, or 256 */
static int word_bucket(const char *pat)
{
	return wild_first(pat) ? 256 : (unsigned char)pat[0];
}

static void words_index(void)
{
	unsigned short fill[257] = {0};
	size_t at = 0;

	for (size_t i = 0; i < NWORDS; i++)
		fill[word_bucket(chk_words[i].pat)]++;
	for (int c = 0; c < 257; c++) {
		words_by_first.start[c] = (unsigned short)at;
		at += fill[c];
		fill[c] = words_by_first.start[c];
	}
	for (size_t i = 0; i < NWORDS; i++)
		words_by_first.order[fill[word_bucket(chk_words[i].pat)]++] =
			(unsigned short)i;
}

/* Whether the pattern PAT can match NAME (N bytes) by its last byte:
 * where that is a plain character, NAME ends with it (no pattern of
 * chk_words escapes a character). */
static int last_may_match(const char *pat, const char *name, size_t n)
{
	char last = pat[strlen(pat) - 1];

	return last == '*' || last == ']' || last == '?' ||
		(n && last == name[n - 1]);
}

/* The chk_words entry NAME matches, as a W_ value; -1 for none. Every
 * declaration of kernel code asks (gen-big's program: 580 names): the
 * patterns of NAME's first byte and the library's functions of its first
 * letter are tried (4.0 M instructions of brcheck's 97 M went here when
 * the whole table was walked). */
static int reserved_word(const char *name)
{
	size_t i, n = strlen(name);
	unsigned char c0 = (unsigned char)name[0];

	if (cl_vector_name(name))
		return W_CL;
	if (pthread_once(&words_by_first.once, words_index) == 0) {
		/* NAME's first byte's patterns and the wildcards', merged
		   in the table's order */
		const unsigned short *o = words_by_first.order;
		size_t a = words_by_first.start[c0];
		size_t ae = words_by_first.start[c0 + 1];
		size_t w = words_by_first.start[256];
		while (a < ae || w < NWORDS) {
			size_t k = w >= NWORDS || (a < ae && o[a] < o[w]) ?
				o[a++] : o[w++];
			const chk_word *cw = &chk_words[k];
			if (last_may_match(cw->pat, name, n) &&
					fnmatch(cw->pat, name, 0) == 0)
				return cw->why;
		}
	} else {
		for (i = 0; i < NWORDS; i++)
			if ((chk_words[i].pat[0] == name[0] ||
					wild_first(chk_words[i].pat)) &&
					fnmatch(chk_words[i].pat, name, 0) == 0)
				return chk_words[i].why;
	}
	for (i = 0; c_math[i]; i++)
		if (c_math[i][0] == name[0] && (strcmp(name, c_math[i]) == 0 ||
			(n && (name[n - 1] == 'f' || name[n - 1] == 'l') &&
			strlen(c_math[i]) == n - 1 &&
			strncmp(name, c_math[i], n - 1) == 0)))
			return W_CFN;
	return -1;
}

/* E-reserved-name: NAME, declared in kernel code, is a word of OpenCL C
 * or a name of the headers the generated C includes. KERNEL: NAME names
 * a kernel, which may hide no function of those headers, and which brgen
 * renames in OpenCL when an OpenCL function has its name. */
static void reserved_name(chk_ctx *c, const json_t *at, const char *name,
	int kernel)
{
	int why = reserved_word(name);

	if (why == W_CL)
		chk_err(c, at, "E-reserved-name", "\"%s\" is a word of "
			"OpenCL C: rename it", name);
	else if (why == W_CLFN && !kernel)
		chk_err(c, at, "E-reserved-name", "\"%s\" is an OpenCL C "
			"function the generated code calls: rename it", name);
	else if (why == W_C || (why == W_CFN && kernel))
		chk_err(c, at, "E-reserved-name", "\"%s\" is a name of the C "
			"headers the generated code includes: rename it", name);
	else if (why == W_BRT)
		chk_err(c, at, "E-reserved-name", "\"%s\" is a name of brt.h, "
			"which the generated code includes: rename it", name);
}

/* The generated code's own names: brg_... and BRG_... anywhere; in kernel
 * code K__SUFFIX for a kernel K and brk_K, a kernel renamed for OpenCL.
 * Returns 1 when NAME is one (and says so at AT). */
static int generated_prefix(chk_ctx *c, const json_t *at, const char *name,
	int kernel_code)
{
	if (strncmp(name, "brg_", 4) == 0 || strncmp(name, "BRG_", 4) == 0 ||
		(kernel_code && strncmp(name, "brk_", 4) == 0)) {
		chk_err(c, at, "E-generated-name", "\"%s\": names beginning "
			"with %.4s are the generated code's", name, name);
		return 1;
	}
	if (kernel_code && strstr(name, "__")) {
		chk_err(c, at, "E-generated-name", "\"%s\": names with \"__\" "
			"are the generated code's in kernel code", name);
		return 1;
	}
	return 0;
}

void chk_brg_name(chk_ctx *c, const json_t *at, const char *name)
{
	if (name)
		generated_prefix(c, at, name, 0);
}

void chk_type_name(chk_ctx *c, const json_t *at, const char *name)
{
	/* brgen copies the types of the file (and of kernels) into the
	   OpenCL program, whether kernels use them or not */
	if (name && *name && (!c->scope->up || c->kern) &&
			reserved_word(name) == W_CL)
		chk_err(c, at, "E-reserved-name", "\"%s\" is a word of OpenCL "
			"C, into which brgen copies the file's types: rename it",
			name);
}

void chk_kernel_name(chk_ctx *c, const json_t *at, const char *name)
{
	if (!generated_prefix(c, at, name, 1))
		reserved_name(c, at, name, 1);
}

/* The code brgen writes names a kernel's stream or array parameter P's
 * view, element and buffer P_v, P_e and P_p (and its position P__idx:
 * "__" is the generated code's), and in the OpenCL entry K__packed the
 * lanes of a stream P_a and P_N (N digits). */
void chk_generated_name(chk_ctx *c, const json_t *at, const char *name)
{
	static const char *const sfx[] = { "_v", "_e", "_p", "_a" };
	static const char *const what[] = { "view", "element", "buffer",
		"lanes" };
	json_t *params, *p;
	size_t i, k;

	if (!name)
		return;
	if (!c->kern || !c->fnode) {
		chk_brg_name(c, at, name);
		return;
	}
	if (generated_prefix(c, at, name, 1))
		return;
	reserved_name(c, at, name, 0);
	params = ast_arr(ast_get(c->fnode, "type"), "params");
	json_array_foreach(params, i, p) {
		const char *pn = ast_str(p, "name");
		size_t n = strlen(pn);
		chk_role r = chk_role_of(p);
		if (!n || r == ROLE_VALUE || r == ROLE_NONE
		    || strncmp(name, pn, n) != 0)
			continue;
		for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++)
			if (strcmp(name + n, sfx[k]) == 0)
				chk_err(c, at, "E-generated-name", "\"%s\" is "
					"the generated code's name for parameter "
					"%s's %s: rename it", name, pn, what[k]);
		if (name[n] == '_' && name[n + 1] &&
			strspn(name + n + 1, "0123456789") == strlen(name + n + 1))
			chk_err(c, at, "E-generated-name", "\"%s\" is the "
				"generated code's name for parameter %s's lanes: "
				"rename it", name, pn);
	}
}

/* spec 7.1 "Must return a value": kernel F, returning R (not void),
 * has no return statement; or control may reach the end of its BODY
 * (W-missing-return: C allows it where the caller does not use the
 * value, and GCC's -Wreturn-type warns; brgen returns zeros there, as
 * brrun's interpreter does). Host functions are left to the C compiler,
 * which knows the functions that do not return (exit, abort) and main's
 * implicit 0. */
static void missing_return(chk_ctx *c, json_t *f, const json_t *body,
	json_t *r)
{
	if (!c->saw_return) {
		chk_err(c, f, "E-missing-return", "Must return a value");
	} else if (!c->too_deep && chk_falls_off(body)) {
		char *tn = TN(r);
		chk_warn(c, 1, f, "W-missing-return", "control can reach the end "
			"of \"%s\" without a return: it then returns zeros "
			"(%s)", ast_str(f, "name"), tn);
		free(tn);
	}
}

/* A function: prototype or definition, kernel or not. */
void chk_func_decl(chk_ctx *c, json_t *f)
{
	const char *name = ast_str(f, "name");
	chk_fn *fn = chk_fn_find(c, name);
	json_t *ft = ast_get(f, "type");
	if (!fn || !ty_streq(ty_kind(ft), "func") ||
		!ast_arr(ft, "params")) {
		chk_bad(c, f, "\"func\" node without a name or a \"func\" type");
		return;
	}
	chk_sym *prev = chk_in_scope(c, &c->names, name);
	if (prev && prev->kind != SYM_FUNC)
		chk_err(c, f, "E-function-name-clash", "Function names must be unique "
			"among all function and variable names: \"%s\"", name);
	json_t *body = ast_get(f, "body");
	if (prev && prev->kind == SYM_FUNC && prev->node != f && body &&
		!json_is_null(body)) {
		json_t *pb = ast_get(prev->node, "body");
		if (pb && !json_is_null(pb))
			chk_err(c, f, "E-function-redefined", "function \"%s\" is "
				"defined twice (first at line %lld)", name,
				(long long)json_integer_value(json_array_get(
				ast_get(prev->node, "at"), 1)));
		else	/* the definition after a prototype */
			prev->node = f;
	}
	if (!prev || prev->kind != SYM_FUNC)
		chk_declare(c, &c->names, name, SYM_FUNC, f, chk_decl_type(c, f, "type"));
	int kernel = ast_bool(f, "kernel") || ast_bool(f, "reduce");
	if (!prev && kernel)
		chk_kernel_name(c, f, name);
	else if (!prev)
		chk_brg_name(c, f, name);
	attributes(c, f, kernel);
	json_t *ret = chk_decl_type(c, ft, "ret");
	if (kernel && ty_is_stream(ret))
		chk_err(c, f, "E-kernel-return-stream", "a kernel cannot return a "
			"stream: subkernels can return any non-stream type");
	json_decref(ret);
	if (kernel && ast_bool(f, "noret"))
		chk_warn(c, 1, f, "W-kernel-noret",
			"unspecified kernel return type: void assumed");
	chk_push_scope(c);
	c->fnode = f;
	c->fn = fn;
	c->kern = kernel;
	c->saw_return = 0;
	json_object_clear(c->undefined);
	if (json_is_object(body) && f == fn->def)
		fn->defined = 1;
	declare_params(c, f, kernel);
	if (kernel)
		kernel_params(c, f);
	if (json_is_object(body)) {
		c->cur = f;
		chk_block_items(c, body);
		if (!kernel)
			chk_jumps(c, body);
		else if (fn->groupsize)
			chk_sync_places(c, body);
		json_t *r = chk_resolve(c, ast_get(ft, "ret"));
		if (kernel && !ty_is_void(r) && !ty_is_unknown(r))
			missing_return(c, f, body, ast_get(ft, "ret"));
		json_decref(r);
	} else if (body && !json_is_null(body)) {
		chk_bad(c, f, "function body is not a block");
	}
	chk_pop_scope(c);
	c->fnode = NULL;
	c->fn = NULL;
	c->kern = 0;
}

/* ---- after the pass: recursion, group intrinsics ------------------------ */

static int edge_cmp(const void *a, const void *b)
{
	const chk_edge *x = a, *y = b;
	return x->from != y->from ? x->from - y->from : x->to - y->to;
}

/* spec 4.3, 4.4: recursion is not allowed. A depth-first walk of the call
 * graph (edges sorted by caller: FIRST[f] .. FIRST[f + 1]) with an explicit
 * stack; an edge back to a function still on the walk closes a cycle. */
static void recursion(chk_ctx *c)
{
	enum { WHITE, GRAY, BLACK };
	char *color = xcalloc(c->nfns + 1, 1);
	size_t *first = xcalloc(c->nfns + 2, sizeof *first);
	size_t *next = xcalloc(c->nfns + 1, sizeof *next);
	int *stack = xcalloc(c->nfns + 1, sizeof *stack);
	if (c->nedges)
		qsort(c->edges, c->nedges, sizeof *c->edges, edge_cmp);
	for (size_t i = 0; i < c->nedges; i++)
		first[c->edges[i].from + 1]++;
	for (size_t f = 0; f < c->nfns; f++)
		first[f + 1] += first[f];
	for (size_t root = 0; root < c->nfns; root++) {
		if (color[root] != WHITE)
			continue;
		size_t n = 0;
		stack[n++] = (int)root;
		color[root] = GRAY;
		next[root] = first[root];
		while (n) {
			int f = stack[n - 1];
			if (next[f] == first[f + 1]) {
				color[f] = BLACK;
				n--;
				continue;
			}
			chk_edge *e = &c->edges[next[f]++];
			if (color[e->to] == GRAY)
				chk_err(c, e->call, "E-kernel-recursion", "Recursion is not "
					"allowed: \"%s\" calls \"%s\", which leads back to "
					"it", c->fns[e->from].name, c->fns[e->to].name);
			else if (color[e->to] == WHITE) {
				color[e->to] = GRAY;
				next[e->to] = first[e->to];
				stack[n++] = e->to;
			}
		}
	}
	free(color);
	free(first);
	free(next);
	free(stack);
}

void chk_post_checks(chk_ctx *c)
{
	recursion(c);
	for (size_t i = 0; i < c->nfns; i++) {
		chk_fn *fn = &c->fns[i];
		if (fn->group_use && !fn->sub)
			chk_err(c, fn->group_use, ty_streq(fn->group_what, "syncGroup") ?
				"E-sync-pixel" : "E-iig-pixel", "Illegal to use %s() for "
				"pixel shader kernel: specify a GroupSize attribute",
				fn->group_what);
		else if (fn->group_use)	/* brgen's E-gen-group-sub */
			chk_warn(c, 1, fn->group_use, "W-group-sub", "%s() inside "
				"a subkernel: brgen refuses it (a group kernel's "
				"threads run its own body phase by phase)",
				fn->group_what);
	}
}
