/* errors.c CASE - each runtime error of the spec's section 8 that libbrt
 * can produce, provoked on purpose: the stream's error code and log (or
 * the thread's last error) are printed. No case may crash. */
#include "kernels.h"

static float data[64];

static brt_stream *filled(unsigned n)
{
	brt_stream *s = rt_new1(n);
	brt_stream_read(s, data, NULL);
	return s;
}

static void run2(const brt_kernel *k, brt_stream *a, brt_stream *b)
{
	brt_arg args[2] = { { .s = a }, { .s = b } };
	brt_run(k, args, NULL);
}

static void c_read_null(void)
{
	brt_stream *s = rt_new1(4);
	brt_stream_read(s, NULL, NULL);
	rt_errors("s", s);
	brt_stream_read(NULL, data, NULL);
	rt_last("NULL stream");
	brt_stream_free(s);
}

static void c_write_null(void)
{
	brt_stream *s = filled(4);
	brt_stream_write(s, NULL, NULL);
	rt_errors("s", s);
	brt_stream_free(s);
}

static void c_write_uninit(void)
{
	float out[4];
	brt_stream *s = rt_new1(4);
	brt_stream_write(s, out, NULL);
	rt_errors("s", s);
	brt_stream_free(s);
}

static void c_flags(void)
{
	brt_stream *s = rt_new1(4);
	brt_stream_read(s, data, "async fast");
	rt_errors("s", s);
	brt_stream_free(s);
}

static void c_alloc_type(void)
{
	brt_type bad = { BRT_FLOAT, 5, 20 };
	brt_stream *s = brt_stream_new(bad, 1, (unsigned[]){ 4 });
	rt_errors("float5", s);
	brt_stream_free(s);
}

static void c_alloc_rank(void)
{
	unsigned d[5] = { 2, 2, 2, 2, 2 }, z[2] = { 4, 0 };
	brt_stream *a = brt_stream_new(rt_float, 0, d);
	brt_stream *b = brt_stream_new(rt_float, 5, d);
	brt_stream *c = brt_stream_new(rt_float, 2, z);
	brt_stream *e = brt_stream_new(rt_float, 2, NULL);
	rt_errors("rank 0", a);
	rt_errors("rank 5", b);
	rt_errors("a zero extent", c);
	rt_errors("NULL dims", e);
	brt_stream *all[] = { a, b, c, e };
	for (int i = 0; i < 4; i++)
		brt_stream_free(all[i]);
}

static void c_alloc_overflow(void)
{
	unsigned d[4] = { 4000000000u, 4000000000u, 4000000000u, 4 };
	brt_stream *s = brt_stream_new(rt_float, 4, d);
	rt_errors("overflow", s);
	printf("count %zu\n", brt_stream_count(s));
	brt_stream_free(s);
}

/* run with BRT_FAIL_ALLOC=2: the second buffer cannot be had */
static void c_alloc_fail(void)
{
	brt_stream *a = filled(4), *b = rt_new1(4), *c = rt_new1(4);
	rt_errors("b", b);
	run2(&k_copy, a, b);
	rt_errors("b as output", b);
	run2(&k_copy, b, c);
	rt_errors("c, b as input", c);
	brt_stream_read(b, data, NULL);
	rt_errors("b read", b);
	brt_stream_free(a);
	brt_stream_free(b);
	brt_stream_free(c);
}

static void c_iter_struct(void)
{
	float lo = 0, hi = 1;
	brt_stream *s = brt_stream_new_iter(brt_type_struct(12), 1,
		(unsigned[]){ 4 }, &lo, &hi);
	rt_errors("struct iterator", s);
	brt_stream_free(s);
	s = brt_stream_new_iter(brt_type_make(BRT_INT, 1), 1, (unsigned[]){ 4 },
		&lo, &hi);
	rt_errors("int iterator", s);
	brt_stream_free(s);
	s = brt_stream_new_iter(rt_float, 1, (unsigned[]){ 4 }, &lo, &hi);
	brt_stream *o = rt_new1(4);
	run2(&k_copy, o, s);
	rt_errors("iterator as output", s);
	brt_stream_read(s, data, NULL);
	rt_errors("iterator read", s);
	brt_stream_free(s);
	brt_stream_free(o);
}

