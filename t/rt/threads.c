/* threads.c - devices per thread (guide 1.16.1.1): several threads run
 * kernels at once, each on the device it chose (the CPU and the OpenCL
 * device alternate); a thread that chooses none gets the default, not its
 * parent's choice. */
#include <pthread.h>

#include "kernels.h"

#define THREADS 4
#define ROUNDS 20
#define N 50000

typedef struct job {
	brt_device *dev;
	int id, bad;
	char type[16];
} job;

static void *work(void *p)
{
	job *j = p;
	brt_useDevices(&j->dev, 1, NULL);
	snprintf(j->type, sizeof j->type, "%s",
		brt_device_type(brt_currentDevice()));
	unsigned n = N;
	float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
	brt_stream *a = brt_stream_new(rt_float, 1, &n);
	brt_stream *b = brt_stream_new(rt_float, 1, &n);
	for (int r = 0; r < ROUNDS; r++) {
		float k = (float)(j->id + r);
		for (int i = 0; i < N; i++)
			in[i] = (float)(i % 4);
		brt_stream_read(a, in, NULL);
		brt_arg args[3] = { { .s = a }, { .value = &k }, { .s = b } };
		brt_run(&k_scale, args, NULL);
		float t = 0;
		brt_arg rs[2] = { { .s = b }, { .target = &t } };
		brt_run(&k_sum_scalar, rs, NULL);
		brt_stream_write(b, out, NULL);
		for (int i = 0; i < N; i++)
			j->bad += out[i] != k * in[i];
		j->bad += t != k * 75000.0f;
	}
	j->bad += brt_stream_error(b) != BR_NO_ERROR;
	brt_stream_free(a);
	brt_stream_free(b);
	free(in);
	free(out);
	return NULL;
}

static void *probe(void *p)
{
	snprintf(p, 16, "%s", brt_device_type(brt_currentDevice()));
	return NULL;
}

int main(void)
{
	unsigned n;
	brt_device *const *all = brt_getDevices("all", &n);
	pthread_t t[THREADS];
	job jobs[THREADS];
	for (int i = 0; i < THREADS; i++) {
		jobs[i].dev = all[i % n];
		jobs[i].id = i;
		jobs[i].bad = 0;
		pthread_create(&t[i], NULL, work, &jobs[i]);
	}
	int bad = 0;
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		bad += jobs[i].bad;
		bad += strcmp(jobs[i].type, brt_device_type(jobs[i].dev)) != 0;
	}
	printf("%d threads on %s devices: %s\n", THREADS, n > 1 ? "several"
		: "one", bad ? "wrong" : "ok");

	/* the parent's choice is not inherited */
	brt_device *before = brt_currentDevice();
	brt_device *const *cpu = brt_getDevices("cpu", NULL);
	unsigned old = 0;
	brt_device *const *prev = brt_useDevices(cpu, 1, &old);
	char child[16];
	pthread_t c;
	pthread_create(&c, NULL, probe, child);
	pthread_join(c, NULL);
	printf("parent uses %s; child gets the default: %s\n",
		brt_device_type(brt_currentDevice()),
		strcmp(child, brt_device_type(before)) ? "no" : "yes");
	printf("useDevices returned the previous device: %s (count %u)\n",
		prev && prev[0] == before ? "yes" : "no", old);
	/* guide 1.16.3: a stream tells its device */
	brt_stream *s = rt_new1(4);
	printf("stream on the cpu device: %s; NULL stream: %p\n",
		brt_stream_device(s) == cpu[0] ? "yes" : "no",
		(void *)brt_stream_device(NULL));
	brt_stream_free(s);
	return 0;
}
