/* par.c - the thread pool of par.h: workers wait on a condition variable
 * for a new generation of work, the caller waits for the count of finished
 * parts. */
#include "par.h"

#include <pthread.h>
#include <stdlib.h>

struct par {
	int nthreads;
	pthread_t *tids;
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	unsigned long generation;
	int finished, quit;
	par_fn *fn;
	void *ctx;
	long n;
};

struct worker {
	struct par *p;
	int id;
};

static void run_part(struct par *p, int id)
{
	long lo = p->n * id / p->nthreads, hi = p->n * (id + 1) / p->nthreads;

	if (lo < hi)
		p->fn(p->ctx, lo, hi);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct par *p = w->p;
	unsigned long seen = 0;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->generation == seen && !p->quit)
			pthread_cond_wait(&p->go, &p->mu);
		if (p->quit)
			break;
		seen = p->generation;
		pthread_mutex_unlock(&p->mu);
		run_part(p, w->id);
		pthread_mutex_lock(&p->mu);
		if (++p->finished == p->nthreads - 1)
			pthread_cond_signal(&p->done);
	}
	pthread_mutex_unlock(&p->mu);
	free(w);
	return NULL;
}

struct par *par_new(int threads)
{
	struct par *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->nthreads = threads > 0 ? threads : 1;
	p->tids = calloc((size_t)p->nthreads, sizeof *p->tids);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->go, NULL);
	pthread_cond_init(&p->done, NULL);
	for (int i = 1; i < p->nthreads; i++) {
		struct worker *w = malloc(sizeof *w);

		w->p = p;
		w->id = i;
		pthread_create(&p->tids[i], NULL, worker_main, w);
	}
	return p;
}

int par_threads(const struct par *p)
{
	return p->nthreads;
}

void par_for(struct par *p, long n, par_fn *fn, void *ctx)
{
	pthread_mutex_lock(&p->mu);
	p->fn = fn;
	p->ctx = ctx;
	p->n = n;
	p->finished = 0;
	p->generation++;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	run_part(p, 0);
	pthread_mutex_lock(&p->mu);
	while (p->finished < p->nthreads - 1)
		pthread_cond_wait(&p->done, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

void par_free(struct par *p)
{
	pthread_mutex_lock(&p->mu);
	p->quit = 1;
	pthread_cond_broadcast(&p->go);
	pthread_mutex_unlock(&p->mu);
	for (int i = 1; i < p->nthreads; i++)
		pthread_join(p->tids[i], NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->go);
	pthread_cond_destroy(&p->done);
	free(p->tids);
	free(p);
}
