/* util.c - allocation, strings and file I/O for the front end. */
#define _GNU_SOURCE	/* F_SETPIPE_SZ, where the system has it */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "brook/util.h"

static void oom(void)
{
	static const char msg[] = "brook: out of memory\n";
	ssize_t r = write(2, msg, sizeof msg - 1);
	(void)r;
	_exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void sb_reserve(strbuf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

/* sb_putn and sb_putc test for room themselves: the generators put
 * millions of small pieces, most of which fit. */
void sb_putn(strbuf *b, const char *s, size_t n)
{
	if (b->cap - b->len <= n)
		sb_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sb_putc(strbuf *b, int c)
{
	if (b->cap - b->len <= 1)
		sb_reserve(b, 1);
	b->s[b->len++] = (char)c;
	b->s[b->len] = '\0';
}

/* Formats into the room at the end of the buffer, and only when the text
 * does not fit there grows it and formats again. */
static void sb_vprintf_libc(strbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	sb_reserve(b, 64);
	size_t room = b->cap - b->len;
	va_copy(aq, ap);
	int n = vsnprintf(b->s + b->len, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->s[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		sb_reserve(b, (size_t)n);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

static void put_unsigned(strbuf *b, unsigned long long u, int neg)
{
	char buf[24], *p = buf + sizeof buf;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (neg)
		*--p = '-';
	sb_putn(b, p, (size_t)(buf + sizeof buf - p));
}

static void put_signed(strbuf *b, long long v)
{
	put_unsigned(b, v < 0 ? 0ull - (unsigned long long)v :
		(unsigned long long)v, v < 0);
}

/* The conversions the generators use most (%s %c %d %u %ld %lu %lld
 * %llu %zu %%) are written here; at the first other one (a width, a
 * precision, a float) the rest of the format goes to vsnprintf. The code
 * generator formats hundreds of thousands of pieces, and vsnprintf's
 * set-up costs more than the text. */
void sb_vprintf(strbuf *b, const char *fmt, va_list ap)
{
	const char *f = fmt;

	for (;;) {
		const char *pct = strchr(f, '%');
		if (!pct) {
			sb_puts(b, f);
			return;
		}
		sb_putn(b, f, (size_t)(pct - f));
		f = pct + 1;
		if (f[0] == 's') {
			const char *s = va_arg(ap, const char *);
			sb_puts(b, s ? s : "(null)");
		} else if (f[0] == 'd') {
			put_signed(b, va_arg(ap, int));
		} else if (f[0] == 'u') {
			put_unsigned(b, va_arg(ap, unsigned), 0);
		} else if (f[0] == 'c') {
			sb_putc(b, (unsigned char)va_arg(ap, int));
		} else if (f[0] == '%') {
			sb_putc(b, '%');
		} else if (f[0] == 'z' && f[1] == 'u') {
			put_unsigned(b, va_arg(ap, size_t), 0);
			f++;
		} else if (f[0] == 'l' && f[1] == 'd') {
			put_signed(b, va_arg(ap, long));
			f++;
		} else if (f[0] == 'l' && f[1] == 'u') {
			put_unsigned(b, va_arg(ap, unsigned long), 0);
			f++;
		} else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'd') {
			put_signed(b, va_arg(ap, long long));
			f += 2;
		} else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'u') {
			put_unsigned(b, va_arg(ap, unsigned long long), 0);
			f += 2;
		} else {
			sb_vprintf_libc(b, pct, ap);
			return;
		}
		f++;
	}
}

void sb_printf(strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(b, fmt, ap);
	va_end(ap);
}

char *sb_take(strbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void sb_free(strbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

int util_open_read(const char *path, char *err, size_t errlen)
{
	int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory", path);
		if (fd != 0)
			close(fd);
		return -1;
	}
	return fd;
}

int util_pipe_grow(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
		return 0;
#ifdef F_SETPIPE_SZ
	if (fcntl(fd, F_GETPIPE_SZ) < UTIL_PIPE_SIZE)
		(void)fcntl(fd, F_SETPIPE_SZ, UTIL_PIPE_SIZE);
#endif
	return 1;
}

int util_read_file(const char *path, char **data, size_t *len,
	char *err, size_t errlen)
{
	int fd = util_open_read(path, err, errlen);
	if (fd < 0)
		return -1;
	strbuf b = {0};
	sb_reserve(&b, 65536);
	for (;;) {
		sb_reserve(&b, 65536);
		ssize_t n = read(fd, b.s + b.len, b.cap - b.len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: %s",
				fd == 0 ? "<stdin>" : path, strerror(errno));
			sb_free(&b);
			if (fd != 0)
				close(fd);
			return -1;
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
	}
	b.s[b.len] = '\0';
	if (fd != 0)
		close(fd);
	*len = b.len;
	*data = sb_take(&b);
	return 0;
}

int util_write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

static const char failed_line[] = "\n" UTIL_FAILED_LINE "\n";

void util_mark_failed(int fd)
{
	if (isatty(fd))
		return;	/* no tool reads it there */
	fflush(stdout);
	/* a reader that is gone does not change the exit status */
	signal(SIGPIPE, SIG_IGN);
	(void)util_write_all(fd, failed_line, sizeof failed_line - 1);
}

int util_failed_text(const char *text, size_t len)
{
	size_t n = sizeof failed_line - 1;
	return len >= n && memcmp(text + len - n, failed_line, n) == 0;
}

int util_edit_distance(const char *a, const char *b, int max)
{
	/* three rows of the table of prefix distances (optimal string
	 * alignment), d[i][j] for a[0..i) and b[0..j) */
	int r[3][65];
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > (size_t)max)
		return max + 1;
	for (size_t j = 0; j <= lb; j++)
		r[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int *cur = r[i % 3], *up = r[(i - 1) % 3], *up2 = r[(i + 1) % 3];
		int least = cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int d = up[j - 1] + cost;
			if (up[j] + 1 < d)
				d = up[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2]
				&& a[i - 2] == b[j - 1] && up2[j - 2] + 1 < d)
				d = up2[j - 2] + 1;
			cur[j] = d;
			if (d < least)
				least = d;
		}
		if (least > max)
			return max + 1;
	}
	return r[la % 3][lb] > max ? max + 1 : r[la % 3][lb];
}

int util_is_pipe(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

int util_check_writable(const char *path, char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0)
		return 0;
	if (access(path, F_OK) == 0) {
		if (access(path, W_OK) != 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory", path);
			return -1;
		}
	}
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	const char *d = ".";
	if (slash) {
		*slash = '\0';
		d = slash == dir ? "/" : dir;
	}
	int ok = access(d, W_OK | X_OK) == 0;
	if (!ok)
		snprintf(err, errlen, "%s: cannot write in %s: %s", path, d,
			strerror(errno));
	free(dir);
	return ok ? 0 : -1;
}

static int write_through(const char *path, const char *data, size_t len,
	char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || util_write_all(fd, data, len) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* The complete file TMP put in the place of PATH, beside it. Where the
 * system can exchange two names in one step (Linux's renameat2), TMP and
 * a file PATH already names are exchanged and the old file, now TMP,
 * removed: PATH names the old file or the new one at every moment, as
 * with rename(2). But ext4 takes a rename over a file for an editor's
 * save and starts writing the new file's data out first (its
 * auto_da_alloc), which it does not for an exchange: 0.8-1.3 ms against
 * 0.05-0.08 for a file of 1 MB, brgen's .c (bench/probe/rename.c;
 * bench/RESULTS.md, 2026-11-29). A directory that took PATH's place since it was looked
 * at is put back: rename(2) would refuse it. */
static int put_in_place(const char *tmp, const char *path)
{
#ifdef RENAME_EXCHANGE
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
		struct stat st;
		if (lstat(tmp, &st) == 0 && S_ISDIR(st.st_mode)) {
			(void)renameat2(AT_FDCWD, tmp, AT_FDCWD, path,
				RENAME_EXCHANGE);
			errno = EISDIR;
			return -1;
		}
		(void)unlink(tmp);	/* the old file */
		return 0;
	}
	/* no file to exchange with (ENOENT), or a file system that
	   cannot (EINVAL): a rename */
#endif
	return rename(tmp, path);
}

int util_write_file(const char *path, const char *data, size_t len,
	char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0) {
		if (util_write_all(1, data, len) != 0) {
			snprintf(err, errlen, "<stdout>: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	/* a device, a FIFO or a link to one is written through: renaming
	   over it would put a file in its place; a link to a file has its
	   target replaced, and stays a link */
	struct stat st;
	char *real = NULL;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_through(path, data, len, err, errlen);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
			(real = realpath(path, NULL)) != NULL) {
		int r = util_write_file(real, data, len, err, errlen);
		free(real);
		return r;
	}
	strbuf tmp = {0};
	sb_printf(&tmp, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp.s);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		sb_free(&tmp);
		return -1;
	}
	mode_t mode = 0666;
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	else {
		mode_t um = umask(0);
		umask(um);
		mode &= ~um;
	}
	fchmod(fd, mode);
	if (util_write_all(fd, data, len) != 0 || close(fd) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp.s);
		sb_free(&tmp);
		return -1;
	}
	if (put_in_place(tmp.s, path) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		unlink(tmp.s);
		sb_free(&tmp);
		return -1;
	}
	sb_free(&tmp);
	return 0;
}

