/* async.c - asynchrony (guide 1.13, 1.14): reads and kernel launches
 * return at once, write waits unless "async", isSync and finish per
 * stream, "nocopy" with aligned and unaligned arrays, and the guide's
 * tiled example that overlaps transfers and kernels. */
#include "kernels.h"

#define N (1 << 16)
#define PARTS 4

static int check(const char *what, const float *out, const float *in,
	float k, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += out[i] != k * in[i];
	printf("%s: %s\n", what, bad ? "wrong" : "ok");
	return bad;
}

int main(void)
{
	float *in = brmalloc(N * sizeof *in), *out = brmalloc(N * sizeof *out);
	for (int i = 0; i < N; i++)
		in[i] = (float)(i % 1000);
	unsigned n = N;
	brt_stream *a = brt_stream_new(rt_float, 1, &n);
	brt_stream *b = brt_stream_new(rt_float, 1, &n);
	float k = 3;
	brt_arg args[3] = { { .s = a }, { .value = &k }, { .s = b } };

	/* guide 1.13.2: read, kernel, async write, wait with isSync */
	brt_stream_read(a, in, NULL);
	in[0] = 12345;	/* the read took a copy: no effect */
	while (!brt_stream_isSync(a))
		;
	brt_run(&k_scale, args, NULL);
	while (!brt_stream_isSync(a))
		;
	brt_stream_write(b, out, "async");
	while (!brt_stream_isSync(b))
		;
	in[0] = 0;
	check("read, kernel, async write", out, in, 3, N);

	/* guide 1.14.3: nocopy from a brmalloc'd (256-byte aligned) array */
	k = 2;
	brt_stream_read(a, in, "nocopy");
	brt_stream_finish(a);
	brt_run(&k_scale, args, NULL);
	brt_stream_write(b, out, "async nocopy");
	printf("finish: %d\n", brt_stream_finish(b));
	check("nocopy, aligned", out, in, 2, N);
	/* an unaligned array falls back to a copy, without a message */
	float *odd = malloc((N + 1) * sizeof *odd);
	memcpy(odd + 1, in, N * sizeof *odd);
	brt_stream_read(a, odd + 1, "nocopy");
	brt_run(&k_scale, args, NULL);
	brt_stream_write(b, out, "nocopy");
	check("nocopy, unaligned", out, in, 2, N);
	free(odd);
	rt_errors("b", b);

	/* guide 1.13.2: four tiles, transfers overlapping kernels */
	brt_stream *is[PARTS], *os[PARTS];
	float *tin[PARTS], *tout[PARTS];
	unsigned t = N / PARTS;
	for (int p = 0; p < PARTS; p++) {
		is[p] = brt_stream_new(rt_float, 1, &t);
		os[p] = brt_stream_new(rt_float, 1, &t);
		tin[p] = in + p * t;
		tout[p] = out + p * t;
	}
	memset(out, 0, N * sizeof *out);
	k = 5;
#define KCALL(p) do { brt_arg ka[3] = { { .s = is[p] }, { .value = &k }, \
	{ .s = os[p] } }; brt_run(&k_scale, ka, NULL); } while (0)
	brt_stream_read(is[0], tin[0], NULL);
	KCALL(0);
	brt_stream_read(is[1], tin[1], NULL);
	brt_stream_write(os[0], tout[0], "async");
	KCALL(1);
	brt_stream_read(is[2], tin[2], NULL);
	brt_stream_finish(os[0]);
	brt_stream_write(os[1], tout[1], "async");
	KCALL(2);
	brt_stream_read(is[3], tin[3], NULL);
	brt_stream_finish(os[1]);
	brt_stream_write(os[2], tout[2], "async");
	KCALL(3);
	brt_stream_finish(os[2]);
	brt_stream_write(os[3], tout[3], NULL);
	check("four tiles", out, in, 5, N);
	for (int p = 0; p < PARTS; p++) {
		brt_stream_free(is[p]);
		brt_stream_free(os[p]);
	}
	/* freeing a stream with work in flight is safe */
	brt_stream_read(a, in, NULL);
	brt_run(&k_scale, args, NULL);
	brt_stream_free(a);
	brt_stream_free(b);
	brfree(in);
	brfree(out);
	return 0;
}
