/* ref.c - reference results of the benchmark cases, computed on the host
 * in double precision, against which every implementation is checked. */
#include "bench.h"

#include <math.h>
#include <stdio.h>

/* Relative error of GOT against WANT, scaled by MAG (the sum of the
 * magnitudes of the terms, so cancellation does not fail a check). */
static int close_enough(double got, double want, double mag, double tol)
{
	return fabs(got - want) <= tol * (mag > 1e-30 ? mag : 1.0) &&
		!isnan(got);
}

static int fail_at(struct bench *b, const char *what, long i, double got,
	double want)
{
	char msg[160];

	snprintf(msg, sizeof msg, "%s[%ld] = %g, expected %g", what, i, got,
		want);
	bench_fail(b, msg);
	return 0;
}

int ref_saxpy(struct bench *b, long n, float a, const float *x,
	const float *y, const float *out)
{
	for (long i = 0; i < n; i++) {
		double want = (double)a * x[i] + y[i];
		double mag = fabs((double)a * x[i]) + fabs(y[i]);

		if (!close_enough(out[i], want, mag, 1e-6))
			return fail_at(b, "r", i, out[i], want);
	}
	return 1;
}

int ref_copy(struct bench *b, long n, const float *in, const float *out)
{
	for (long i = 0; i < n; i++)
		if (out[i] != in[i])
			return fail_at(b, "out", i, out[i], in[i]);
	return 1;
}

int ref_sum(struct bench *b, long n, const float *x, float sum)
{
	double want = 0, mag = 0;

	for (long i = 0; i < n; i++) {
		want += x[i];
		mag += fabs(x[i]);
	}
	if (!close_enough(sum, want, mag, 1e-5))
		return fail_at(b, "sum", 0, sum, want);
	return 1;
}

int ref_rowsum(struct bench *b, long rows, long cols, const float *x,
	const float *out)
{
	for (long r = 0; r < rows; r++) {
		double want = 0, mag = 0;

		for (long c = 0; c < cols; c++) {
			want += x[r * cols + c];
			mag += fabs(x[r * cols + c]);
		}
		if (!close_enough(out[r], want, mag, 1e-5))
			return fail_at(b, "rowsum", r, out[r], want);
	}
	return 1;
}

/* the sampled elements of an N x N result: a stride prime to N */
#define SAMPLES 512

int ref_matmult(struct bench *b, long n, const float *A, const float *B,
	const float *C)
{
	long nn = n * n;

	for (long s = 0; s < SAMPLES; s++) {
		long i = (s * 7919 + s / 3) % nn, y = i / n, x = i % n;
		double want = 0, mag = 0;

		for (long k = 0; k < n; k++) {
			want += (double)A[y * n + k] * B[k * n + x];
			mag += fabs((double)A[y * n + k] * B[k * n + x]);
		}
		if (!close_enough(C[i], want, mag, 1e-5))
			return fail_at(b, "C", i, C[i], want);
	}
	return 1;
}

int ref_search(struct bench *b, long n, long len, const float *keys,
	const float *index)
{
	for (long i = 0; i < n; i++) {
		double k = keys[i] * 0.5;
		double want = (k == floor(k) && k >= 0 && k < len) ? k : -1;

		if (index[i] != (float)want)
			return fail_at(b, "index", i, index[i], want);
	}
	return 1;
}

double ref_mandel(struct bench *b, long side, int maxit, const float *out)
{
	double total = 0;
	long bad = 0, checked = 0;

	for (long i = 0; i < side * side; i++)
		total += out[i];
	/* Contracted or reordered float arithmetic may change the count of
	 * a point near the set's edge: allow 1% of the sample to differ. */
	for (long i = 0; i < side * side; i += 977, checked++) {
		float cr = -2.0f + (float)(i % side) * (3.0f / (float)side);
		float ci = -1.5f + (float)(i / side) * (3.0f / (float)side);
		float x = 0, y = 0;
		int it = 0;

		while (it < maxit && x * x + y * y <= 4.0f) {
			float t = x * x - y * y + cr;
			y = 2.0f * x * y + ci;
			x = t;
			it++;
		}
		if (out[i] != (float)it)
			bad++;
	}
	if (bad * 100 > checked) {
		char msg[96];

		snprintf(msg, sizeof msg, "%ld of %ld sampled points differ",
			bad, checked);
		bench_fail(b, msg);
		return -1;
	}
	return total;
}

int ref_nbody(struct bench *b, long n, const float *pos, const float *acc)
{
	for (long i = 0; i < n; i += n / 61 + 1) {
		double a[3] = { 0, 0, 0 }, mag = 0;

		for (long j = 0; j < n; j++) {
			double d[3], r2, inv;

			for (int c = 0; c < 3; c++)
				d[c] = (double)pos[4 * j + c] - pos[4 * i + c];
			r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] +
				BENCH_NBODY_EPS2;
			inv = pos[4 * j + 3] / (r2 * sqrt(r2));
			for (int c = 0; c < 3; c++)
				a[c] += d[c] * inv;
			mag += fabs(inv) * sqrt(r2);
		}
		for (int c = 0; c < 3; c++)
			if (!close_enough(acc[4 * i + c], a[c], mag, 1e-4))
				return fail_at(b, "acc", 4 * i + c,
					acc[4 * i + c], a[c]);
	}
	return 1;
}

static float at_clamped(const float *in, long side, long y, long x)
{
	y = y < 0 ? 0 : y >= side ? side - 1 : y;
	x = x < 0 ? 0 : x >= side ? side - 1 : x;
	return in[y * side + x];
}

int ref_stencil(struct bench *b, long side, const float *in,
	const float *out)
{
	for (long y = 0; y < side; y++)
		for (long x = 0; x < side; x++) {
			double want = 0.2 * ((double)at_clamped(in, side, y, x) +
				at_clamped(in, side, y - 1, x) +
				at_clamped(in, side, y + 1, x) +
				at_clamped(in, side, y, x - 1) +
				at_clamped(in, side, y, x + 1));

			if (!close_enough(out[y * side + x], want, 1.0, 1e-5))
				return fail_at(b, "out", y * side + x,
					out[y * side + x], want);
		}
	return 1;
}

int ref_chain(struct bench *b, long n, int nk, const float *in,
	const float *out)
{
	for (long i = 0; i < n; i++) {
		float want = in[i];

		for (int k = 0; k < nk; k++)
			want += 1.0f;
		if (out[i] != want)
			return fail_at(b, "out", i, out[i], want);
	}
	return 1;
}