int util_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) != 0 || stat(b, &sb) != 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* One step of util_digest: W in, the high half folded down. */
static uint64_t digest_step(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x100000001b3u;
	return h ^ h >> 32;
}

/* FNV-1a (0xcbf29ce484222325, 0x100000001b3) taken a 64-bit word at a
 * time, each word read little-endian, the last one padded with zero
 * bytes, each step folding the high half down; then the length, the same
 * way. A byte at a time costs milliseconds on an AST of a few megabytes,
 * hashed by brcheck and again by brgen. */
uint64_t util_digest(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	uint64_t h = 0xcbf29ce484222325u, w;
	size_t i, j;

	for (i = 0; n - i >= 8; i += 8) {
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		memcpy(&w, p + i, 8);	/* one load */
#else
		for (w = 0, j = 0; j < 8; j++)
			w |= (uint64_t)p[i + j] << (8 * j);
#endif
		h = digest_step(h, w);
	}
	if (i < n) {
		for (w = 0, j = 0; i + j < n; j++)
			w |= (uint64_t)p[i + j] << (8 * j);
		h = digest_step(h, w);
	}
	return digest_step(h, (uint64_t)n);
}

/* "00" to "99": two digits a step, half the divisions. */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* The digits go straight to their place: counted first (most integers of
 * an AST, lines, columns and ids, have a few), then written from the
 * last, two at a time. */
