/* free.c - brt_stream_free waits for the transfers that still use the
 * caller's array (brt.3): an async write, a nocopy read, through a view
 * too, so that the array may go once the stream has; a view outlives the
 * stream it is a view of. */
#include "kernels.h"

#define N (1 << 20)
#define M 4096

static void report(const char *what, const float *out, const float *in,
	float k, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += out[i] != k * in[i];
	printf("%s: %s\n", what, bad ? "wrong" : "ok");
}

/* An async write into an array of this frame, the stream freed before
 * the frame goes. */
static float in_frame(const float *in)
{
	float out[M];
	unsigned n = M;
	brt_stream *s = brt_stream_new(rt_float, 1, &n);
	memset(out, 0, sizeof out);
	brt_stream_read(s, in, NULL);
	brt_stream_write(s, out, "async");
	brt_stream_free(s);
	float sum = 0;
	for (int i = 0; i < M; i++)
		sum += out[i] - in[i];
	return sum;
}

/* The frame in_frame had, filled: a write landing late would change it. */
static int scribble(void)
{
	volatile float fill[2 * M];
	int bad = 0;
	for (int i = 0; i < 2 * M; i++)
		fill[i] = -1;
	for (int r = 0; r < 1000; r++)
		for (int i = 0; i < 2 * M; i++)
			bad += fill[i] != -1;
	return bad;
}

int main(void)
{
	float *in = brmalloc(N * sizeof *in), *out = malloc(N * sizeof *out);
	for (int i = 0; i < N; i++)
		in[i] = (float)(i % 1000);
	unsigned n = N, lo = N / 4, hi = N;
	float k = 3;

	/* a kernel's output written async, then freed */
	brt_stream *a = brt_stream_new(rt_float, 1, &n);
	brt_stream *b = brt_stream_new(rt_float, 1, &n);
	brt_stream_read(a, in, NULL);
	brt_arg args[3] = { { .s = a }, { .value = &k }, { .s = b } };
	brt_run(&k_scale, args, NULL);
	memset(out, 0, N * sizeof *out);
	brt_stream_write(b, out, "async");
	brt_stream_free(b);
	report("async write, stream freed", out, in, 3, N);

	/* through a view, the view freed */
	b = args[2].s = brt_stream_new(rt_float, 1, &n);
	brt_run(&k_scale, args, NULL);
	brt_stream *v = brt_stream_domain(b, &lo, &hi);
	memset(out, 0, N * sizeof *out);
	brt_stream_write(v, out, "async");
	brt_stream_free(v);
	report("async write, view freed", out, in + N / 4, 3, N - N / 4);

	/* a nocopy read, the stream freed (its view still reads it), then
	   the array changed */
	brt_stream *c = brt_stream_new(rt_float, 1, &n);
	v = brt_stream_domain(c, &lo, &hi);
	brt_stream_read(c, in, "nocopy");
	brt_stream_free(c);
	for (int i = 0; i < N; i++)
		in[i] = -in[i];
	brt_stream_write(v, out, NULL);
	report("nocopy read, stream freed", out, in + N / 4, -1, N - N / 4);
	rt_errors("the view, after its stream", v);
	brt_stream_free(v);

	/* an async write into a frame that returns */
	for (int i = 0; i < N; i++)
		in[i] = (float)(i % 1000);
	float diff = in_frame(in);
	int late = scribble();
	printf("async write into a frame: %s\n", diff || late ? "wrong" : "ok");

	brt_stream_free(a);
	brt_stream_free(b);
	brfree(in);
	free(out);
	return 0;
}
