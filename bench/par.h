/* par.h - a minimal thread pool for the plain C versions: par_for splits
 * [0, n) into one contiguous part per thread and returns when all are
 * done. The calling thread works too. */
#ifndef PAR_H
#define PAR_H

typedef void par_fn(void *ctx, long begin, long end);

struct par;
struct par *par_new(int threads);
void par_for(struct par *p, long n, par_fn *fn, void *ctx);
int par_threads(const struct par *p);
void par_free(struct par *p);

#endif
