/* viewerr.c - an error on a domain view reaches the stream it is a view of
 * (brt.3): a kernel, assign, read, write or fill through a view that is
 * freed at once, as brgen's code frees the views of .domain(), is reported
 * by the stream's error and errorLog; so for a view of a view. */
#include "kernels.h"

static brt_stream *view1(brt_stream *s, unsigned lo, unsigned hi)
{
	return brt_stream_domain(s, &lo, &hi);
}

/* As rt_errors, the lines of B's log since the last call only. */
static void errors_b(const char *label, brt_stream *b)
{
	static size_t seen;
	const char *log = brt_stream_errorLog(b);
	printf("%s: b: error %d\n", label, (int)brt_stream_error(b));
	for (log += seen; *log; log += strcspn(log, "\n") + 1)
		printf("  %.*s\n", (int)strcspn(log, "\n"), log);
	seen = strlen(brt_stream_errorLog(b));
}

static void copy(brt_stream *in, brt_stream *out)
{
	brt_arg args[2] = { { .s = in }, { .s = out } };
	brt_run(&k_copy, args, NULL);
}

int main(void)
{
	float v[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, out[8];
	brt_stream *a = rt_new1(4), *b = rt_new1(8), *v1, *v2;
	brt_stream_read(a, v, NULL);
	brt_stream_read(b, v, NULL);

	/* b.domain(-1, 3) as a kernel's output: the kernel does not run */
	copy(a, v1 = view1(b, (unsigned)-1, 3));
	brt_stream_free(v1);
	errors_b("kernel output, a bad view", b);
	/* two views of b bound as input and output */
	copy(v1 = view1(b, 0, 4), v2 = view1(b, 4, 8));
	brt_stream_free(v2);
	copy(v1, v2 = view1(b, 2, 6));
	brt_stream_free(v1);
	brt_stream_free(v2);
	errors_b("kernel output, an overlapping view", b);
	/* an input's error reaches the output view's stream too */
	brt_stream_read(a, NULL, NULL);
	copy(a, v1 = view1(b, 4, 8));
	brt_stream_free(v1);
	errors_b("kernel output, an input with an error", b);
	brt_stream_error(a);

	/* assign, read, write and fill through a view */
	brt_stream *i4 = brt_stream_new(brt_type_make(BRT_INT, 1), 1,
		(unsigned[]){ 4 });
	brt_stream_assign(v1 = view1(b, 0, 4), i4);
	brt_stream_free(v1);
	errors_b("assign", b);
	brt_stream_read(v1 = view1(b, 0, 4), NULL, NULL);
	brt_stream_free(v1);
	errors_b("read", b);
	brt_stream_write(v1 = view1(b, 0, 4), out, "fast");
	brt_stream_free(v1);
	errors_b("write", b);
	brt_stream_fill(v1 = view1(b, 0, 4), NULL);
	brt_stream_free(v1);
	errors_b("fill", b);

	/* a view of a view: both streams take the error */
	v1 = view1(b, 2, 8);
	brt_stream_fill(v2 = view1(v1, 0, 2), NULL);
	brt_stream_free(v2);
	rt_errors("view of a view, the view", v1);
	errors_b("view of a view", b);
	brt_stream_free(v1);

	/* b itself is fine: the kernel that did run wrote b[4,8) */
	brt_stream_write(b, out, NULL);
	rt_print("b", out, 8);
	errors_b("at the end", b);
	brt_stream_free(i4);
	brt_stream_free(a);
	brt_stream_free(b);
	return 0;
}
