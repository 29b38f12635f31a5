/* chain.c - a probe, not a benchmark case: what a chain of 1,000 small
 * launches (the table's chain: out = in + 1 over N floats, ping-ponging
 * between two buffers, one clFinish at the end) costs when the host does
 * a little more per launch than the raw chain, the way a runtime does.
 * Each variant adds one thing to the raw chain:
 *
 *   raw        two kernel objects, arguments set once, no local size
 *   local      a local size of 256 and float4 work-items, as libbrt's
 *              packed entry launches (N / 4 work-items)
 *   setargs    one kernel object whose two buffers are set before
 *              every launch
 *   flush      clFlush after 1, 2, 4, ... 64 launches, then every 64
 *   lock       a mutex taken and released around every launch
 *   all        all of the above
 *   args6      the raw chain's kernel with the four by-value arguments
 *              a generated kernel adds: a view (76 bytes, as libbrt's
 *              32-bit brt_view) for each buffer, the domain and the
 *              offset (int4 each)
 *   args3      the same four in one struct argument
 *   args6 setargs, args3 setargs   with both buffers set every launch
 *
 * and then, for the rest of the run, two things a runtime's process has
 * that the raw chain's has not, each measured with the raw chain and with
 * all of the above again:
 *
 *   +xfer      a second queue, which wrote both buffers before the chains
 *   +pool      16 more threads, asleep on a condition variable
 *
 *     cc -O2 chain.c -lOpenCL -lpthread -o chain-probe && ./chain-probe [N]
 *
 * N (default 4096, a multiple of 256) is the number of floats. The
 * variants run in turn, three rounds, then raw and all with +xfer, then
 * with +xfer +pool; each a median of 21 chains after one more. Prints
 * one line per variant and round: name, ms a chain, us a launch. Checks
 * the buffers after each variant against the chain's count (exit status
 * 1 when wrong). Runs on a GPU, else on any OpenCL device. */
#define PROBE_NAME "chain-probe"
#include "probe.h"

#include <pthread.h>
#include <string.h>

#define RUNS 21
#define LAUNCHES 1000

static const char *src =
"__kernel void inc(__global const float *a, __global float *b)\n"
"{ size_t i = get_global_id(0); b[i] = a[i] + 1.0f; }\n"
"__kernel void inc4(__global const float4 *a, __global float4 *b, long n4)\n"
"{ size_t i = get_global_id(0); if (i < n4) b[i] = a[i] + 1.0f; }\n"
"typedef struct view { int d[4], p[4], base, rank, map; float lo[4], st[4]; } view;\n"
"__kernel void inc6(__global const float *a, const view av,\n"
"	__global float *b, const view bv, const int4 dom, const int4 off)\n"
"{ size_t i = get_global_id(0); b[bv.base + i] = a[av.base + i] + 1.0f; }\n"
"typedef struct meta { view av, bv; int dom[4], off[4]; } meta;\n"
"__kernel void inc3(__global const float *a, __global float *b,\n"
"	const meta m)\n"
"{ size_t i = get_global_id(0); b[m.bv.base + i] = a[m.av.base + i] + 1.0f; }\n";

enum { LOCAL = 1, SETARGS = 2, FLUSH = 4, LOCK = 8, ARGS6 = 16, ARGS3 = 32 };

static const struct {
	const char *name;
	unsigned what;
} variants[] = {
	{ "raw", 0 }, { "local", LOCAL }, { "setargs", SETARGS },
	{ "flush", FLUSH }, { "lock", LOCK },
	{ "all", LOCAL | SETARGS | FLUSH | LOCK },
	{ "args6", ARGS6 }, { "args3", ARGS3 },
	{ "args6 setargs", ARGS6 | SETARGS },
	{ "args3 setargs", ARGS3 | SETARGS },
};

static cl_context ctx;
static cl_command_queue q;
static cl_program prog;
static cl_mem buf[2];
static long n;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

