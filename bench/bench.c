/* bench.c - the shared part of every benchmark program (bench.h). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_WARMUP 1
#define BENCH_DEFAULT_RUNS 7

struct bench {
	const char *name, *impl;
	char backend[16];
	char device[256];
	long size;
	int runs, done;
	int calls, calls_read;	/* calls per timed run; 1: bench_calls read */
	double t0;
	double *ms;		/* RUNS samples */
	double bytes, flops;
	char failure[256];
};

double bench_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

int bench_threads(void)
{
	const char *s = getenv("BENCH_THREADS");
	long n = s ? strtol(s, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

struct bench *bench_new(int argc, char **argv, const char *name,
	const char *impl, long default_size)
{
	struct bench *b = calloc(1, sizeof *b);

	if (!b)
		return NULL;
	b->name = name;
	b->impl = impl;
	b->size = argc > 1 ? strtol(argv[1], NULL, 0) : default_size;
	b->runs = argc > 2 ? atoi(argv[2]) : BENCH_DEFAULT_RUNS;
	if (b->size <= 0)
		b->size = default_size;
	b->calls = argc > 3 ? atoi(argv[3]) : 1;
	if (b->runs < 1)
		b->runs = 1;
	if (b->calls < 1)
		b->calls = 1;
	b->ms = calloc((size_t)b->runs, sizeof *b->ms);
	strcpy(b->backend, "?");
	strcpy(b->device, "?");
	return b;
}

long bench_size(const struct bench *b)
{
	return b->size;
}

int bench_calls(struct bench *b)
{
	b->calls_read = 1;
	return b->calls;
}

int bench_iterations(const struct bench *b)
{
	return b->runs + BENCH_WARMUP;
}

void bench_start(struct bench *b)
{
	b->t0 = bench_now_ms();
}

void bench_stop(struct bench *b)
{
	double t = (bench_now_ms() - b->t0) / b->calls;

	if (b->done >= BENCH_WARMUP && b->done - BENCH_WARMUP < b->runs)
		b->ms[b->done - BENCH_WARMUP] = t;
	b->done++;
}

void bench_record(struct bench *b, double ms)
{
	b->runs = 1;
	b->ms[0] = ms;
	b->done = BENCH_WARMUP + 1;
}

void bench_device(struct bench *b, const char *backend, const char *device)
{
	snprintf(b->backend, sizeof b->backend, "%s", backend);
	snprintf(b->device, sizeof b->device, "%s", device ? device : "?");
	/* the device string is quoted on the result line */
	for (char *p = b->device; *p; p++)
		if (*p == '"' || *p == '\n')
			*p = '\'';
}

void bench_work(struct bench *b, double bytes, double flops)
{
	b->bytes = bytes;
	b->flops = flops;
}

void bench_fail(struct bench *b, const char *what)
{
	if (!b->failure[0])
		snprintf(b->failure, sizeof b->failure, "%s", what);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int bench_report(struct bench *b)
{
	int n = b->done - BENCH_WARMUP, ok;
	double med = 0, min = 0;

	if (n > b->runs)
		n = b->runs;
	if (n > 0) {
		qsort(b->ms, (size_t)n, sizeof *b->ms, cmp_double);
		med = n % 2 ? b->ms[n / 2] : (b->ms[n / 2 - 1] + b->ms[n / 2]) / 2;
		min = b->ms[0];
	} else {
		bench_fail(b, "no timed run");
	}
	if (b->calls > 1 && !b->calls_read)
		bench_fail(b, "this case makes one call per run (no CALLS)");
	ok = !b->failure[0];
	if (b->calls > 1)
		printf("case=%s_x%d", b->name, b->calls);
	else
		printf("case=%s", b->name);
	printf(" size=%ld impl=%s backend=%s device=\"%s\" runs=%d "
		"median_ms=%.4f min_ms=%.4f gbs=%.3f gflops=%.3f ok=%d\n",
		b->size, b->impl, b->backend, b->device, n, med, min,
		med > 0 ? b->bytes / med * 1e-6 : 0.0,
		med > 0 ? b->flops / med * 1e-6 : 0.0, ok);
	if (!ok)
		fprintf(stderr, "%s (%s): check failed: %s\n", b->name,
			b->impl, b->failure);
	fflush(stdout);
	free(b->ms);
	free(b);
	return ok ? 0 : 1;
}

/* xorshift32: the same numbers on every machine */
static unsigned next_random(unsigned *s)
{
	unsigned x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

float *bench_floats(long n, unsigned seed, float lo, float hi)
{
	float *p = malloc((size_t)n * sizeof *p);
	unsigned s = seed * 2654435761u + 1;

	if (!p)
		return NULL;
	for (long i = 0; i < n; i++)
		p[i] = lo + (hi - lo) * (float)(next_random(&s) >> 8) *
			(1.0f / 16777216.0f);
	return p;
}

float *bench_zeros(long n)
{
	return calloc((size_t)n, sizeof(float));
}

void bench_free(void *p)
{
	free(p);
}

float *bench_search_array(long len)
{
	float *p = malloc((size_t)len * sizeof *p);

	for (long i = 0; p && i < len; i++)
		p[i] = 2.0f * (float)i;
	return p;
}

/* Keys strictly between the first and the last element, half of them
 * present: the guide's search then never gathers outside the array. */
float *bench_search_keys(long n, long len, unsigned seed)
{
	float *p = malloc((size_t)n * sizeof *p);
	unsigned s = seed * 2654435761u + 1;
	unsigned span = (unsigned)(4 * (len - 1) - 1);

	for (long i = 0; p && i < n; i++)
		p[i] = 0.5f * (float)(1 + next_random(&s) % span);
	return p;
}

float *bench_bodies(long n, unsigned seed)
{
	float *p = bench_floats(4 * n, seed, -1.0f, 1.0f);

	for (long i = 0; p && i < n; i++)
		p[4 * i + 3] = 0.5f + 0.25f * (p[4 * i + 3] + 1.0f);
	return p;
}

float *bench_rows(const float *m, long n, long first, long step)
{
	long count = (n - first + step - 1) / step;
	float *p = malloc((size_t)(count * n) * sizeof *p);

	for (long r = 0; p && r < count; r++)
		memcpy(p + r * n, m + (first + r * step) * n,
			(size_t)n * sizeof *p);
	return p;
}

void bench_put_rows(float *m, long n, long first, long step,
	const float *rows)
{
	long count = (n - first + step - 1) / step;

	for (long r = 0; r < count; r++)
		memcpy(m + (first + r * step) * n, rows + r * n,
			(size_t)n * sizeof *m);
}
