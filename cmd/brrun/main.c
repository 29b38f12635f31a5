/* brrun - runs one kernel of a Brook+ file on data given on the command
 * line, on an OpenCL device or the CPU, and measures it. See brrun(1).
 *
 *   brrun [options] FILE.br|FILE.ast KERNEL [NAME=VALUE | NAME ...]
 *
 * The front end (brpp, brparse, brcheck), the OpenCL code generator
 * (brgen) and the runtime (libbrt) all run in this process; the CPU
 * backend interprets the checked kernel (run_interp.c). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>

#include "brt.h"
#include "brook/ast.h"
#include "brook/check.h"
#include "brook/diag.h"
#include "brook/gen.h"
#include "brook/parse.h"
#include "brook/pp.h"
#include "brook/run_args.h"
#include "brook/run_data.h"
#include "brook/run_interp.h"
#include "brook/run_sig.h"
#include "brook/run_struct.h"
#include "brook/util.h"

#define USAGE_ID "E-run-usage"
#define ARG_ID "E-run-arg"
#define SHAPE_ID "E-run-shape"
#define RUNTIME_ID "E-run-runtime"
#define CHECK_ID "E-run-check"
#define FILE_ID "E-run-file"

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

/* One --shape or --check option. */
typedef struct named {
	const char *name;
	const char *value;
} named;

typedef struct options {
	const char *file, *kernel;
	const char **args;		/* NAME=VALUE and NAME */
	int nargs;
	const char *backend;		/* NULL: libbrt's default */
	int device;			/* -1: the first */
	int list_devices;
	int fast_math;		/* --fast-math: brgen's, for the OpenCL program */
	int checked;		/* --checked: brgen's reports (brt(3)) */
	brt_exec exec;			/* --domain-size, --domain-offset */
	int has_exec;
	int bench;			/* timed runs; 0: no --bench */
	const char *flops;
	int json;
	named *shapes, *checks;
	int nshapes, nchecks;
	double tol;			/* < 0: the default */
	const char **defines, **incdirs;
	int ndefines, nincdirs;
} options;

/* A parameter with what the command line gave it. */
typedef struct binding {
	const run_param *p;
	const char *value;		/* NAME=VALUE's value; NULL */
	int given;			/* NAME or NAME=VALUE appeared */
	const char *dest;		/* output file; NULL: stdout */
	char *dest_owned;		/* DEST when made here */
	run_array data;			/* input data (typed, element shape
					   plus the vector axis) */
	int has_data;
	int iter;			/* an iterator: no data, ITER_LO/HI */
	float iter_lo[4], iter_hi[4];
	size_t eshape[BRT_MAX_RANK];	/* element shape, slowest first */
	unsigned erank;
	int is_output;			/* OUT, SCATTER, REDUCE */
	int scalar_target;		/* REDUCE onto a host scalar */
	brt_stream *s;
	unsigned char *value_buf;	/* VALUE, scalar REDUCE: VALUE_SIZE
					   bytes (a struct's may be many) */
	unsigned char *value_init;	/* scalar REDUCE: its start */
	size_t value_size;
} binding;

typedef struct brrun {
	options o;
	diag_ctx d;
	json_t *doc;
	run_sig sig;
	binding *b;
	run_prog *prog;
	strbuf cl;
	brt_program program;
	brt_kernel kernel;
	brt_argdesc *descs;
	const char **names;	/* the parameters' names, for messages */
	brt_arg *args;
	const char *device_name;
	int opencl;
	char cl_name[300];
	json_t *sites_json;	/* --checked on OpenCL: the code's sites */
	brt_site *sites;	/* ... as libbrt reads them */
} brrun;

static void usage(FILE *f)
{
	fputs("usage: brrun [options] FILE.br|FILE.ast KERNEL [NAME=VALUE | "
		"NAME ...]\n"
		"Runs one kernel on data given on the command line.\n"
		"\n"
		"Values: 2.5, [1,2,3], [[1,2],[3,4]], @in.npy, @in.txt, "
		"@in.bin:WxH,\n"
		"        iota, zeros, ones, rand[:SEED]; outputs: NAME (printed) "
		"or\n"
		"        NAME=@out.npy|.txt|.bin\n"
		"\n"
		"Options:\n"
		"  --backend cpu|opencl   where the kernel runs (default: "
		"BRT_RUNTIME, else\n"
		"                         OpenCL when a device is found)\n"
		"  --device N             the Nth device of that backend (0 "
		"first)\n"
		"  --list-devices         list the devices and exit\n"
		"  --shape NAME=WxH       shape of an output or generated input "
		"(x first)\n"
		"  --bench [N]            N timed runs after a warm-up (default "
		"10)\n"
		"  --flops EXPR           floating-point operations per run "
		"(n: domain points)\n"
		"  --json                 --bench results as JSON\n"
		"  --domain-size WxH, --domain-offset XxY\n"
		"                         the execution domain (guide 1.8: "
		"domainSize,\n"
		"                         domainOffset), x first\n"
		"  --fast-math            OpenCL: brgen's --fast-math (the "
		"device's own\n"
		"                         division, sqrt and rsqrt)\n"
		"  --checked              brgen's --checked: report gathers, "
		"scatters and\n"
		"                         array indices outside their array, "
		"and scatter\n"
		"                         writes that race\n"
		"  --check NAME=VALUE     compare output NAME with expected data\n"
		"  --tol REL              tolerance of --check (default 1e-5; "
		"0 for integers)\n"
		"  -D NAME[=VALUE], -I DIR   passed to the preprocessor\n"
		"  --diagnostics=FORMAT   gcc, brcc, json or sarif\n"
		"  --help, --version\n", f);
}

/* COORDS: up to four numbers, x first, separated by 'x' or ','; each
 * from 1 (from 0 with ZERO_OK) to 2^32 - 1. Returns how many, 0 when S is
 * not that. */
static unsigned parse_coords(const char *s, unsigned *v, int zero_ok)
{
	unsigned n = 0;
	for (;;) {
		if (!isdigit((unsigned char)*s) || n == 4)
			return 0;
		unsigned long long x = 0;
		while (isdigit((unsigned char)*s)) {
			x = x * 10 + (unsigned)(*s++ - '0');
			if (x > UINT32_MAX)
				return 0;
		}
		if (x == 0 && !zero_ok)
			return 0;
		v[n++] = (unsigned)x;
		if (*s == '\0')
			return n;
		if (*s != 'x' && *s != 'X' && *s != ',')
			return 0;
		s++;
	}
}

/* Reports a usage error; returns the usage exit status. */
static int usage_error(brrun *r, const char *fmt, const char *arg)
{
	diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID, fmt, arg);
	return EXIT_USAGE;
}

static void push(const char ***v, int *n, const char *s)
{
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[(*n)++] = s;
}