size_t util_lltoa(char *buf, long long v)
{
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v
		: (unsigned long long)v, t;
	size_t n = v < 0 ? 1 : 0;
	char *p;

	if (u < 10)
		n += 1;
	else if (u < 100)
		n += 2;
	else if (u < 1000)
		n += 3;
	else
		for (n += 4, t = u / 10000; t; t /= 10)
			n++;
	p = buf + n;
	*p = '\0';
	while (u >= 100) {
		unsigned r = (unsigned)(u % 100);
		u /= 100;
		p -= 2;
		p[0] = digit_pairs[2 * r];
		p[1] = digit_pairs[2 * r + 1];
	}
	if (u >= 10) {
		p -= 2;
		p[0] = digit_pairs[2 * u];
		p[1] = digit_pairs[2 * u + 1];
	} else {
		*--p = (char)('0' + u);
	}
	if (v < 0)
		*--p = '-';
	return n;
}

static size_t map_slot(const util_map *m, uint64_t key)
{
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) &
		(m->cap - 1);

	while (m->used[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void util_map_put(util_map *m, uint64_t key, uint64_t val)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap) {
		util_map old = *m;
		m->cap = old.cap ? 2 * old.cap : 1024;
		m->keys = xcalloc(m->cap, sizeof *m->keys);
		m->vals = xcalloc(m->cap, sizeof *m->vals);
		m->used = xcalloc(m->cap, sizeof *m->used);
		m->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.used[i])
				util_map_put(m, old.keys[i], old.vals[i]);
		util_map_free(&old);
	}
	i = map_slot(m, key);
	if (!m->used[i]) {
		m->used[i] = 1;
		m->n++;
	}
	m->keys[i] = key;
	m->vals[i] = val;
}

const uint64_t *util_map_get(const util_map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	i = map_slot(m, key);
	return m->used[i] ? &m->vals[i] : NULL;
}

void util_map_free(util_map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof *m);
}
