/* rename.c - a probe, not a benchmark case: what it costs to put a new
 * file in the place of an old one, the last step of every tool's -o
 * (lib/brook/util.c, put_in_place). A file of SIZE bytes (default 1 MB,
 * brgen's .c on bench/gen-big.sh's program) is written beside the target
 * in DIR (default .), then put in place two ways, ROUNDS times each
 * (default 20, 30 ms apart, after one unmeasured round):
 *
 *   rename      rename(2) over the old file, as the tools did: ext4 takes
 *               it for an editor's save and starts writing the new file
 *               out first (its auto_da_alloc)
 *   exchange    renameat2(2) RENAME_EXCHANGE of the two names, then the
 *               old file (now under the temporary name) removed, as the
 *               tools do where the system has it
 *
 *     cc -O2 rename.c -o rename-probe && ./rename-probe [DIR [SIZE [ROUNDS]]]
 *
 * Prints one line a way: the median and least ms of the step alone (the
 * write of the temporary file not counted). Leaves nothing in DIR. Exit
 * status 1 when a step fails, 2 for a usage error; "exchange: not run"
 * where the system has no RENAME_EXCHANGE. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* SIZE bytes of BUF into a new temporary file beside TARGET, its name
 * into TMP; 0, or -1 with a message. */
static int write_tmp(const char *target, char *tmp, size_t tmplen,
	const char *buf, size_t size)
{
	snprintf(tmp, tmplen, "%s.tmpXXXXXX", target);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "rename-probe: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	for (size_t done = 0; done < size; ) {
		ssize_t w = write(fd, buf + done, size - done);
		if (w < 0) {
			fprintf(stderr, "rename-probe: %s: %s\n", tmp,
				strerror(errno));
			close(fd);
			unlink(tmp);
			return -1;
		}
		done += (size_t)w;
	}
	return close(fd);
}

/* One way: 0 rename, 1 exchange. Prints its line; 0, or 1 on failure. */
static int way(int exchange, const char *target, const char *buf,
	size_t size, int rounds)
{
	double *ms = calloc((size_t)rounds, sizeof *ms);
	char tmp[4096];
	int bad = 0;
	const struct timespec pause = { 0, 30000000 };

	if (!ms)
		return 1;
	for (int r = -1; r < rounds && !bad; r++) {
		if (write_tmp(target, tmp, sizeof tmp, buf, size) != 0) {
			bad = 1;
			break;
		}
		double t0 = now_ms();
#ifdef RENAME_EXCHANGE
		if (exchange) {
			if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target,
					RENAME_EXCHANGE) != 0 || unlink(tmp) != 0)
				bad = 1;
		} else
#endif
		if (rename(tmp, target) != 0)
			bad = 1;
		double t1 = now_ms();
		if (bad) {
			fprintf(stderr, "rename-probe: %s: %s\n", target,
				strerror(errno));
			unlink(tmp);
		} else if (r >= 0) {
			ms[r] = t1 - t0;
		}
		nanosleep(&pause, NULL);
	}
	if (!bad) {
		qsort(ms, (size_t)rounds, sizeof *ms, by_value);
		printf("%-9s size=%zu rounds=%d median_ms=%.3f min_ms=%.3f\n",
			exchange ? "exchange" : "rename", size, rounds,
			ms[rounds / 2], ms[0]);
	}
	free(ms);
	return bad;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";
	long size = argc > 2 ? atol(argv[2]) : 1000000;
	int rounds = argc > 3 ? atoi(argv[3]) : 20;
	char target[4096];
	int bad;

	if (argc > 4 || size < 1 || rounds < 1 || rounds > 10000) {
		fprintf(stderr, "usage: rename-probe [DIR [SIZE [ROUNDS]]]: "
			"SIZE at least 1, ROUNDS 1 to 10000\n");
		return 2;
	}
	snprintf(target, sizeof target, "%s/rename-probe.out", dir);
	char *buf = malloc((size_t)size);
	if (!buf)
		return 1;
	memset(buf, 'x', (size_t)size);
	/* the old file the first round replaces */
	char tmp[4096];
	bad = write_tmp(target, tmp, sizeof tmp, buf, (size_t)size) != 0 ||
		rename(tmp, target) != 0;
	if (!bad)
		bad = way(0, target, buf, (size_t)size, rounds);
#ifdef RENAME_EXCHANGE
	if (!bad)
		bad = way(1, target, buf, (size_t)size, rounds);
#else
	printf("exchange: not run (the system has no RENAME_EXCHANGE)\n");
#endif
	unlink(target);
	free(buf);
	return bad;
}