static int push_named(brrun *r, named **v, int *n, const char *opt,
	const char *s)
{
	const char *eq = s ? strchr(s, '=') : NULL;
	if (!eq || eq == s || !eq[1]) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID,
			"%s takes NAME=VALUE, not '%s'", opt, s ? s : "");
		return -1;
	}
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
	(*v)[*n].name = xstrndup(s, (size_t)(eq - s));
	(*v)[*n].value = eq + 1;
	(*n)++;
	return 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The value of option OPT: "--opt=VALUE" or the next argument. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int is_opt(const char *a, const char *opt)
{
	size_t n = strlen(opt);
	return strncmp(a, opt, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

/* Options may come anywhere; "--" ends them. Returns -1 to go on, else
 * the exit status. */
static int parse_args(brrun *r, int argc, char **argv)
{
	options *o = &r->o;
	int only_args = 0;
	o->device = -1;
	o->tol = -1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (only_args || a[0] != '-' || a[1] == '\0') {
			if (!o->file)
				o->file = a;
			else if (!o->kernel)
				o->kernel = a;
			else
				push(&o->args, &o->nargs, a);
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_args = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("brrun (brook) %s\n", PACKAGE_VERSION);
			return 0;
		} else if (is_opt(a, "--backend")) {
			v = opt_value(argc, argv, &i, "--backend");
			if (!v || (strcmp(v, "cpu") != 0 && strcmp(v, "opencl") != 0
				&& strcmp(v, "cal") != 0))
				return usage_error(r, "--backend takes cpu or opencl, "
					"not '%s'", v ? v : "");
			o->backend = strcmp(v, "cal") == 0 ? "opencl" : v;
		} else if (is_opt(a, "--device")) {
			v = opt_value(argc, argv, &i, "--device");
			if (!v || !all_digits(v) || strlen(v) > 6)
				return usage_error(r, "--device takes a device number, "
					"not '%s'", v ? v : "");
			o->device = atoi(v);
		} else if (strcmp(a, "--list-devices") == 0) {
			o->list_devices = 1;
		} else if (is_opt(a, "--bench")) {
			o->bench = 10;
			if (a[7] == '=') {
				if (!all_digits(a + 8) || strlen(a + 8) > 7 ||
					atoi(a + 8) < 1)
					return usage_error(r, "--bench takes a number "
						"of runs, not '%s'", a + 8);
				o->bench = atoi(a + 8);
			} else if (i + 1 < argc && all_digits(argv[i + 1])) {
				if (strlen(argv[i + 1]) > 7 || atoi(argv[i + 1]) < 1)
					return usage_error(r, "--bench takes a number "
						"of runs from 1, not '%s'", argv[i + 1]);
				o->bench = atoi(argv[++i]);
			}
		} else if (is_opt(a, "--flops")) {
			if (!(o->flops = opt_value(argc, argv, &i, "--flops")))
				return usage_error(r, "%s needs an expression", a);
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--fast-math") == 0) {
			o->fast_math = 1;
		} else if (strcmp(a, "--checked") == 0) {
			o->checked = 1;
		} else if (is_opt(a, "--domain-size") ||
				is_opt(a, "--domain-offset")) {
			int size = is_opt(a, "--domain-size");
			unsigned c[4], n;
			v = opt_value(argc, argv, &i, size ? "--domain-size" :
				"--domain-offset");
			if (!v || !(n = parse_coords(v, c, !size)))
				return usage_error(r, size ? "--domain-size takes "
					"1 to 4 sizes from 1, x first, as 64x32, not "
					"'%s'" : "--domain-offset takes 1 to 4 "
					"coordinates, x first, as 8x0, not '%s'",
					v ? v : "");
			for (unsigned k = 0; k < 4; k++) {
				if (size)
					o->exec.size[k] = k < n ? c[k] : 1;
				else
					o->exec.offset[k] = k < n ? c[k] : 0;
			}
			if (size)
				o->exec.rank = n;
			o->has_exec = 1;
		} else if (is_opt(a, "--shape")) {
			if (push_named(r, &o->shapes, &o->nshapes, "--shape",
				opt_value(argc, argv, &i, "--shape")) != 0)
				return EXIT_USAGE;
		} else if (is_opt(a, "--check")) {
			if (push_named(r, &o->checks, &o->nchecks, "--check",
				opt_value(argc, argv, &i, "--check")) != 0)
				return EXIT_USAGE;
		} else if (is_opt(a, "--tol")) {
			v = opt_value(argc, argv, &i, "--tol");
			char *e = NULL;
			o->tol = v ? strtod(v, &e) : -1;
			if (!v || e == v || *e || !(o->tol >= 0) || isinf(o->tol))
				return usage_error(r, "--tol takes a relative "
					"tolerance such as 1e-6, not '%s'", v ? v : "");
		} else if (strncmp(a, "--diagnostics=", 14) == 0) {
			if (diag_set_format(&r->d, a + 14) != 0)
				return usage_error(r, "unknown diagnostics format "
					"'%s' (gcc, brcc, json or sarif)", a + 14);
		} else if (a[1] == 'D' || a[1] == 'I') {
			v = a[2] ? a + 2 : i + 1 < argc ? argv[++i] : NULL;
			if (!v)
				return usage_error(r, "%s needs an argument", a);
			if (a[1] == 'D')
				push(&o->defines, &o->ndefines, v);
			else
				push(&o->incdirs, &o->nincdirs, v);
		} else {
			return usage_error(r, "unknown option '%s' (see brrun "
				"--help)", a);
		}
	}
	if (o->list_devices)
		return -1;
	if (!o->file || !o->kernel) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID,
			"a FILE and a KERNEL are needed (see brrun --help)");
		return EXIT_USAGE;
	}
	if ((o->flops || o->json) && !o->bench)
		return usage_error(r, "%s goes with --bench",
			o->flops ? "--flops" : "--json");
	if (o->tol >= 0 && !o->nchecks)
		return usage_error(r, "%s goes with --check", "--tol");
	return -1;
}

/* ---- devices ---------------------------------------------------------- */

static int list_devices(void)
{
	unsigned n;
	brt_device *const *devs = brt_getDevices("all", &n);
	unsigned i, k[2] = {0, 0};
	/* N: the --device number alone; KIND M: with --backend KIND */
	for (i = 0; i < n; i++) {
		const brt_device *dv = devs[i];
		int cpu = strcmp(brt_device_type(dv), "cpu") == 0;
		printf("%u  %s %u  %s (%s), %.0f MiB, %u compute units\n", i,
			brt_device_type(dv), k[cpu]++, brt_device_name(dv),
			brt_device_platform(dv),
			(double)brt_device_memory(dv) / (1024.0 * 1024.0),
			brt_device_units(dv));
	}
	return 0;
}

/* Makes the device of --backend and --device current: 0; -1 when there
 * is no such device (a usage error), -2 when libbrt could not open it. */