static void c_assign(void)
{
	brt_stream *d = rt_new1(4), *e = rt_new1(5), *u = rt_new1(4);
	brt_stream *f = filled(4);
	brt_stream_assign(d, NULL);
	rt_errors("NULL source", d);
	brt_stream_assign(e, f);
	rt_errors("other shape", e);
	brt_stream_assign(d, u);
	rt_errors("uninitialized source", d);
	brt_stream *i4 = brt_stream_new(brt_type_make(BRT_INT, 1), 1,
		(unsigned[]){ 4 });
	brt_stream_assign(i4, f);
	rt_errors("other type", i4);
	brt_stream_assign(NULL, f);
	rt_last("NULL destination");
	brt_stream *all[] = { d, e, u, f, i4 };
	for (int i = 0; i < 5; i++)
		brt_stream_free(all[i]);
}

static void c_domain(void)
{
	brt_stream *s = rt_new2(4, 4);
	unsigned a[2] = { 1, 1 }, b[2] = { 3, 3 }, big[2] = { 5, 3 };
	unsigned rev[2] = { 3, 0 };
	brt_stream *v[5];
	v[0] = brt_stream_domain(s, NULL, b);
	v[1] = brt_stream_domain(s, a, NULL);
	v[2] = brt_stream_domain(s, a, rev);
	v[3] = brt_stream_domain(s, a, big);
	v[4] = brt_stream_domain(s, a, a);
	const char *what[] = { "NULL start", "NULL end", "start > end",
		"too big", "empty" };
	for (int i = 0; i < 5; i++) {
		rt_errors(what[i], v[i]);
		brt_stream_free(v[i]);
	}
	printf("NULL stream: %p\n", (void *)brt_stream_domain(NULL, a, b));
	rt_last("domain of NULL");
	brt_stream_free(s);
}

static void c_exec(void)
{
	brt_stream *o = rt_new2(4, 4);
	brt_arg args[1] = { { .s = o } };
	brt_exec zero = { 2, { 0, 0 }, { 0, 2 } };
	brt_run(&k_where, args, &zero);
	rt_errors("size 0", o);
	brt_exec over = { 2, { 2, 0 }, { 3, 2 } };
	brt_run(&k_where, args, &over);
	rt_errors("past the stream", o);
	brt_exec rank = { 3, { 0, 0, 0 }, { 1, 1, 1 } };
	brt_run(&k_where, args, &rank);
	rt_errors("rank 3 of a 2D stream", o);
	brt_exec past = { 0, { 0, 4 }, { 0, 0 } };
	brt_run(&k_where, args, &past);
	rt_errors("offset at the end", o);
	brt_exec orank = { 0, { 0, 0, 1 }, { 0, 0 } };
	brt_run(&k_where, args, &orank);
	rt_errors("offset of rank 3", o);
	brt_stream_free(o);
}

static void c_kernel_null(void)
{
	brt_stream *a = filled(4), *b = rt_new1(4);
	run2(&k_copy, a, NULL);
	rt_last("NULL output");
	run2(&k_copy, NULL, b);
	rt_errors("NULL input", b);
	brt_arg args[3] = { { .s = a }, { .value = NULL }, { .s = b } };
	brt_run(&k_scale, args, NULL);
	rt_errors("NULL value", b);
	brt_run(NULL, args, NULL);
	rt_last("NULL kernel");
	float *t = NULL;
	brt_arg r[2] = { { .s = a }, { .target = t } };
	brt_run(&k_sum_scalar, r, NULL);
	rt_last("NULL reduce target");
	brt_stream_free(a);
	brt_stream_free(b);
}

