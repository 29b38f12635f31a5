/* diag.c - diagnostics in the gcc, brcc, json and sarif formats. */
#include "config.h"

#include "brook/json.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "brook/diag.h"
#include "brook/util.h"

void diag_init(diag_ctx *d, const char *tool)
{
	memset(d, 0, sizeof *d);
	d->tool = tool;
	d->out = stderr;
	d->caret = isatty(2);
}

int diag_set_format(diag_ctx *d, const char *name)
{
	static const struct { const char *name; diag_format fmt; } tab[] = {
		{"gcc", DIAG_FMT_GCC}, {"brcc", DIAG_FMT_BRCC},
		{"json", DIAG_FMT_JSON}, {"sarif", DIAG_FMT_SARIF},
	};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (strcmp(name, tab[i].name) == 0) {
			d->fmt = tab[i].fmt;
			return 0;
		}
	return -1;
}

static const char *level_name(diag_level l)
{
	return l == DIAG_ERROR ? "error" : l == DIAG_WARNING ? "warning" : "note";
}

/* The text of line LINE of FILE, for the caret; NULL if unreadable. */
static const char *source_line(diag_ctx *d, const char *file, int line,
	size_t *len)
{
	if (!file || line <= 0 || strcmp(file, "<stdin>") == 0)
		return NULL;
	if (!d->last_file || strcmp(d->last_file, file) != 0) {
		char err[256];
		free(d->src);
		d->src = NULL;
		d->last_file = NULL;
		if (util_read_file(file, &d->src, &d->srclen, err, sizeof err) != 0)
			return NULL;
		d->last_file = file;
	}
	const char *p = d->src, *end = d->src + d->srclen;
	for (int l = 1; l < line && p < end; l++) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return NULL;
		p++;
	}
	const char *e = memchr(p, '\n', (size_t)(end - p));
	*len = e ? (size_t)(e - p) : (size_t)(end - p);
	return p;
}

static void print_caret(diag_ctx *d, const char *file, int line, int col)
{
	size_t len;
	const char *s = source_line(d, file, line, &len);
	if (!s || len > 1000)
		return;
	fprintf(d->out, " %.*s\n ", (int)len, s);
	for (int i = 1; i < col && (size_t)i <= len; i++)
		fputc(s[i - 1] == '\t' ? '\t' : ' ', d->out);
	fputs("^\n", d->out);
}

static void sarif_add(diag_ctx *d, diag_level level, const char *file,
	int line, int col, const char *id, const char *msg)
{
	if (!d->sarif)
		d->sarif = json_array();
	json_t *r = json_pack("{s:s, s:{s:s}}",
		"level", level == DIAG_NOTE ? "note" : level_name(level),
		"message", "text", msg);
	if (id)
		json_object_set_new(r, "ruleId", json_string(id));
	if (file) {
		json_t *region = json_object();
		if (line > 0)
			json_object_set_new(region, "startLine", json_integer(line));
		if (col > 0)
			json_object_set_new(region, "startColumn", json_integer(col));
		json_t *loc = json_pack("{s:{s:{s:s}, s:o}}",
			"physicalLocation", "artifactLocation", "uri", file,
			"region", region);
		json_object_set_new(r, "locations", json_pack("[o]", loc));
	}
	json_array_append_new(d->sarif, r);
}

void diag_report(diag_ctx *d, diag_level level, const char *file, int line,
	int col, const char *id, const char *fmt, ...)
{
	if (level == DIAG_WARNING && d->nowarn && !d->werror)
		return;
	if (level == DIAG_WARNING && d->werror)
		level = DIAG_ERROR;
	if (level == DIAG_ERROR)
		d->nerrors++;
	else if (level == DIAG_WARNING)
		d->nwarnings++;

	strbuf msg = {0};
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&msg, fmt, ap);
	va_end(ap);

	switch (d->fmt) {
	case DIAG_FMT_GCC:
		if (file && line > 0 && col > 0)
			fprintf(d->out, "%s:%d:%d: ", file, line, col);
		else if (file && line > 0)
			fprintf(d->out, "%s:%d: ", file, line);
		else if (file)
			fprintf(d->out, "%s: ", file);
		else
			fprintf(d->out, "%s: ", d->tool);
		fprintf(d->out, "%s: %s", level_name(level), msg.s);
		if (id)
			fprintf(d->out, " [%s]", id);
		fputc('\n', d->out);
		if (d->caret && file && col > 0)
			print_caret(d, file, line, col);
		break;
	case DIAG_FMT_BRCC: {
		/* spec 6.3.5: "sum.br (4): ERROR--1: ..." */
		int n = level == DIAG_ERROR ? d->nerrors : d->nwarnings;
		const char *tag = level == DIAG_ERROR ? "ERROR" :
			level == DIAG_WARNING ? "WARN" : "NOTE";
		fprintf(d->out, "%s(%d) : %s--%d: %s\n", file ? file : d->tool,
			line, tag, level == DIAG_NOTE ? 0 : n, msg.s);
		break;
	}
	case DIAG_FMT_JSON: {
		json_t *o = json_pack("{s:s, s:s, s:s}", "tool", d->tool,
			"level", level_name(level), "message", msg.s);
		if (file) {
			json_object_set_new(o, "file", json_string(file));
			json_object_set_new(o, "line", json_integer(line));
			json_object_set_new(o, "col", json_integer(col));
		}
		if (id)
			json_object_set_new(o, "id", json_string(id));
		char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (s) {
			fprintf(d->out, "%s\n", s);
			free(s);
		}
		json_decref(o);
		break;
	}
	case DIAG_FMT_SARIF:
		sarif_add(d, level, file, line, col, id, msg.s);
		break;
	}
	sb_free(&msg);
}

void diag_finish(diag_ctx *d)
{
	if (d->fmt == DIAG_FMT_SARIF) {
		json_t *results = d->sarif ? d->sarif : json_array();
		json_t *log = json_pack(
			"{s:s, s:s, s:[{s:{s:{s:s, s:s}}, s:o}]}",
			"$schema", "https://json.schemastore.org/sarif-2.1.0.json",
			"version", "2.1.0",
			"runs", "tool", "driver", "name", d->tool,
			"version", PACKAGE_VERSION,
			"results", results);
		d->sarif = NULL;
		json_dumpf(log, d->out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', d->out);
		json_decref(log);
	}
	free(d->src);
	d->src = NULL;
	d->last_file = NULL;
	fflush(d->out);
}

int diag_status(const diag_ctx *d)
{
	return d->nerrors > 0 ? 1 : 0;
}