static int pick_device(brrun *r)
{
	const options *o = &r->o;
	if (o->backend || o->device >= 0) {
		unsigned n;
		const char *kind = o->backend ? o->backend : "all";
		brt_device *const *devs = brt_getDevices(kind, &n);
		unsigned want = o->device >= 0 ? (unsigned)o->device : 0;
		if (n == 0 || want >= n) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID,
				"no %s%sdevice%s (brrun --list-devices lists them)",
				o->backend ? o->backend : "", o->backend ? " " : "",
				n ? " with that number" : "");
			return -1;
		}
		const char *msg = NULL;
		(void)brt_lastError(NULL);	/* an earlier call's */
		brt_useDevices(devs + want, 1, NULL);
		if (brt_lastError(&msg) != BR_NO_ERROR) {
			/* the device was refused: no run elsewhere */
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, RUNTIME_ID,
				"%s", msg && *msg ? msg : "Use Devices failed");
			return -2;
		}
	}
	brt_device *cur = brt_currentDevice();
	if (!cur) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, RUNTIME_ID,
			"no device to run on");
		return -1;
	}
	r->opencl = strcmp(brt_device_type(cur), "opencl") == 0;
	r->device_name = brt_device_name(cur);
	return 0;
}

/* ---- the front end ---------------------------------------------------- */

/* FILE.br through brpp, brparse and brcheck; FILE.ast loaded, and checked
 * unless it already is. Returns 0, or the exit status. */
static int front_end(brrun *r)
{
	const options *o = &r->o;
	strbuf text = {0};
	if (run_has_suffix(o->file, ".ast") || run_has_suffix(o->file, ".json")) {
		char err[300];
		if (util_read_file(o->file, &text.s, &text.len, err,
			sizeof err) != 0) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, FILE_ID, "%s",
				err);
			return EXIT_USAGE;
		}
		r->doc = brast_load(text.s, text.len, o->file, &r->d);
	} else {
		pp_options po = {0};
		po.defines = o->defines;
		po.ndefines = o->ndefines;
		po.incdirs = o->incdirs;
		po.nincdirs = o->nincdirs;
		char err[512];
		int fd = strcmp(o->file, "-") ? util_open_read(o->file, err,
			sizeof err) : 0;
		if (fd < 0) {	/* brrun's ID for it, not brpp's */
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, FILE_ID,
				"cannot read %s", err);
			return EXIT_USAGE;
		}
		if (fd > 0)
			close(fd);
		int s = pp_run(&po, o->file, &text, &r->d);
		if (s != 0) {
			sb_free(&text);
			return s;
		}
		r->doc = parse_text(text.s, text.len, o->file, NULL, &r->d);
	}
	sb_free(&text);
	if (!r->doc)
		return EXIT_DATA;
	if (strcmp(ast_str(r->doc, "stage"), "checked") != 0) {
		check_options co = {0};
		co.wlevel = 1;
		r->d.nowarn = 1;	/* brrun runs; brcheck lints */
		int s = check_doc(r->doc, &co, &r->d);
		r->d.nowarn = 0;
		if (s != 0)
			return s == 2 ? EXIT_DATA : s;
	}
	return 0;
}

/* ---- binding the arguments --------------------------------------------- */

static binding *find_binding(brrun *r, const char *name, size_t len)
{
	for (unsigned i = 0; i < r->sig.nparams; i++)
		if (strlen(r->b[i].p->name) == len &&
			strncmp(r->b[i].p->name, name, len) == 0)
			return &r->b[i];
	return NULL;
}

static void param_list(brrun *r, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < r->sig.nparams && o + 1 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
			r->sig.params[i].name);
}

static const char *kind_word(brt_argkind k)
{
	switch (k) {
	case BRT_ARG_IN: return "input stream";
	case BRT_ARG_OUT: return "output stream";
	case BRT_ARG_GATHER: return "gather array";
	case BRT_ARG_SCATTER: return "scatter array";
	case BRT_ARG_VALUE: return "value";
	case BRT_ARG_REDUCE: return "reduction";
	}
	return "parameter";
}

/* A scatter array given @FILE is updated in place: it starts from the
 * file's data where it is a regular file (a .bin file with its :DIMS),
 * from zeros where there is none, or it is a device, a FIFO or a name
 * under /dev (/dev/stdout may be a regular file: the shell's
 * redirection), and is saved back to the file. */
static void scatter_file(binding *b)
{
	const char *f = b->value + 1, *colon = strrchr(f, ':');
	struct stat st;

	if (colon && colon - f >= 4 && memcmp(colon - 4, ".bin", 4) == 0) {
		b->dest_owned = xstrndup(f, (size_t)(colon - f));
		b->dest = b->dest_owned;
	} else {
		b->dest = f;
	}
	if (strncmp(b->dest, "/dev/", 5) == 0 || stat(b->dest, &st) != 0 ||
			!S_ISREG(st.st_mode))
		b->value = NULL;
}

/* Matches NAME=VALUE and NAME to the kernel's parameters. */
static int bind_names(brrun *r)
{
	char list[512];
	for (int i = 0; i < r->o.nargs; i++) {
		const char *a = r->o.args[i];
		const char *eq = strchr(a, '=');
		size_t n = eq ? (size_t)(eq - a) : strlen(a);
		binding *b = find_binding(r, a, n);
		if (!b) {
			param_list(r, list, sizeof list);
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"'%.*s' is not a parameter of %s (parameters: %s)%s",
				(int)n, a, r->sig.name, list[0] ? list : "none",
				eq ? "" : "; write NAME=VALUE");
			return -1;
		}
		if (b->given) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"'%s' is given twice", b->p->name);
			return -1;
		}
		b->given = 1;
		b->value = eq ? eq + 1 : NULL;
		if (eq && !eq[1]) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"'%s=' has no value", b->p->name);
			return -1;
		}
		if (b->p->desc.kind == BRT_ARG_SCATTER && b->value &&
				b->value[0] == '@') {
			scatter_file(b);
		} else if (b->is_output && b->value && b->value[0] == '@') {
			b->dest = b->value + 1;
			b->value = NULL;
		} else if (!b->is_output && !b->value) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"'%s' is an %s of %s: give it a value (%s=...)",
				b->p->name, kind_word(b->p->desc.kind), r->sig.name,
				b->p->name);
			return -1;
		} else if (b->p->desc.kind == BRT_ARG_OUT && b->value) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"'%s' is an output stream: write %s to print it or "
				"%s=@FILE to save it", b->p->name, b->p->name,
				b->p->name);
			return -1;
		}
	}
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		binding *b = &r->b[i];
		if (!b->is_output && !b->given) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"missing argument '%s' (%s of %s)", b->p->name,
				kind_word(b->p->desc.kind), r->sig.name);
			return -1;
		}
	}
	for (int i = 0; i < r->o.nshapes; i++) {
		size_t sh[BRT_MAX_RANK];
		unsigned nd;
		const named *n = &r->o.shapes[i];
		if (!find_binding(r, n->name, strlen(n->name))) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID,
				"--shape %s: no such parameter", n->name);
			return -1;
		}
		if (run_parse_dims(n->value, sh, &nd) != 0) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID,
				"--shape %s=%s: write the sizes x first, as "
				"1024x768", n->name, n->value);
			return -1;
		}
	}
	return 0;
}

/* --shape NAME=WxH for binding B, or NULL. */
static const char *shape_opt(brrun *r, const binding *b)
{
	for (int i = 0; i < r->o.nshapes; i++)
		if (strcmp(r->o.shapes[i].name, b->p->name) == 0)
			return r->o.shapes[i].value;
	return NULL;
}