static void c_uninit(void)
{
	brt_stream *a = rt_new1(4), *b = rt_new1(4);
	run2(&k_copy, a, b);
	rt_errors("b", b);
	float out[4];
	brt_stream_write(b, out, NULL);
	rt_print("b (ran)", out, 4);
	brt_stream_free(a);
	brt_stream_free(b);
}

static void c_alias(void)
{
	brt_stream *a = filled(4);
	float k = 2;
	brt_arg args[3] = { { .s = a }, { .value = &k }, { .s = a } };
	brt_run(&k_scale, args, NULL);
	rt_errors("a", a);
	float out[4];
	brt_stream_write(a, out, NULL);
	rt_print("a", out, 4);
	brt_stream_free(a);
}

static void c_shapes(void)
{
	brt_stream *a = filled(4), *b = rt_new1(4), *c = rt_new1(5);
	brt_stream *d = rt_new2(4, 1), *in2 = rt_new2(2, 2);
	brt_stream_read(in2, data, NULL);
	brt_arg three[3] = { { .s = a }, { .s = a }, { .s = b } };
	(void)three;
	/* add(a, b, out c) with two outputs is not in kernels.h; use the
	 * first output's rule through scatter: rank and extent of inputs */
	run2(&k_copy, in2, b);
	rt_errors("2D input, 1D output", b);
	brt_stream *e = rt_new1(4);
	brt_arg g[3] = { { .s = a }, { .s = in2 }, { .s = e } };
	brt_run(&k_gather, g, NULL);
	rt_errors("2D stream as 1D gather", e);
	(void)c;
	(void)d;
	brt_stream *all[] = { a, b, c, d, in2, e };
	for (int i = 0; i < 6; i++)
		brt_stream_free(all[i]);
}

/* two outputs of a kernel with different shapes */
static const brt_argdesc two_out_args[] = {
	{ BRT_ARG_IN, { BRT_FLOAT, 1, 4 }, 0, 0 },
	{ BRT_ARG_OUT, { BRT_FLOAT, 1, 4 }, 0, 0 },
	{ BRT_ARG_OUT, { BRT_FLOAT, 1, 4 }, 0, 0 } };
static const brt_kernel k_two = { .name = "two", .program = &rt_program,
	.kclass = BRT_KERNEL_MAP, .nargs = 3, .args = two_out_args,
	.cpu = copy_cpu };

static void c_outputs(void)
{
	brt_stream *a = filled(4), *b = rt_new1(4), *c = rt_new1(5);
	brt_stream *d = rt_new2(4, 1);
	brt_arg x[3] = { { .s = a }, { .s = b }, { .s = c } };
	brt_run(&k_two, x, NULL);
	rt_errors("other extent", c);
	brt_arg y[3] = { { .s = a }, { .s = b }, { .s = d } };
	brt_run(&k_two, y, NULL);
	rt_errors("other rank", d);
	brt_stream *all[] = { a, b, c, d };
	for (int i = 0; i < 4; i++)
		brt_stream_free(all[i]);
}

static void c_propagate(void)
{
	brt_stream *a = rt_new1(4), *b = rt_new1(4), *c = rt_new1(4);
	brt_stream_read(a, NULL, NULL);	/* a has an error */
	run2(&k_copy, a, b);
	run2(&k_copy, b, c);
	rt_errors("c", c);
	printf("after error(): %d\n", (int)brt_stream_error(c));
	brt_stream_free(a);
	brt_stream_free(b);
	brt_stream_free(c);
}

