/* records.c - scatters outside their array (brt.3, Accesses outside their
 * array): on OpenCL a launch does not wait for its records, which are read
 * when a stream they name synchronises; the error still reaches the
 * stream, its log and the kernels that read it, on both backends. Then
 * commands whose wait lists could name one event twice: one stream as two
 * inputs, a read while a write is pending, a copy between two views of one
 * stream. Prints one line per check. */
#include "kernels.h"

#define N 64

static brt_stream *filled(unsigned n, float v)
{
	brt_stream *s = rt_new1(n);
	brt_stream_fill(s, &v);
	return s;
}

/* PUT of A at IDX into S */
static void put(brt_stream *idx, brt_stream *a, brt_stream *s)
{
	brt_arg args[3] = { { .s = idx }, { .s = a }, { .s = s } };
	brt_run(&k_put, args, NULL);
}

int main(void)
{
	float x[2 * N], z[2 * N];
	for (int i = 0; i < 2 * N; i++)
		x[i] = (float)i;
	brt_stream *in = rt_new1(4), *out = rt_new1(4), *a = filled(4, 7);
	brt_stream_read(in, (float[]){ 0, 1, 2, 3 }, NULL);
	brt_stream_read(out, (float[]){ 3, 1, 9, -1 }, NULL);
	/* in range: no error */
	brt_stream *s = filled(4, 0);
	put(in, a, s);
	rt_errors("in range", s);
	/* 100 launches that drop writes: one line when s synchronises */
	for (int i = 0; i < 100; i++)
		put(out, a, s);
	brt_stream_write(s, z, NULL);
	rt_print("dropped", z, 4);
	rt_errors("100 launches", s);
	/* the error propagates to a kernel that reads the stream */
	brt_stream *c = rt_new1(4);
	put(out, a, s);
	brt_arg cp[2] = { { .s = s }, { .s = c } };
	brt_run(&k_copy, cp, NULL);
	rt_errors("copy of s", c);
	rt_errors("s", s);
	/* finish, isSync and free are synchronisations too */
	put(out, a, s);
	brt_stream_finish(s);
	printf("after finish: error %d\n", (int)brt_stream_error(s));
	put(out, a, s);
	while (!brt_stream_isSync(s))
		;
	printf("after isSync: log has %zu bytes\n",
		strlen(brt_stream_errorLog(s)));
	brt_stream *gone = filled(4, 0);
	put(out, a, gone);
	brt_stream_free(gone);
	/* six streams: more record slots than a device has */
	brt_stream *t[6];
	for (int i = 0; i < 6; i++) {
		t[i] = filled(4, 0);
		put(i % 2 ? out : in, a, t[i]);
		put(out, a, t[i]);
	}
	for (int i = 0; i < 6; i++) {
		char label[16];
		snprintf(label, sizeof label, "t[%d]", i);
		rt_errors(label, t[i]);
		brt_stream_free(t[i]);
	}
	brt_stream_free(c);
	brt_stream_free(s);
	brt_stream_free(in);
	brt_stream_free(out);
	brt_stream_free(a);

	/* one event twice in a wait list: 200 rounds */
	int bad = 0;
	for (int r = 0; r < 200; r++) {
		unsigned n = 1 + (unsigned)r % N, n2 = 2 * n;
		unsigned lo0 = 0, lo1 = n, hi0 = n, hi1 = n2;
		brt_stream *p = rt_new1(n), *q = rt_new1(n);
		brt_stream *w = brt_stream_new(rt_float, 1, &n2);
		brt_stream *lo = brt_stream_domain(w, &lo0, &lo1);
		brt_stream *hi = brt_stream_domain(w, &hi0, &hi1);
		brt_stream_read(p, x, NULL);		/* pending */
		brt_arg twice[3] = { { .s = p }, { .s = p }, { .s = q } };
		brt_run(&k_add, twice, NULL);		/* q = 2x */
		brt_stream_write(q, z, "async");	/* pending ... */
		brt_stream_read(q, x, NULL);		/* ... and q = x */
		brt_run(&k_add, (brt_arg[3]){ { .s = q }, { .s = q },
			{ .s = p } }, NULL);		/* p = 2x */
		brt_stream_read(w, x, NULL);
		brt_stream_assign(hi, lo);		/* one buffer */
		brt_arg lh[2] = { { .s = lo }, { .s = hi } };
		brt_run(&k_copy, lh, NULL);
		brt_stream_write(p, z, NULL);
		for (unsigned i = 0; i < n; i++)
			bad += z[i] != 2 * x[i];
		brt_stream_write(hi, z, NULL);
		for (unsigned i = 0; i < n; i++)
			bad += z[i] != x[i];
		brt_stream *all[] = { p, q, lo, hi, w };
		for (int i = 0; i < 5; i++) {
			bad += brt_stream_error(all[i]) != BR_NO_ERROR;
			brt_stream_free(all[i]);
		}
	}
	printf("one event twice, 200 rounds: %s\n", bad ? "wrong" : "ok");
	return 0;
}