/* The shape of the first input stream with data: the kernel's implied
 * domain. */
static const binding *implied(brrun *r)
{
	for (unsigned i = 0; i < r->sig.nparams; i++)
		if (r->b[i].p->desc.kind == BRT_ARG_IN && r->b[i].has_data)
			return &r->b[i];
	return NULL;
}

/* The --shape of a map kernel's first output stream given one, or NULL:
 * the domain, so the shape of an input stream that has no other. */
static const char *output_shape(brrun *r)
{
	const char *s = NULL;
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		if (r->b[i].p->desc.kind == BRT_ARG_REDUCE)
			return NULL;
		if (r->b[i].p->desc.kind == BRT_ARG_OUT && !s)
			s = shape_opt(r, &r->b[i]);
	}
	return s;
}

/* Sets B's element shape from --shape, or from the implied domain: the
 * first input stream with data, else (B an input stream) an output's
 * --shape. */
static int bind_shape(brrun *r, binding *b, const char *what)
{
	const char *s = shape_opt(r, b);
	const binding *in = s ? NULL : implied(r);
	if (!s && !in && b->p->desc.kind == BRT_ARG_IN)
		s = output_shape(r);
	if (s) {
		if (run_parse_dims(s, b->eshape, &b->erank) != 0) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, USAGE_ID,
				"--shape %s=%s: write the sizes x first, as 1024x768",
				b->p->name, s);
			return -1;
		}
		return 0;
	}
	if (!in) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
			"%s '%s' needs a shape: no input stream gives one, use "
			"--shape %s=WxH", what, b->p->name, b->p->name);
		return -1;
	}
	b->erank = in->erank;
	memcpy(b->eshape, in->eshape, sizeof b->eshape);
	return 0;
}

/* One number for a vector constant: each component (brook(7)). */
static void fill_components(run_array *a, unsigned nc)
{
	size_t sz = run_scalar_size(a->scalar);
	unsigned char *v = xmalloc(nc * sz);

	for (unsigned k = 0; k < nc; k++)
		memcpy(v + k * sz, a->data, sz);
	free(a->data);
	a->data = v;
	a->ndim = 1;
	a->shape[0] = nc;
	a->count = nc;
}

/* Loads the data of B (not a generator). */
static int load_data(brrun *r, binding *b)
{
	const brt_type et = b->p->desc.type;
	int s = run_load(b->value, et, b->p->name, &b->data, &r->d);
	if (s != 0)
		return s == -2 ? EXIT_USAGE : EXIT_DATA;
	if (b->p->desc.kind == BRT_ARG_VALUE && et.ncomp > 1 &&
			b->data.ndim == 0 && b->data.count == 1 && !b->p->fields)
		fill_components(&b->data, et.ncomp);
	if (b->p->fields ? run_struct_pack(b->p, &b->data, b->eshape,
		&b->erank, &r->d) != 0 : run_to_elements(&b->data, et,
		b->p->name, b->eshape, &b->erank, &r->d) != 0)
		return EXIT_DATA;
	b->has_data = 1;
	const char *sh = shape_opt(r, b);
	if (sh) {
		/* --shape on an input: the same elements, another shape */
		size_t es[BRT_MAX_RANK];
		unsigned er;
		size_t n = 1, m = b->data.count / (et.ncomp ? et.ncomp : 1);
		if (run_parse_dims(sh, es, &er) != 0)
			return usage_error(r, "bad --shape '%s'", sh);
		for (unsigned i = 0; i < er; i++)
			n *= es[i];
		if (n != m) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
				"--shape %s=%s: %zu elements, the data has %zu",
				b->p->name, sh, n, m);
			return EXIT_DATA;
		}
		memcpy(b->eshape, es, sizeof es);
		b->erank = er;
		b->data.ndim = run_full_shape(es, er, et, b->data.shape);
	}
	return 0;
}

/* Checks an input's shape against its declaration: a gather declared
 * b[10][10] takes 10x10 data; a stream declared a<,> takes 2-D data. */
static int check_decl_shape(brrun *r, binding *b)
{
	const run_param *p = b->p;
	char sb[96];
	for (unsigned i = 0; i < b->erank; i++)
		if (b->eshape[i] == 0) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
				"'%s' has no elements (shape %s)", p->name,
				run_shape_str(b->data.shape, b->data.ndim, sb,
				sizeof sb));
			return -1;
		}
	if (p->desc.kind == BRT_ARG_VALUE) {
		size_t n = 1;
		for (unsigned i = 0; i < b->erank; i++)
			n *= b->eshape[i];
		if (n != 1) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
				"'%s' is a value: it takes one element, the data has "
				"shape %s", p->name, run_shape_str(b->data.shape,
				b->data.ndim, sb, sizeof sb));
			return -1;
		}
		return 0;
	}
	if (p->desc.rank && b->erank > p->desc.rank) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
			"'%s' has %u dimensions, the data has shape %s", p->name,
			p->desc.rank, run_shape_str(b->data.shape, b->data.ndim,
			sb, sizeof sb));
		return -1;
	}
	if (p->desc.kind == BRT_ARG_GATHER && b->erank == p->desc.rank)
		for (unsigned i = 0; i < b->erank; i++)
			if (p->decl_dims[i] && p->decl_dims[i] != b->eshape[i]) {
				diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
					"'%s' is declared with %zu in dimension %u, "
					"the data has shape %s", p->name,
					p->decl_dims[i], i + 1,
					run_shape_str(b->data.shape, b->data.ndim, sb,
					sizeof sb));
				return -1;
			}
	return 0;
}

/* Data for every input: literal and file data first, so generators and
 * outputs can take their shapes. */
static int bind_data(brrun *r)
{
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		binding *b = &r->b[i];
		if (b->value && b->p->desc.kind == BRT_ARG_REDUCE &&
				r->sig.reduce_init == BRT_REDUCE_FIRST) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, ARG_ID,
				"'%s' takes no start value: a reduce function "
				"starts from the first element it folds (brook(7), "
				"reading 8); a partial reduction's shape is "
				"--shape %s=...", b->p->name, b->p->name);
			return EXIT_DATA;
		}
	}
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < r->sig.nparams; i++) {
			binding *b = &r->b[i];
			int gen = run_is_generator(b->value ? b->value : "") ||
				run_is_iter(b->value ? b->value : "");
			if (!b->value || b->has_data || gen != pass)
				continue;
			if (pass == 0) {
				int s = load_data(r, b);
				if (s != 0)
					return s;
			} else {
				if (bind_shape(r, b, "generated input") != 0)
					return EXIT_DATA;
				if (run_is_iter(b->value)) {
					if (b->p->desc.kind != BRT_ARG_IN) {
						diag_report(&r->d, DIAG_ERROR, NULL, 0, 0,
							ARG_ID, "'%s': only an input stream "
							"takes an iterator", b->p->name);
						return EXIT_DATA;
					}
					if (run_parse_iter(b->value, b->p->desc.type,
						b->p->name, b->iter_lo, b->iter_hi,
						&r->d) != 0)
						return EXIT_DATA;
					b->iter = b->has_data = 1;
					b->data.ndim = run_full_shape(b->eshape,
						b->erank, b->p->desc.type, b->data.shape);
					continue;
				}
				if (b->p->fields ? run_struct_generate(b->value, b->p,
					b->eshape, b->erank, &b->data, &r->d) != 0 :
					run_generate(b->value, b->p->desc.type, b->eshape,
					b->erank, &b->data, &r->d) != 0)
					return EXIT_DATA;
				b->has_data = 1;
			}
			if (check_decl_shape(r, b) != 0)
				return EXIT_DATA;
		}
	return 0;
}

