/* error.c - stream error state (guide 1.7.1, Stream::error and errorLog)
 * and the per-thread last error of calls with no stream to report on.
 * Messages use the wording of the spec's section 8 where it has one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A log stops growing past this many bytes (a failing call in a loop). */
#define BRT_LOG_MAX 65536

/* Appends one line to S's log, up to BRT_LOG_MAX. */
static void log_line(brt_stream *s, const char *msg, size_t n)
{
	static const char more[] = "(more errors)\n";
	size_t m = sizeof more - 1;
	if (s->log.len + n + 1 + m > BRT_LOG_MAX) {
		if (s->log.len < m || strcmp(s->log.p + s->log.len - m, more))
			brt_str_add(&s->log, more, m);
		return;
	}
	brt_str_add(&s->log, msg, n);
	brt_str_add(&s->log, "\n", 1);
}

/* Records CODE (if S has no error yet) and appends the message as one line
 * to S's log, and so for the streams S is a view of (brt_stream_domain);
 * with no stream, the thread's last error takes it. */
void brt_vfail(brt_stream *s, BRerror code, const char *fmt, va_list ap)
{
	char msg[2048];
	vsnprintf(msg, sizeof msg, fmt, ap);
	brt_log("error %d: %s", (int)code, msg);
	if (!s) {
		brt_set_last(code, "%s", msg);
		return;
	}
	for (; s; s = s->of) {
		if (s->err == BR_NO_ERROR)
			s->err = code;
		log_line(s, msg, strlen(msg));
	}
}

void brt_fail(brt_stream *s, BRerror code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	brt_vfail(s, code, fmt, ap);
	va_end(ap);
}

void brt_set_last(BRerror code, const char *fmt, ...)
{
	brt_thread *t = brt_self();
	if (!t)
		return;
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	free(t->msg);
	t->msg = strdup(msg);
	t->err = code;
	t->unseen = 0;
}

/* At the end of thread T (or of the program, for its first thread): an
 * error of a kernel call that had no output stream to carry it, which
 * brt_lastError never read, is a wrong answer nobody sees, as a stream's
 * is (brt_report_unchecked): one line on standard error. */
void brt_report_last(brt_thread *t)
{
	if (!t->unseen || t->err == BR_NO_ERROR)
		return;
	fprintf(stderr, "brt: a kernel call with no output stream failed, and "
		"its program never checked (brt_lastError): %s\n",
		t->msg ? t->msg : "");
	t->unseen = 0;
}

/* Guide 1.7.1: an error in an input marks the outputs computed from it.
 * DST, and each stream it is a view of, takes SRC's code and the first
 * line of its log (the cause), unless it has an error already: a chain of
 * kernels carries the cause along without the logs growing with every
 * call. */
void brt_propagate(brt_stream *dst, const brt_stream *src)
{
	for (; dst && dst != src; dst = dst->of) {	/* SRC's own streams
							   have its errors */
		if (dst->err != BR_NO_ERROR)
			continue;
		dst->err = src->err;
		if (src->log.len)
			log_line(dst, src->log.p, strcspn(src->log.p, "\n"));
	}
}

/* The program asked S about its errors: S and the streams it is a view
 * of, which hold them too, have none left to report at release. */
static void seen(brt_stream *s)
{
	for (; s; s = s->of)
		s->seen = s->log.len;
}

BRerror brt_stream_error(brt_stream *s)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Stream Error: NULL stream");
		return BR_ERROR_INVALID_PARAMATER;
	}
	brt_stream_settle(s);
	BRerror e = s->err;
	s->err = BR_NO_ERROR;
	seen(s);
	return e;
}

const char *brt_stream_errorLog(brt_stream *s)
{
	if (!s) {
		brt_set_last(BR_ERROR_INVALID_PARAMATER,
			"Stream Error: NULL stream");
		return "";
	}
	brt_stream_settle(s);
	seen(s);
	return s->log.p ? s->log.p : "";
}

/* How many distinct lines brt_report_unchecked prints, at most. */
#define BRT_UNCHECKED_MAX 8

/* A stream released with an error that its program never asked about
 * (no error() or errorLog() of it or of a view of it since) is a wrong
 * answer nobody sees: its first such line goes to standard error, each
 * distinct line once (a failed build marks every stream it touches),
 * BRT_UNCHECKED_MAX of them at most. Views give their errors to their
 * stream, which reports them. */
void brt_report_unchecked(brt_stream *s)
{
	static char said[BRT_UNCHECKED_MAX][512];
	static int nsaid;	/* lines in said; one more once the line
				   about more streams is printed */
	brt_runtime *rt = brt_rt();
	const char *line;
	size_t n;
	int i;

	if (s->of || s->err == BR_NO_ERROR || s->log.len <= s->seen)
		return;
	line = s->log.p + s->seen;
	n = strcspn(line, "\n");
	/* "Failed to create Program ...:" and the build's first line */
	if (n && line[n - 1] == ':' && line[n] == '\n')
		n += 1 + strcspn(line + n + 1, "\n");
	if (n >= sizeof said[0])
		n = sizeof said[0] - 1;
	pthread_mutex_lock(&rt->lock);
	for (i = 0; i < nsaid && i < BRT_UNCHECKED_MAX; i++)
		if (!strncmp(said[i], line, n) && said[i][n] == '\0')
			break;
	if (i < nsaid || nsaid > BRT_UNCHECKED_MAX) {
		/* said already, or the line about more streams is */
	} else if (nsaid < BRT_UNCHECKED_MAX) {
		memcpy(said[nsaid], line, n);
		said[nsaid][n] = '\0';
		fprintf(stderr, "brt: a stream was released with an error its "
			"program never checked (error(), errorLog()): %s\n",
			said[nsaid++]);
	} else {
		fprintf(stderr, "brt: more streams were released with "
			"unchecked errors\n");
		nsaid++;
	}
	pthread_mutex_unlock(&rt->lock);
}

/* The thread's last error, then cleared. The message stays valid until the
 * thread's next call of brt_lastError. */
BRerror brt_lastError(const char **message)
{
	brt_thread *t = brt_self();
	if (!t) {
		if (message)
			*message = "";
		return BR_NO_ERROR;
	}
	BRerror e = t->err;
	t->err = BR_NO_ERROR;
	t->unseen = 0;
	if (message)
		*message = e != BR_NO_ERROR && t->msg ? t->msg : "";
	return e;
}