/* an error carried through a loop of kernels: the logs stay small */
static void c_loop(void)
{
	brt_stream *a = rt_new1(4), *b = rt_new1(4);
	brt_stream_read(a, NULL, NULL);
	for (int i = 0; i < 2000; i++) {
		run2(&k_copy, a, b);
		run2(&k_copy, b, a);
	}
	const char *log = brt_stream_errorLog(b);
	size_t lines = 0;
	for (const char *p = log; *p; p++)
		lines += *p == '\n';
	printf("b: error %d, %zu lines, %s\n", (int)brt_stream_error(b), lines,
		strlen(log) <= 65536 ? "within 64 KiB" : "over 64 KiB");
	printf("first: %.*s\n", (int)strcspn(log, "\n"), log);
	const char *last = log + strlen(log) - 1;
	while (last > log && last[-1] != '\n')
		last--;
	printf("last: %s", last);
	brt_stream_free(a);
	brt_stream_free(b);
}

/* device of the stream against the thread's device */
static void c_device(void)
{
	unsigned n;
	brt_device *const *all = brt_getDevices("all", &n);
	brt_stream *a = filled(4);
	brt_device *other = all[0] == brt_currentDevice() ? all[n - 1] : all[0];
	if (n < 2 || other == brt_currentDevice()) {
		printf("one device only\n");
		brt_stream_free(a);
		return;
	}
	brt_useDevices(&other, 1, NULL);
	brt_stream *b = rt_new1(4), *c = rt_new1(4);
	brt_stream_read(c, data, NULL);
	run2(&k_copy, a, b);
	rt_errors("input on another device", b);
	brt_useDevices(all + brt_stream_rank(a) - 1, 0, NULL);
	rt_last("useDevices of no device");
	brt_device *back = all[0] == other ? all[n - 1] : all[0];
	brt_useDevices(&back, 1, NULL);
	run2(&k_copy, a, b);
	rt_errors("output on another device", b);
	/* assign works across devices */
	brt_stream *d = rt_new1(4);
	brt_stream_assign(d, c);
	float out[4];
	brt_stream_write(d, out, NULL);
	rt_print("assigned across devices", out, 4);
	rt_errors("d", d);
	brt_stream_free(a);
	brt_stream_free(b);
	brt_stream_free(c);
	brt_stream_free(d);
}

/* run with BRT_FAIL_LAUNCH=1: the device is lost at the first launch */
static void c_lost(void)
{
	brt_stream *a = filled(4), *b = rt_new1(4), *c = rt_new1(4);
	run2(&k_copy, a, b);
	rt_errors("b", b);
	run2(&k_copy, a, c);
	rt_errors("c, later", c);
	float out[4];
	brt_stream_write(a, out, NULL);
	rt_errors("a, write", a);
	/* nothing runs on the device any more: finish fails (brt.3) */
	printf("isSync %d\n", brt_stream_isSync(a));
	printf("finish %d\n", brt_stream_finish(a));
	rt_errors("a, finish", a);
	brt_stream_free(a);
	brt_stream_free(b);
	brt_stream_free(c);
}

/* streamSwap swaps handles of one element type only */
static void c_swap(void)
{
	brt_stream *f = filled(4), *g = filled(4);
	brt_stream *i = brt_stream_new(brt_type_make(BRT_INT, 1), 1,
		(unsigned[]){ 4 });
	brt_stream *p = f, *q = i;
	streamSwap(&p, &q);
	printf("float and int swapped: %s\n", p == i ? "yes" : "no");
	rt_errors("float", f);
	rt_errors("int", i);
	p = f;
	q = g;
	streamSwap(&p, &q);
	printf("float and float swapped: %s\n", p == g ? "yes" : "no");
	rt_errors("float", f);
	brt_stream_free(f);
	brt_stream_free(g);
	brt_stream_free(i);
}

/* run with BRT_FAIL_ALLOC=2: the reduction's temporary cannot be had */
static void c_reduce_alloc(void)
{
	brt_stream *a = filled(64);
	float t = -1;
	brt_arg r[2] = { { .s = a }, { .target = &t } };
	brt_run(&k_sum_scalar, r, NULL);
	rt_last("sum");
	brt_run(&k_sum_scalar, r, NULL);
	printf("again: %g\n", t);
	brt_stream_free(a);
}