/* Shapes of the outputs: --shape, the initial data, or the implied
 * domain; a reduction without either goes to one host scalar. */
static int bind_outputs(brrun *r)
{
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		binding *b = &r->b[i];
		if (!b->is_output || b->has_data)
			continue;
		if (b->p->desc.kind == BRT_ARG_REDUCE && !shape_opt(r, b)) {
			b->scalar_target = 1;
			b->erank = 0;
			continue;
		}
		if (bind_shape(r, b, kind_word(b->p->desc.kind)) != 0)
			return EXIT_DATA;
	}
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		binding *b = &r->b[i];
		if (b->p->desc.kind == BRT_ARG_REDUCE && b->has_data &&
			!shape_opt(r, b) && b->erank == 0)
			b->scalar_target = 1;
	}
	return 0;
}

/* ---- streams and the kernel -------------------------------------------- */

static size_t elem_count(const binding *b)
{
	size_t n = 1;
	for (unsigned i = 0; i < b->erank; i++)
		n *= b->eshape[i];
	return n;
}

/* The element type of P as libbrt takes it. */
static brt_type elem_type(const run_param *p)
{
	const brt_type t = p->desc.type;
	return p->fields ? t : brt_type_make(t.scalar, t.ncomp);
}

/* Reports the errors of stream S, its log's lines joined by "; " so the
 * message stays one line. */
static int stream_failed(brrun *r, brt_stream *s, const char *name)
{
	const char *log = brt_stream_errorLog(s);
	if (brt_stream_error(s) == BR_NO_ERROR)
		return 0;
	char *m = xstrdup(log && *log ? log : "stream error");
	size_t n = strlen(m);
	while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' '))
		m[--n] = '\0';
	strbuf one = {0};
	for (char *p = m; *p; p++) {
		if (*p == '\n')
			sb_puts(&one, "; ");
		else
			sb_putc(&one, *p);
	}
	/* writes that a scatter dropped outside its array (brt(3)) are
	   reported, but the results are written: a warning */
	int dropped = 1;
	char *save = NULL;
	for (char *l = strtok_r(m, "\n", &save); l; l = strtok_r(NULL, "\n",
			&save))
		dropped &= strstr(l, ": scatter outside the array ") != NULL;
	diag_report(&r->d, dropped ? DIAG_WARNING : DIAG_ERROR, NULL, 0, 0,
		RUNTIME_ID, "%s: %s", name, one.s ? one.s : "");
	sb_free(&one);
	free(m);
	return !dropped;
}

/* A reduction given no value starts from its operator's identity (the
 * caller's value otherwise, DESIGN.md reading 8). */
static void reduce_start(brrun *r, binding *b)
{
	const brt_type et = b->p->desc.type;
	int ones;
	double v = run_reduce_identity(r->sig.reduce_op, &ones);
	for (unsigned c = 0; c < et.ncomp; c++)
		if (ones)
			memset(b->value_buf, 0xff, et.size);
		else
			run_put(et.scalar, b->value_buf, c, v);
}

/* Streams for every stream, gather and scatter argument; values and
 * scalar reductions point into their bindings. */
static int make_streams(brrun *r)
{
	unsigned dom_rank = 0;
	for (unsigned i = 0; i < r->sig.nparams; i++)
		if (r->b[i].p->desc.kind == BRT_ARG_OUT && r->b[i].erank > dom_rank)
			dom_rank = r->b[i].erank;
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		binding *b = &r->b[i];
		const brt_argdesc *d = &b->p->desc;
		if (d->kind == BRT_ARG_VALUE && b->p->fields) {
			r->args[i].value = b->data.data;	/* a struct */
			continue;
		}
		if (d->kind == BRT_ARG_VALUE || b->scalar_target) {
			b->value_size = d->type.size > 64 ? d->type.size : 64;
			b->value_buf = xcalloc(1, b->value_size);
			b->value_init = xcalloc(1, b->value_size);
			if (b->has_data)
				memcpy(b->value_buf, b->data.data, d->type.size);
			else if (!b->p->fields)
				reduce_start(r, b);
			memcpy(b->value_init, b->value_buf, b->value_size);
			r->args[i].value = b->value_buf;
			continue;
		}
		/* an input of fewer axes than the domain has leading 1s:
		 * <100> is <1, 100> (BrookGPU, streams) */
		unsigned rank = b->erank ? b->erank : 1, dims[BRT_MAX_RANK];
		if (d->kind == BRT_ARG_IN && rank < dom_rank)
			rank = dom_rank;
		for (unsigned k = 0; k < rank; k++)
			dims[k] = k < b->erank ?
				(unsigned)b->eshape[b->erank - 1 - k] : 1;
		for (unsigned k = 0; k < b->erank; k++)
			if (b->eshape[k] > UINT32_MAX) {
				diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, SHAPE_ID,
					"'%s' is too large", b->p->name);
				return -1;
			}
		brt_type bt = elem_type(b->p);
		b->s = b->iter ? brt_stream_new_iter(bt, rank, dims, b->iter_lo,
			b->iter_hi) : brt_stream_new(bt, rank, dims);
		if (!b->s) {
			const char *msg = NULL;
			brt_lastError(&msg);
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, RUNTIME_ID,
				"%s: %s", b->p->name, msg ? msg :
				"cannot create the stream");
			return -1;
		}
		if (b->iter) {
			/* computed inside the kernel */
		} else if (b->has_data) {
			brt_stream_read(b->s, b->data.data, NULL);
		} else {
			/* outputs start as zeros: a scatter leaves the rest */
			size_t n = elem_count(b) * d->type.size;
			void *z = xcalloc(n ? n : 1, 1);
			brt_stream_read(b->s, z, NULL);
			free(z);
		}
		/* the data is in place before the kernel starts */
		brt_stream_finish(b->s);
		if (stream_failed(r, b->s, b->p->name))
			return -1;
		r->args[i].s = b->s;
	}
	return 0;
}

/* --checked on OpenCL: the accesses the generated code numbers, for the
 * kernel's reports (strings in sites_json). */
static void sites_from_json(brrun *r)
{
	size_t n = json_array_size(r->sites_json), i;
	json_t *s;
	if (!n)
		return;
	r->sites = xcalloc(n, sizeof *r->sites);
	json_array_foreach(r->sites_json, i, s) {
		r->sites[i].file = ast_str(s, "file");
		r->sites[i].line = (int)ast_int(s, "line");
		r->sites[i].kernel = ast_str(s, "kernel");
		r->sites[i].array = ast_str(s, "array");
		r->sites[i].kind = (int)ast_int(s, "kind");
	}
	r->kernel.sites = r->sites;
	r->kernel.nsites = (unsigned)n;
}