/* a pool thread that no job ever wakes */
static void *sleeper(void *arg)
{
	pthread_mutex_lock(&lock);
	while (!arg)
		pthread_cond_wait(&never, &lock);
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* one chain of the variant WHAT on kernels K[3] (K[2] for SETARGS): ms */
static double chain(unsigned what, cl_kernel *k)
{
	size_t g = what & LOCAL ? (size_t)(n / 4 + 255) / 256 * 256
		: (size_t)n, l = 256;
	unsigned unflushed = 0, flush_at = 1;
	double t0 = now_ms();
	cl_int err;

	for (int j = 0; j < LAUNCHES; j++) {
		cl_kernel kj = k[j % 2];
		if (what & LOCK)
			pthread_mutex_lock(&lock);
		if (what & SETARGS) {
			kj = k[2];
			probe_set(kj, 0, sizeof buf[0], &buf[j % 2]);
			probe_set(kj, what & ARGS6 ? 2 : 1, sizeof buf[0],
				&buf[1 - j % 2]);
		}
		if ((err = clEnqueueNDRangeKernel(q, kj, 1, NULL, &g,
			what & LOCAL ? &l : NULL, 0, NULL, NULL)))
			die("clEnqueueNDRangeKernel", err);
		if ((what & FLUSH) && ++unflushed >= flush_at) {
			clFlush(q);
			unflushed = 0;
			flush_at = flush_at < 64 ? 2 * flush_at : 64;
		}
		if (what & LOCK)
			pthread_mutex_unlock(&lock);
	}
	clFinish(q);
	return now_ms() - t0;
}

int main(int argc, char **argv)
{
	cl_device_id dev;
	cl_int err;
	char name[256] = "";
	int wrong = 0;

	if (!(n = probe_arg(argc, argv, 4096, "N")))
		return 2;
	dev = probe_device(name, sizeof name);
	printf("device: %s, %ld floats, %d launches a chain\n", name, n,
		LAUNCHES);
	ctx = probe_context(dev);
	q = probe_queue(ctx, dev, 0);
	prog = probe_program(ctx, dev, src);
	float *h = calloc((size_t)n, sizeof *h);
	for (int i = 0; i < 2; i++) {
		buf[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE |
			CL_MEM_COPY_HOST_PTR, 4 * n, h, &err);
		if (err)
			die("clCreateBuffer", err);
	}
	long n4 = n / 4;
	cl_kernel plain[3], vec[3];
	for (int i = 0; i < 3; i++) {
		plain[i] = probe_kernel(prog, "inc");
		vec[i] = probe_kernel(prog, "inc4");
	}
	for (int i = 0; i < 2; i++) {
		probe_set(plain[i], 0, sizeof buf[0], &buf[i]);
		probe_set(plain[i], 1, sizeof buf[0], &buf[1 - i]);
		probe_set(vec[i], 0, sizeof buf[0], &buf[i]);
		probe_set(vec[i], 1, sizeof buf[0], &buf[1 - i]);
		probe_set(vec[i], 2, sizeof n4, &n4);
	}
	probe_set(vec[2], 2, sizeof n4, &n4);
	/* views of N floats from element 0, the domain N x 1 x 1 x 1 */
	struct { cl_int d[4], p[4], base, rank, map; cl_float lo[4], st[4]; }
		view = { { (cl_int)n, 1, 1, 1 }, { 1, (cl_int)n, (cl_int)n,
		(cl_int)n }, 0, 1, 0, { 0 }, { 0 } };
	struct { cl_int v[2][19]; cl_int dom[4], off[4]; } meta;
	cl_int dom[4] = { (cl_int)n, 1, 1, 1 }, off[4] = { 0 };
	cl_kernel k6[3], k3[3];
	memset(&meta, 0, sizeof meta);
	memcpy(meta.v[0], &view, sizeof view);
	memcpy(meta.v[1], &view, sizeof view);
	memcpy(meta.dom, dom, sizeof dom);
	for (int i = 0; i < 3; i++) {
		k6[i] = probe_kernel(prog, "inc6");
		k3[i] = probe_kernel(prog, "inc3");
		probe_set(k6[i], 1, sizeof view, &view);
		probe_set(k6[i], 3, sizeof view, &view);
		probe_set(k6[i], 4, sizeof dom, dom);
		probe_set(k6[i], 5, sizeof off, off);
		probe_set(k3[i], 2, sizeof meta, &meta);
		if (i < 2) {
			probe_set(k6[i], 0, sizeof buf[0], &buf[i]);
			probe_set(k6[i], 2, sizeof buf[0], &buf[1 - i]);
			probe_set(k3[i], 0, sizeof buf[0], &buf[i]);
			probe_set(k3[i], 1, sizeof buf[0], &buf[1 - i]);
		}
	}
	/* every chain adds LAUNCHES to buf[0] */
	double chains = 0;
	cl_command_queue q2 = NULL;
	for (int round = 1; round <= 5; round++) {
		const char *extra = "";
		if (round == 4) {	/* +xfer: a second queue wrote both */
			q2 = probe_queue(ctx, dev, 0);
			if ((err = clEnqueueReadBuffer(q, buf[0], CL_TRUE, 0,
				4 * n, h, 0, NULL, NULL)))
				die("clEnqueueReadBuffer", err);
			for (int i = 0; i < 2 && !err; i++)
				err = clEnqueueWriteBuffer(q2, buf[i], CL_TRUE,
					0, 4 * n, h, 0, NULL, NULL);
			if (err)
				die("clEnqueueWriteBuffer", err);
			clFinish(q2);
			extra = " +xfer";
		}
		if (round == 5) {	/* +pool: 16 threads asleep */
			pthread_t t;
			for (int i = 0; i < 16; i++)
				if (!pthread_create(&t, NULL, sleeper, NULL))
					pthread_detach(t);
			extra = " +xfer +pool";
		}
		for (size_t v = 0; v < sizeof variants / sizeof variants[0];
				v++) {
			unsigned what = variants[v].what;
			double t[RUNS];
			if (round > 3 && what && what != (LOCAL | SETARGS |
				FLUSH | LOCK))
				continue;	/* raw and all only */
			for (int r = -1; r < RUNS; r++) {
				double ms = chain(what, what & ARGS6 ? k6
					: what & ARGS3 ? k3 : what & LOCAL
					? vec : plain);
				if (r >= 0)
					t[r] = ms;
			}
			chains += RUNS + 1;
			qsort(t, RUNS, sizeof t[0], cmp);
			char label[64];
			snprintf(label, sizeof label, "%s%s", variants[v].name,
				extra);
			printf("%-22s round %d: ms=%.3f (min %.3f) "
				"us/launch=%.2f\n", label, round, t[RUNS / 2],
				t[0], 1e3 * t[RUNS / 2] / LAUNCHES);
			err = clEnqueueReadBuffer(q, buf[0], CL_TRUE, 0, 4 * n,
				h, 0, NULL, NULL);
			if (err)
				die("clEnqueueReadBuffer", err);
			int bad = 0;
			for (long i = 0; i < n && !bad; i++)
				bad = h[i] != (float)(chains * LAUNCHES);
			if (bad)
				printf("%-22s round %d: WRONG (%.0f, want "
					"%.0f)\n", label, round, h[0],
					chains * LAUNCHES);
			wrong += bad;
		}
	}
	if (q2)
		clReleaseCommandQueue(q2);
	free(h);
	return wrong > 0;
}
