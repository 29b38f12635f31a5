/* cpu.c - the CPU backend: malloc'd buffers, strided box copies and a
 * thread pool with one worker per core (DESIGN.md, Backends). The
 * backend completes every operation before returning (guide 1.13.1: the
 * runtime may issue an asynchronous request synchronously). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct brt_pool {
	pthread_mutex_t lock;	/* everything below */
	pthread_cond_t work, done;
	pthread_mutex_t busy;	/* one job at a time; others run inline */
	unsigned nworkers;	/* besides the calling thread */
	unsigned started;
	pthread_t *tid;
	int quit;
	unsigned long gen;	/* job number */
	void (*job)(void *ctx, int64_t i);
	void *ctx;
	int64_t n, next, finished;
};

/* Takes items of the current job until none is left; called with the
 * lock held, returns with it held. */
static void pool_drain(brt_pool *p)
{
	while (p->next < p->n) {
		int64_t i = p->next++;
		void (*job)(void *, int64_t) = p->job;
		void *ctx = p->ctx;
		pthread_mutex_unlock(&p->lock);
		job(ctx, i);
		pthread_mutex_lock(&p->lock);
		if (++p->finished == p->n)
			pthread_cond_broadcast(&p->done);
	}
}

static void *pool_worker(void *arg)
{
	brt_pool *p = arg;
	unsigned long seen = 0;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->quit && p->gen == seen)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->quit)
			break;
		seen = p->gen;
		pool_drain(p);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

brt_pool *brt_pool_new(unsigned threads)
{
	brt_pool *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	pthread_mutex_init(&p->lock, NULL);
	pthread_mutex_init(&p->busy, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	p->nworkers = threads > 1 ? threads - 1 : 0;
	return p;
}

unsigned brt_pool_threads(const brt_pool *p)
{
	return p ? p->nworkers + 1 : 1;
}

/* Workers start on the first parallel job, so a program that never runs
 * on the CPU backend has no extra threads. */
static void pool_start(brt_pool *p)
{
	if (p->tid || p->nworkers == 0)
		return;
	p->tid = calloc(p->nworkers, sizeof *p->tid);
	if (!p->tid)
		return;
	for (unsigned i = 0; i < p->nworkers; i++) {
		if (pthread_create(&p->tid[i], NULL, pool_worker, p))
			break;
		p->started++;
	}
}

void brt_pool_run(brt_pool *p, void (*job)(void *ctx, int64_t i), void *ctx,
	int64_t n)
{
	if (n <= 0)
		return;
	if (!p || n == 1 || p->nworkers == 0 || pthread_mutex_trylock(&p->busy)) {
		for (int64_t i = 0; i < n; i++)
			job(ctx, i);
		return;
	}
	pthread_mutex_lock(&p->lock);
	pool_start(p);
	p->job = job;
	p->ctx = ctx;
	p->n = n;
	p->next = 0;
	p->finished = 0;
	p->gen++;
	pthread_cond_broadcast(&p->work);
	pool_drain(p);
	while (p->finished < p->n)
		pthread_cond_wait(&p->done, &p->lock);
	pthread_mutex_unlock(&p->lock);
	pthread_mutex_unlock(&p->busy);
}

void brt_pool_free(brt_pool *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->started; i++)
		pthread_join(p->tid[i], NULL);
	free(p->tid);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	pthread_mutex_destroy(&p->busy);
	free(p);
}

/* --- buffers ---------------------------------------------------------- */
/* Zeroed, so that reading a stream never written is defined on this
 * backend (the kernel still reports it). Aligned to 256 bytes, for
 * brmalloc users.
 *
 * A buffer of a page or more starts at one of COLOURS offsets into its
 * memory, 256 bytes apart, the next one for each such buffer: large
 * allocations all start at the same offset into a page, so a kernel that
 * reads many streams at one index (bench/br/matmult_opt.br reads twelve)
 * would read them all through one set of the first-level cache, which
 * holds 8 to 12 lines, and miss on every read. Coloured, its streams'
 * lines fall into sets 4 apart: matmult_opt went from 0.49 to 0.83 of
 * plain C (2 threads, AMD EPYC; 110 ms to 62). */
#define COLOURS 16

int brt_cpu_alloc(brt_buffer *b)
{
	void *p = NULL;
	size_t pad = 0;

	if (b->bytes >= 4096 && b->bytes <= SIZE_MAX - COLOURS * 256) {
		brt_runtime *rt = brt_rt();
		pthread_mutex_lock(&rt->lock);	/* as brt_ocl_alloc */
		pad = (size_t)(b->dev->nbuffers++ % COLOURS) * 256;
		pthread_mutex_unlock(&rt->lock);
	}
	if (posix_memalign(&p, 256, b->bytes + pad ? b->bytes + pad : 1))
		return -1;
	memset(p, 0, b->bytes + pad);
	b->hostmem = p;
	b->host = (char *)p + pad;
	return 0;
}

/* 1 when the box DIMS with element pitches PITCH is one contiguous run. */
static int contiguous(const int64_t pitch[4], const int64_t dims[4])
{
	int64_t want = 1;
	for (int i = 0; i < 4; i++) {
		if (dims[i] > 1 && pitch[i] != want)
			return 0;
		want *= dims[i];
	}
	return 1;
}

/* Copies the box DIMS between two strided arrays (element pitches; rows,
 * along x, are contiguous in both). */
void brt_cpu_copy_box(char *dst, const int64_t dpitch[4], const char *src,
	const int64_t spitch[4], const int64_t dims[4], size_t esize)
{
	if (contiguous(dpitch, dims) && contiguous(spitch, dims)) {
		memcpy(dst, src, (size_t)(dims[0] * dims[1] * dims[2] * dims[3])
			* esize);
		return;
	}
	size_t row = (size_t)dims[0] * esize;
	for (int64_t w = 0; w < dims[3]; w++)
		for (int64_t z = 0; z < dims[2]; z++)
			for (int64_t y = 0; y < dims[1]; y++)
				memcpy(dst + (size_t)(y * dpitch[1] + z * dpitch[2]
						+ w * dpitch[3]) * esize,
					src + (size_t)(y * spitch[1] + z * spitch[2]
						+ w * spitch[3]) * esize, row);
}