/* The kernel as libbrt runs it: OpenCL C from the code generator, or the
 * interpreter on the CPU. */
static int make_kernel(brrun *r)
{
	unsigned n = r->sig.nparams;
	r->descs = xcalloc(n + 1, sizeof *r->descs);
	r->names = xcalloc(n + 1, sizeof *r->names);
	int scatter = 0;
	for (unsigned i = 0; i < n; i++) {
		r->names[i] = r->sig.params[i].name;
		scatter |= r->b[i].p->desc.kind == BRT_ARG_SCATTER;
		r->descs[i] = r->b[i].p->desc;
		r->descs[i].type = elem_type(r->b[i].p);
		if (r->descs[i].kind == BRT_ARG_REDUCE)
			r->descs[i].reduce_stream = !r->b[i].scalar_target;
	}
	brt_kernel *k = &r->kernel;
	k->name = r->sig.name;
	/* the generated OpenCL code of a kernel with scatters records the
	   writes it drops (brt.h, brt_records); --checked, its accesses
	   outside their array and the scatter writes that race, as brgen's
	   gen_records and the descriptor's owners */
	k->records = scatter || r->o.checked;
	k->owners = r->o.checked && scatter && k->records;
	k->arg_names = r->names;
	k->kclass = r->sig.kclass;
	k->nargs = n;
	k->args = r->descs;
	k->reduce_init = r->sig.reduce_init;
	memcpy(k->group, r->sig.group, sizeof k->group);
	k->src_file = r->o.file;
	const char *file;
	int line, col;
	if (ast_at(r->doc, r->sig.func, &file, &line, &col) == 0)
		k->src_line = line;
	/* the OpenCL program; on the CPU only its refusals: what brgen
	   refuses, the interpreter does not run either, so that both
	   backends answer alike (and a kernel tried here builds) */
	gen_options go = {0};
	go.fast_math = r->o.fast_math;
	go.fp_contract = r->o.fast_math;
	go.checked = r->o.checked;
	go.sites = r->opencl ? &r->sites_json : NULL;
	if (gen_program(r->doc, &go, NULL, NULL, &r->cl, &r->d) != 0)
		return -1;
	if (r->opencl) {
		sites_from_json(r);
		/* a kernel named like an OpenCL built-in is renamed */
		if (strcmp(gen_cl_name(k->name, r->cl_name, sizeof r->cl_name),
			k->name) != 0)
			k->cl_name = r->cl_name;
		r->program.name = r->o.file;
		r->program.source = r->cl.s;
		r->program.length = r->cl.len;
		r->program.abi = &BRT_ABI_MARK;
		k->program = &r->program;
		/* a reduce variable onto a host scalar folds the device's
		 * result into the value given (DESIGN.md reading 8): the
		 * interpreter supplies the combining rule */
		if (k->kclass == BRT_KERNEL_REDUCE &&
		    k->reduce_init == BRT_REDUCE_VALUE) {
			r->prog = run_interp_compile(r->doc, &r->sig, 0,
				&r->d);
			if (!r->prog)
				return -1;
			k->combine_call = run_interp_combine;
			k->kernel_data = r->prog;
		}
	} else {
		r->prog = run_interp_compile(r->doc, &r->sig, r->o.checked,
			&r->d);
		if (!r->prog)
			return -1;
		k->sites = run_interp_sites(r->prog, &k->nsites);
		k->cpu = run_interp_cpu;
		k->combine_call = run_interp_combine;
		k->kernel_data = r->prog;
	}
	return 0;
}

/* Runs the kernel once and waits for it; returns its time in seconds:
 * the device's, from OpenCL profiling events, when libbrt has it (*EVENTS
 * set), else the host clock around the call and the wait. */
static double run_once(brrun *r, int *events)
{
	struct timespec t0, t1;
	double dev;
	/* a reduction onto a host scalar folds into its value: every run
	 * starts from the value given */
	for (unsigned i = 0; i < r->sig.nparams; i++)
		if (r->b[i].scalar_target)
			memcpy(r->b[i].value_buf, r->b[i].value_init,
				r->b[i].value_size);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	brt_run(&r->kernel, r->args, r->o.has_exec ? &r->o.exec : NULL);
	for (unsigned i = 0; i < r->sig.nparams; i++)
		if (r->b[i].is_output && r->b[i].s)
			brt_stream_finish(r->b[i].s);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*events = r->opencl && brt_lastKernelTime(&dev) == 0;
	if (*events)
		return dev;
	return (double)(t1.tv_sec - t0.tv_sec) +
		(double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

/* Errors of the run: on the output streams, a scalar reduction's in
 * brt_lastError, the interpreter's own. */
static int run_failed(brrun *r)
{
	int bad = 0;
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		binding *b = &r->b[i];
		if (!b->is_output || !b->s)
			continue;
		if (!bad)
			bad = stream_failed(r, b->s, b->p->name);
		else	/* the same cause, reported once: asked, not said */
			(void)brt_stream_error(b->s);
	}
	const char *msg = NULL;
	if (!bad && brt_lastError(&msg) != BR_NO_ERROR) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, RUNTIME_ID,
			"kernel %s: %s", r->sig.name, msg ? msg : "failed");
		bad = 1;
	}
	if (!bad && r->prog && run_interp_failed(r->prog, &msg)) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, RUNTIME_ID,
			"kernel %s: %s", r->sig.name, msg);
		bad = 1;
	}
	return bad;
}

/* ---- results ------------------------------------------------------------ */

/* The result of output B as a NumPy-style array. */
static void result_array(brrun *r, binding *b, run_array *a)
{
	(void)r;
	brt_type et = b->p->desc.type;
	memset(a, 0, sizeof *a);
	a->scalar = et.scalar;
	a->typed = 1;
	a->ndim = run_full_shape(b->eshape, b->erank, et, a->shape);
	run_array_count(a);	/* a struct's elements (run_struct.h) */
	size_t bytes = elem_count(b) * et.size;
	a->data = xcalloc(bytes ? bytes : 1, 1);
	if (b->scalar_target)
		memcpy(a->data, b->value_buf, et.size);
	else
		brt_stream_write(b->s, a->data, NULL);
}