static const brt_argdesc scatter_only_args[] = {
	{ BRT_ARG_SCATTER, { BRT_FLOAT, 1, 4 }, 1, 0 } };
static const brt_kernel k_scatter_only = { .name = "where",
	.program = &rt_program, .kclass = BRT_KERNEL_SCATTER, .nargs = 1,
	.args = scatter_only_args, .cpu = where_cpu };
static const brt_kernel k_not_reduce = { .name = "sum",
	.program = &rt_program, .kclass = BRT_KERNEL_REDUCE, .nargs = 2,
	.args = copy_args, .cpu = sum_cpu, .combine = sum_combine };

static const brt_kernel k_map_reduce = { .name = "sum",
	.program = &rt_program, .kclass = BRT_KERNEL_MAP, .nargs = 2,
	.args = red_scalar_args, .cpu = sum_cpu };

static void c_misc(void)
{
	float lo = 0, hi = 1;
	brt_stream *it = brt_stream_new_iter(rt_float, 1, (unsigned[]){ 4 },
		&lo, &hi);
	brt_stream_fill(it, &lo);
	rt_errors("fill an iterator", it);
	brt_stream_assign(it, it);
	rt_errors("assign to an iterator", it);
	brt_stream *s = rt_new1(4);
	brt_arg a[1] = { { .s = s } };
	brt_run(&k_scatter_only, a, NULL);
	rt_errors("scatter without a domain", s);
	unsigned d4[4] = { 4, 1, 1, 2 };
	brt_stream *g = brt_stream_new(rt_float, 4, d4);
	brt_stream *h = brt_stream_new(rt_float, 4, d4);
	brt_stream_fill(g, &lo);
	brt_arg ga[2] = { { .s = g }, { .s = h } };
	brt_run(&k_rev4, ga, NULL);
	rt_errors("4D group kernel", h);
	brt_stream *f = filled(4), *o = rt_new1(4);
	brt_arg ra[2] = { { .s = f }, { .s = o } };
	brt_run(&k_not_reduce, ra, NULL);
	rt_errors("reduce kernel without a reduce argument", o);
	float t = 0;
	brt_arg mr[2] = { { .s = f }, { .target = &t } };
	brt_run(&k_map_reduce, mr, NULL);
	rt_last("reduce argument of a map kernel");
	brt_device *bogus = (brt_device *)&lo;
	brt_useDevices(&bogus, 1, NULL);
	rt_last("useDevices of a foreign pointer");
	unsigned n = 7;
	brt_device *const *none = brt_getDevices(NULL, &n);
	printf("getDevices(NULL): %p %u\n", (void *)none, n);
	rt_last("getDevices(NULL)");
	brt_stream *all[] = { it, s, g, h, f, o };
	for (int i = 0; i < 6; i++)
		brt_stream_free(all[i]);
}

static void c_null_api(void)
{
	printf("error(NULL) %d\n", (int)brt_stream_error(NULL));
	printf("errorLog(NULL) \"%s\"\n", brt_stream_errorLog(NULL));
	printf("isSync(NULL) %d\n", brt_stream_isSync(NULL));
	rt_last("isSync(NULL)");
	printf("finish(NULL) %d\n", brt_stream_finish(NULL));
	rt_last("finish(NULL)");
	brt_stream_fill(NULL, data);
	rt_last("fill(NULL)");
	brt_stream_write(NULL, data, NULL);
	rt_last("write(NULL)");
	brt_stream *s = rt_new1(4);
	brt_stream_fill(s, NULL);
	rt_errors("fill from NULL", s);
	unsigned a = 1, b = 9;
	brt_stream_read_range(s, &a, &b, data, NULL);
	rt_errors("range past the end", s);
	brt_stream_write_range(s, NULL, &b, data, NULL);
	rt_errors("range without start", s);
	streamPrint(NULL);
	rt_last("streamPrint(NULL)");
	streamSwap(NULL, &s);
	rt_last("streamSwap(NULL)");
	brt_stream *it = brt_stream_new_iter(rt_float, 1, &a, NULL, data);
	rt_errors("iterator from NULL", it);
	brt_stream_free(it);
	unsigned n;
	printf("getDevices(\"gpu\") %p\n", (void *)brt_getDevices("gpu", &n));
	printf("count %u, rank(NULL) %u, dim(NULL) %u\n", n, brt_stream_rank(NULL),
		brt_stream_dim(NULL, 0));
	brt_stream_free(NULL);
	brt_stream_free(s);
}