static int write_result(brrun *r, binding *b, const run_array *a, int many)
{
	char *bytes;
	size_t len;
	unsigned nc = b->p->ncomp;
	run_array flat;		/* a struct's numbers, for text */
	if (b->p->fields)
		run_struct_unpack(b->p, a->data, b->eshape, b->erank, &flat);
	const run_array *t = b->p->fields ? &flat : a;
	if (!b->dest) {
		run_text_format(t, nc, &bytes, &len);
		if (many)
			printf("%s:\n", b->p->name);
		fwrite(bytes, 1, len, stdout);
	} else if (run_has_suffix(b->dest, ".npy")) {
		if (b->p->fields)
			run_struct_npy(b->p, a, &bytes, &len);
		else
			run_npy_format(a, &bytes, &len);
	} else if (run_has_suffix(b->dest, ".bin")) {
		len = a->count * (b->p->fields ? b->p->desc.type.size :
			run_scalar_size(a->scalar));
		bytes = xmalloc(len ? len : 1);
		memcpy(bytes, a->data, len);
	} else {
		run_text_format(t, nc, &bytes, &len);
	}
	if (b->p->fields)
		run_array_free(&flat);
	if (!b->dest) {
		free(bytes);
		return 0;
	}
	char err[300];
	int s = util_write_file(b->dest, bytes, len, err, sizeof err);
	free(bytes);
	if (s != 0) {
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, FILE_ID, "%s", err);
		return -1;
	}
	return 0;
}

/* --check NAME=VALUE: the worst element by |got - want| / max(|want|, 1);
 * NaN matches only NaN. */
/* Whether P's numbers are floating point (a struct: any of them). */
static int float_data(const run_param *p)
{
	for (unsigned i = 0; i < (p->fields ? p->nfields : 1); i++) {
		brt_scalar k = p->fields ? p->fields[i].type.scalar :
			p->desc.type.scalar;
		if (k == BRT_FLOAT || k == BRT_DOUBLE)
			return 1;
	}
	return 0;
}

/* EXPECTED as the numbers of output B's elements (doubles, B's numbers
 * an element on the last axis), whatever their type. */
static int load_expected(brrun *r, binding *b, const char *expected,
	run_array *want)
{
	size_t es[BRT_MAX_RANK];
	unsigned er, nc = b->p->ncomp;
	int s;
	if (run_is_generator(expected) && b->p->fields) {
		/* of the output's shape */
		run_array packed;
		memset(want, 0, sizeof *want);
		if (run_struct_generate(expected, b->p, b->eshape, b->erank,
				&packed, &r->d) != 0)
			return EXIT_DATA;
		run_struct_unpack(b->p, packed.data, b->eshape, b->erank,
			want);
		run_array_free(&packed);
		return 0;
	}
	if (run_is_generator(expected))
		s = run_generate(expected, b->p->desc.type, b->eshape,
			b->erank, want, &r->d);
	else
		s = run_load(expected, b->p->desc.type, b->p->name, want,
			&r->d);
	if (s != 0)
		return s == -2 ? EXIT_USAGE : EXIT_DATA;
	if (b->p->fields) {
		run_array packed = *want;
		memset(want, 0, sizeof *want);
		s = run_struct_pack(b->p, &packed, es, &er, &r->d);
		if (s == 0)
			run_struct_unpack(b->p, packed.data, es, er, want);
		run_array_free(&packed);
		return s ? EXIT_DATA : 0;
	}
	want->typed = 0;	/* compare values, whatever the type */
	if (run_to_elements(want, (brt_type){BRT_DOUBLE, nc, 8 * nc},
		b->p->name, es, &er, &r->d) != 0) {
		run_array_free(want);
		return EXIT_DATA;
	}
	return 0;
}

static int check_result(brrun *r, binding *b, const run_array *result,
	const char *expected)
{
	run_array want, flat;
	const run_array *got = result;
	unsigned nc = b->p->ncomp;
	int s = load_expected(r, b, expected, &want);
	if (s != 0)
		return s;
	if (b->p->fields) {
		run_struct_unpack(b->p, result->data, b->eshape, b->erank, &flat);
		got = &flat;
	}
	if (want.count != got->count) {
		char s1[96], s2[96];
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, CHECK_ID,
			"check %s: the result has shape %s, the expected data %s",
			b->p->name, run_shape_str(got->shape, got->ndim, s1,
			sizeof s1), run_shape_str(want.shape, want.ndim, s2,
			sizeof s2));
		run_array_free(&want);
		if (got == &flat)
			run_array_free(&flat);
		return EXIT_DATA;
	}
	double tol = r->o.tol >= 0 ? r->o.tol : float_data(b->p) ? 1e-5 : 0;
	double worst = -1;
	size_t wi = 0;
	for (size_t i = 0; i < got->count; i++) {
		double g = run_get(got, i), w = run_get(&want, i), e;
		if (isnan(g) || isnan(w))
			e = isnan(g) && isnan(w) ? 0 : INFINITY;
		else if (g == w)
			e = 0;
		else
			e = fabs(g - w) / fmax(fabs(w), 1.0);
		if (isnan(e))
			e = INFINITY;
		if (e > worst) {
			worst = e;
			wi = i;
		}
	}
	int bad = worst > tol;
	if (bad) {
		/* the element's index, NumPy style, and its component */
		char idx[128];
		char cn[80];
		size_t o = 0, rest = wi / (nc > 1 ? nc : 1);
		size_t sub[BRT_MAX_RANK];
		for (unsigned k = b->erank; k-- > 0;) {
			sub[k] = b->eshape[k] ? rest % b->eshape[k] : 0;
			rest = b->eshape[k] ? rest / b->eshape[k] : 0;
		}
		idx[0] = '\0';
		for (unsigned k = 0; k < b->erank && o < sizeof idx; k++)
			o += (size_t)snprintf(idx + o, sizeof idx - o, "[%zu]",
				sub[k]);
		if (run_comp_name(b->p, (unsigned)(wi % nc), cn, sizeof cn)[0] &&
			o < sizeof idx)
			snprintf(idx + o, sizeof idx - o, ".%s", cn);
		char gs[64], ws[64];
		run_format_number(got, wi, gs, sizeof gs);
		run_format_number(&want, wi, ws, sizeof ws);
		diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, CHECK_ID,
			"check %s: %s%s is %s, expected %s (relative error %.3g > "
			"tolerance %g)", b->p->name, b->p->name, idx, gs, ws, worst,
			tol);
	}
	run_array_free(&want);
	if (got == &flat)
		run_array_free(&flat);
	return bad ? EXIT_DATA : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* --bench: N timed runs after one warm-up run (already done). */
static int bench(brrun *r)
{
	int n = r->o.bench, events = 1, ev;
	double *t = xcalloc((size_t)n, sizeof *t);
	for (int i = 0; i < n; i++) {
		t[i] = run_once(r, &ev);
		events = events && ev;
	}
	/* the clock: every run's time from one source */
	const char *clock = events ? "opencl-events" : "host";
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	double med = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	double bytes = 0, points = 0;
	for (unsigned i = 0; i < r->sig.nparams; i++) {
		const binding *b = &r->b[i];
		double sz = (double)elem_count(b) * (double)b->p->desc.type.size;
		if (b->s && !b->iter)
			bytes += sz;
		if ((b->p->desc.kind == BRT_ARG_OUT && points == 0) ||
			(r->sig.kclass == BRT_KERNEL_REDUCE &&
			b->p->desc.kind == BRT_ARG_IN && points == 0))
			points = (double)elem_count(b);
	}
	if (points == 0)
		for (unsigned i = 0; i < r->sig.nparams && points == 0; i++)
			if (r->b[i].s)
				points = (double)elem_count(&r->b[i]);
	if (r->o.exec.rank && r->sig.kclass != BRT_KERNEL_REDUCE) {
		/* --domain-size: its points */
		points = 1;
		for (unsigned k = 0; k < 4; k++)
			points *= r->o.exec.size[k];
	}
	double flops = -1;
	if (r->o.flops && run_flops_eval(r->o.flops, points, &flops) != 0) {
		free(t);
		return usage_error(r, "--flops '%s': write an expression of "
			"numbers and n, such as 2*n", r->o.flops);
	}
	double gbs = med > 0 ? bytes / med * 1e-9 : 0;
	double gfl = flops >= 0 && med > 0 ? flops / med * 1e-9 : -1;
	if (r->o.json) {
		json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:f, s:f, s:f, "
			"s:f, s:f, s:f}", "kernel", r->sig.name, "backend",
			r->opencl ? "opencl" : "cpu", "device",
			r->device_name ? r->device_name : "", "clock", clock,
			"runs", n,
			"min_ms", t[0] * 1e3, "median_ms", med * 1e3,
			"max_ms", t[n - 1] * 1e3, "points", points, "bytes", bytes,
			"gb_per_s", gbs);
		if (gfl >= 0)
			json_object_set_new(j, "gflop_per_s", json_real(gfl));
		char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
		printf("%s\n", s ? s : "{}");
		free(s);
		json_decref(j);
	} else {
		printf("%s on %s (%s): %d runs\n", r->sig.name,
			r->device_name ? r->device_name : "?",
			r->opencl ? "opencl" : "cpu", n);
		printf("  time   min %.3f ms   median %.3f ms   max %.3f ms "
			"(%s)\n", t[0] * 1e3, med * 1e3, t[n - 1] * 1e3,
			events ? "OpenCL profiling events" : "host clock");
		printf("  memory %.0f bytes, %.3f GB/s\n", bytes, gbs);
		if (gfl >= 0)
			printf("  compute %.3f GFLOP/s\n", gfl);
	}
	free(t);
	return 0;
}

/* ---- main ----------------------------------------------------------------- */

static int run(brrun *r)
{
	int s = front_end(r);
	if (s != 0)
		return s;
	if (run_sig_build(r->doc, r->o.kernel, &r->sig, &r->d) != 0)
		return EXIT_DATA;
	unsigned n = r->sig.nparams;
	r->b = xcalloc(n + 1, sizeof *r->b);
	r->args = xcalloc(n + 1, sizeof *r->args);
	for (unsigned i = 0; i < n; i++) {
		brt_argkind k = r->sig.params[i].desc.kind;
		r->b[i].p = &r->sig.params[i];
		r->b[i].is_output = k == BRT_ARG_OUT || k == BRT_ARG_SCATTER ||
			k == BRT_ARG_REDUCE;
	}
	if (bind_names(r) != 0)
		return EXIT_USAGE;
	for (int i = 0; i < r->o.nchecks; i++) {
		const binding *b = find_binding(r, r->o.checks[i].name,
			strlen(r->o.checks[i].name));
		if (!b || !b->is_output)
			return usage_error(r, "--check %s: not an output of the "
				"kernel", r->o.checks[i].name);
	}
	if ((s = bind_data(r)) != 0 || (s = bind_outputs(r)) != 0)
		return s;
	for (unsigned i = 0; i < n; i++) {
		char err[300];
		for (unsigned j = 0; r->b[i].dest && j <= n; j++) {
			/* the program file and the input data files */
			const char *v = j < n ? r->b[j].value : NULL;
			const char *in = j == n ? r->o.file :
				j != i && v && v[0] == '@' ? v + 1 : NULL;
			if (in && util_same_file(in, r->b[i].dest)) {
				diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, FILE_ID,
					"%s: the output would overwrite the input",
					r->b[i].dest);
				return EXIT_USAGE;
			}
		}
		if (r->b[i].dest && util_check_writable(r->b[i].dest, err,
			sizeof err) != 0) {
			diag_report(&r->d, DIAG_ERROR, NULL, 0, 0, FILE_ID, "%s",
				err);
			return EXIT_USAGE;
		}
	}
	/* --bench times OpenCL kernels by their profiling events: the
	 * queues must be made so, before libbrt opens the devices */
	if (r->o.bench)
		brt_profileKernels(1);
	int picked = pick_device(r);
	if (picked != 0)
		return picked == -2 ? EXIT_DATA : EXIT_USAGE;
	if (make_kernel(r) != 0)
		return EXIT_DATA;
	if (make_streams(r) != 0)
		return EXIT_DATA;
	int events;
	run_once(r, &events);
	if (run_failed(r))
		return EXIT_DATA;
	if (r->o.bench) {
		if ((s = bench(r)) != 0)
			return s;
		if (run_failed(r))
			return EXIT_DATA;
	}
	int printed = 0, status = 0;
	for (unsigned i = 0; i < n; i++)
		if (r->b[i].is_output && !r->b[i].dest && !r->o.bench)
			printed++;
	for (unsigned i = 0; i < n; i++) {
		binding *b = &r->b[i];
		if (!b->is_output)
			continue;
		run_array a;
		result_array(r, b, &a);
		if (b->dest || !r->o.bench)
			if (write_result(r, b, &a, printed > 1) != 0)
				status = EXIT_USAGE;
		for (int c = 0; c < r->o.nchecks; c++)
			if (strcmp(r->o.checks[c].name, b->p->name) == 0) {
				int cs = check_result(r, b, &a,
					r->o.checks[c].value);
				if (cs && !status)
					status = cs;
			}
		run_array_free(&a);
	}
	return status;
}

static void cleanup(brrun *r)
{
	for (unsigned i = 0; r->b && i < r->sig.nparams; i++) {
		if (r->b[i].s)
			brt_stream_free(r->b[i].s);
		run_array_free(&r->b[i].data);
		free(r->b[i].dest_owned);
		free(r->b[i].value_buf);
		free(r->b[i].value_init);
	}
	run_interp_free(r->prog);
	free(r->sites);
	json_decref(r->sites_json);
	free(r->b);
	free(r->args);
	free(r->descs);
	free(r->names);
	sb_free(&r->cl);
	run_sig_free(&r->sig);
	if (r->doc)
		json_decref(r->doc);
	for (int i = 0; i < r->o.nshapes; i++)
		free((char *)r->o.shapes[i].name);
	for (int i = 0; i < r->o.nchecks; i++)
		free((char *)r->o.checks[i].name);
	free(r->o.shapes);
	free(r->o.checks);
	free(r->o.args);
	free(r->o.defines);
	free(r->o.incdirs);
}

int main(int argc, char **argv)
{
	brrun r;
	memset(&r, 0, sizeof r);
	diag_init(&r.d, "brrun");
	int s = parse_args(&r, argc, argv);
	if (s < 0)
		s = r.o.list_devices ? list_devices() : run(&r);
	if (s == 0 && diag_status(&r.d))
		s = EXIT_DATA;
	fflush(stdout);
	diag_finish(&r.d);
	cleanup(&r);
	return s;
}