/* Streams released with errors never asked about: a line each on
 * standard error, each distinct line once, 8 at most and then one line
 * more; none for errors asked about, through the stream or a view. */
static void c_unchecked(void)
{
	unsigned a[1] = { 1 }, b[1] = { 3 };
	char flag[16];
	brt_stream *s1 = rt_new1(4), *s2 = rt_new1(4), *s3 = rt_new1(4);
	brt_stream *s4 = rt_new1(4), *v4;

	brt_stream_read(s1, NULL, NULL);	/* reported */
	brt_stream_read(s2, NULL, NULL);	/* the same line: not again */
	brt_stream_read(s3, NULL, NULL);
	brt_stream_errorLog(s3);		/* asked: not reported */
	v4 = brt_stream_domain(s4, a, b);
	brt_stream_read(v4, NULL, NULL);
	brt_stream_error(v4);		/* asked through the view */
	brt_stream_free(v4);
	fprintf(stderr, "-- 1\n");
	brt_stream_free(s1);
	fprintf(stderr, "-- 2\n");
	brt_stream_free(s2);
	brt_stream_free(s3);
	brt_stream_free(s4);
	fprintf(stderr, "-- 3\n");
	/* asked, then a new error: reported */
	s1 = rt_new1(4);
	brt_stream_read(s1, data, "one");
	brt_stream_error(s1);
	brt_stream_read(s1, data, "two");
	brt_stream_free(s1);
	fprintf(stderr, "-- 4\n");
	/* ten more distinct lines: six printed (8 in all), then one */
	for (int i = 0; i < 10; i++) {
		s1 = rt_new1(4);
		snprintf(flag, sizeof flag, "f%d", i);
		brt_stream_read(s1, data, flag);
		brt_stream_free(s1);
	}
	fprintf(stderr, "-- 5\n");
}

static const struct {
	const char *name;
	void (*fn)(void);
} cases[] = {
	{ "read_null", c_read_null }, { "write_null", c_write_null },
	{ "write_uninit", c_write_uninit }, { "flags", c_flags },
	{ "alloc_type", c_alloc_type }, { "alloc_rank", c_alloc_rank },
	{ "alloc_overflow", c_alloc_overflow }, { "alloc_fail", c_alloc_fail },
	{ "iter_struct", c_iter_struct }, { "assign", c_assign },
	{ "domain", c_domain }, { "exec", c_exec },
	{ "kernel_null", c_kernel_null }, { "uninit", c_uninit },
	{ "alias", c_alias }, { "shapes", c_shapes }, { "outputs", c_outputs },
	{ "propagate", c_propagate }, { "device", c_device }, { "lost", c_lost },
	{ "null_api", c_null_api }, { "reduce_alloc", c_reduce_alloc },
	{ "misc", c_misc }, { "loop", c_loop }, { "swap", c_swap },
	{ "unchecked", c_unchecked },
};

int main(int argc, char **argv)
{
	for (int i = 0; i < 64; i++)
		data[i] = (float)i;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (argc > 1 && !strcmp(argv[1], cases[i].name)) {
			cases[i].fn();
			return 0;
		}
	fprintf(stderr, "usage: errors CASE\n");
	return 2;
}
