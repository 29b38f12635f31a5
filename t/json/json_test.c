/* json_test.c - json.h's values against the meanings of jansson's
 * interface that the tools rely on: members in the order first set, a
 * replaced value keeping its place, large objects (a hash index) and
 * deletions, objects made in one piece by a reader (brj_object_of) with
 * lent keys, json_pack's formats, equality, copies, and text through
 * jansson. Prints "ok N" for each check and exits 1 at the first that
 * fails. Run by t/reliability.bats, under the sanitizers and valgrind in
 * their builds (a reference dropped twice or never shows there). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brook/json.h"

static int checks;

#define CHECK(c) do { \
	checks++; \
	if (!(c)) { \
		fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, \
			#c); \
		exit(1); \
	} \
} while (0)

/* the keys of O in order, joined by ',' */
static const char *keys_of(json_t *o)
{
	static char buf[4096];
	const char *k;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach(o, k, v) {
		(void)v;
		if (buf[0])
			strcat(buf, ",");
		strcat(buf, k);
	}
	return buf;
}

static void objects(void)
{
	json_t *o = json_object();

	CHECK(json_object_set_new(o, "k", json_string("a")) == 0);
	CHECK(json_object_set_new(o, "name", json_integer(1)) == 0);
	CHECK(json_object_set_new(o, "names", json_integer(2)) == 0);
	CHECK(json_object_set_new(o, "t", json_true()) == 0);
	CHECK(json_object_size(o) == 4);
	CHECK(strcmp(keys_of(o), "k,name,names,t") == 0);
	/* a replaced value keeps its place */
	CHECK(json_object_set_new(o, "name", json_integer(3)) == 0);
	CHECK(strcmp(keys_of(o), "k,name,names,t") == 0);
	CHECK(json_integer_value(json_object_get(o, "name")) == 3);
	CHECK(json_integer_value(json_object_get(o, "names")) == 2);
	CHECK(!json_object_get(o, "nam"));
	CHECK(!json_object_get(o, "namesx"));
	CHECK(!json_object_get(o, ""));
	CHECK(json_object_getn(o, "namesx", 5) ==
		json_object_get(o, "names"));
	/* keys with NUL bytes and the empty key */
	CHECK(json_object_setn_new_nocheck(o, "a\0b", 3, json_integer(4)) == 0);
	CHECK(json_integer_value(json_object_getn(o, "a\0b", 3)) == 4);
	CHECK(!json_object_getn(o, "a\0c", 3));
	CHECK(json_object_set_new(o, "", json_null()) == 0);
	CHECK(json_is_null(json_object_get(o, "")));
	/* what jansson refuses, with the value dropped */
	CHECK(json_object_set_new(o, "\xff", json_integer(5)) == -1);
	CHECK(json_object_set_new(o, NULL, json_integer(5)) == -1);
	CHECK(json_object_set_new(o, "x", NULL) == -1);
	CHECK(json_object_set_new(o, "self", json_incref(o)) == -1);
	CHECK(o->refcount == 1);
	CHECK(json_object_set_new(json_null(), "x", json_integer(1)) == -1);
	CHECK(!json_object_get(NULL, "k") && !json_object_get(o, NULL));
	CHECK(json_object_del(o, "nothing") == -1);
	CHECK(json_object_del(o, "name") == 0);
	CHECK(strcmp(keys_of(o), "k,names,t,a,") == 0);
	CHECK(!json_object_get(o, "name"));
	/* a key set again after its deletion comes last */
	CHECK(json_object_set_new(o, "name", json_integer(6)) == 0);
	CHECK(strcmp(keys_of(o), "k,names,t,a,,name") == 0);
	CHECK(strcmp(json_object_iter_key(json_object_iter_at(o, "name")),
		"name") == 0 && json_integer_value(json_object_iter_value(
			json_object_iter_at(o, "name"))) == 6);
	CHECK(json_object_iter_key_len(json_object_iter_at(o, "names")) == 5);
	CHECK(json_object_clear(o) == 0 && json_object_size(o) == 0);
	CHECK(!json_object_iter(o));
	json_decref(o);
}

/* many members: the hash index, through growth and deletions */
static void large_objects(void)
{
	json_t *o = json_object();
	char k[32];
	int i;

	for (i = 0; i < 3000; i++) {
		snprintf(k, sizeof k, "key%d", i);
		CHECK(json_object_set_new(o, k, json_integer(i)) == 0);
	}
	CHECK(json_object_size(o) == 3000);
	for (i = 0; i < 3000; i += 7) {
		snprintf(k, sizeof k, "key%d", i);
		CHECK(json_integer_value(json_object_get(o, k)) == i);
	}
	for (i = 0; i < 3000; i += 2) {
		snprintf(k, sizeof k, "key%d", i);
		CHECK(json_object_del(o, k) == 0);
	}
	CHECK(json_object_size(o) == 1500);
	for (i = 0; i < 3000; i++) {
		snprintf(k, sizeof k, "key%d", i);
		json_t *v = json_object_get(o, k);
		CHECK(i % 2 ? json_integer_value(v) == i : !v);
	}
	/* the order: the odd ones as set */
	const char *key;
	json_t *v;
	i = 1;
	json_object_foreach(o, key, v) {
		snprintf(k, sizeof k, "key%d", i);
		CHECK(strcmp(key, k) == 0 && json_integer_value(v) == i);
		i += 2;
	}
	json_t *c = json_copy(o);
	CHECK(json_equal(c, o));
	CHECK(json_object_set_new(c, "key1", json_integer(0)) == 0);
	CHECK(!json_equal(c, o));
	json_decref(c);
	/* a key, an iterator's, lasts while members are added */
	const char *k1 = json_object_iter_key(json_object_iter_at(o, "key1"));
	for (i = 0; i < 100; i++) {
		snprintf(k, sizeof k, "more%d", i);
		CHECK(json_object_set_new(o, k, json_null()) == 0);
	}
	CHECK(strcmp(k1, "key1") == 0);
	json_decref(o);
}

/* objects and arrays made in one piece, as ast.c's reader makes them */
static void made_in_one_piece(void)
{
	static const char *keys[] = { "k", "at", "k", "value" };
	brj_member m[4];
	json_t *e[3];
	int i;

	for (i = 0; i < 4; i++) {
		m[i].tag = brj_key_tag(keys[i], strlen(keys[i]));
		m[i].key = (char *)keys[i];
		m[i].value = json_integer(i);
	}
	for (int lent = 0; lent < 2; lent++) {
		for (i = 0; i < 4; i++)
			json_incref(m[i].value);
		json_t *o = brj_object_of(m, 4, lent);
		/* a key given twice: its first place, its last value */
		CHECK(strcmp(keys_of(o), "k,at,value") == 0);
		CHECK(json_integer_value(json_object_get(o, "k")) == 2);
		/* lent: the caller's key itself; else a copy */
		CHECK((json_object_iter_key(json_object_iter(o)) == keys[0])
			== lent);
		/* grown past its room, a lent key deleted, set again */
		CHECK(json_object_set_new(o, "ty", json_string("int")) == 0);
		CHECK(json_object_set_new(o, "more", json_null()) == 0);
		CHECK(json_object_del(o, "at") == 0);
		CHECK(json_object_del(o, "ty") == 0);
		CHECK(strcmp(keys_of(o), "k,value,more") == 0);
		CHECK(json_object_set_new(o, "at", json_false()) == 0);
		CHECK(strcmp(keys_of(o), "k,value,more,at") == 0);
		json_decref(o);
	}
	for (i = 0; i < 4; i++)
		json_decref(m[i].value);
	for (i = 0; i < 3; i++)
		e[i] = json_integer(10 + i);
	/* keys lent by a builder (string literals) while the members before
	   have lent theirs, copied after */
	static const char lit[] = "k";
	json_t *b = json_object();
	char owned[] = "own";
	CHECK(brj_object_setn_new_lent(b, lit, 1, json_integer(1)) == 0);
	CHECK(json_object_iter_key(json_object_iter(b)) == lit);
	CHECK(json_object_set_new(b, owned, json_integer(2)) == 0);
	CHECK(brj_object_setn_new_lent(b, "at", 2, json_integer(3)) == 0);
	CHECK(brj_object_setn_new_lent(b, "k", 1, json_integer(4)) == 0);
	owned[0] = 'x';
	CHECK(strcmp(keys_of(b), "k,own,at") == 0);
	CHECK(json_integer_value(json_object_get(b, "k")) == 4);
	CHECK(json_object_del(b, "k") == 0 && json_object_del(b, "at") == 0);
	CHECK(brj_object_setn_new_lent(b, "t", 1, json_null()) == 0);
	CHECK(strcmp(keys_of(b), "own,t") == 0);
	json_decref(b);

	/* an object made with room for its members, growing past it */
	b = brj_object_sized(2);
	for (i = 0; i < 5; i++)
		CHECK(brj_object_setn_new_lent(b, keys[i % 4],
			strlen(keys[i % 4]), json_integer(i)) == 0);
	CHECK(strcmp(keys_of(b), "k,at,value") == 0);
	CHECK(json_integer_value(json_object_get(b, "k")) == 4);
	json_decref(b);

	json_t *a = brj_array_of(e, 3);
	CHECK(json_array_size(a) == 3 && json_integer_value(
		json_array_get(a, 2)) == 12);
	CHECK(!json_array_get(a, 3));
	CHECK(json_array_append_new(a, json_integer(13)) == 0);
	CHECK(json_array_extend(a, a) == 0 && json_array_size(a) == 8);
	CHECK(json_integer_value(json_array_get(a, 7)) == 13);
	CHECK(json_array_append_new(a, json_incref(a)) == -1 &&
		a->refcount == 1);
	CHECK(json_array_clear(a) == 0 && json_array_size(a) == 0);
	json_decref(a);
	json_t *empty = brj_array_of(NULL, 0);
	CHECK(json_is_array(empty) && json_array_size(empty) == 0);
	CHECK(json_array_append_new(empty, json_true()) == 0);
	json_decref(empty);
}

static void values(void)
{
	json_t *s = json_stringn("ab\0c", 4);

	CHECK(json_string_length(s) == 4 && memcmp(json_string_value(s),
		"ab\0c", 5) == 0);
	CHECK(!json_string("\xc0\x80") && !json_string("\xed\xa0\x80") &&
		!json_string("\xf4\x90\x80\x80") && !json_string(NULL));
	json_t *u = json_string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	CHECK(json_string_length(u) == 9);
	json_decref(u);
	u = json_string_nocheck("\xff");
	CHECK(u && !json_string_value(json_null()));
	json_decref(u);
	CHECK(!json_real(NAN) && !json_real(HUGE_VAL) &&
		!json_real(-HUGE_VAL));
	json_t *r = json_real(1.5), *i = json_integer(-7);
	CHECK(json_number_value(r) == 1.5 && json_number_value(i) == -7.0);
	CHECK(json_real_value(i) == 0.0 && json_integer_value(r) == 0);
	CHECK(!json_equal(r, i) && json_equal(r, r));
	json_t *c = json_copy(s);
	CHECK(c != s && json_equal(c, s));
	CHECK(json_copy(json_true()) == json_true());
	CHECK(json_boolean(0) == json_false() && json_is_true(
		json_boolean(2)));
	json_decref(c);
	json_decref(r);
	json_decref(i);
	json_decref(s);
	/* objects are equal in any order */
	json_t *a = json_pack("{s:i, s:s}", "x", 1, "y", "z");
	json_t *b = json_pack("{s:s, s:i}", "y", "z", "x", 1);
	CHECK(json_equal(a, b) && !json_equal(a, NULL));
	json_decref(a);
	json_decref(b);
}

static void packing(void)
{
	json_t *o = json_object(), *p;
	char *t;

	p = json_pack("{s:s, s:i, s:I, s:f, s:b, s:n, s:o, s:O, s:O*, "
		"s:[O, i], s:{s:[]}}", "s", "str", "i", -3, "I",
		(json_int_t)1 << 40, "f", 0.5, "b", 1, "n", "o", json_integer(9),
		"O", o, "skip", (json_t *)NULL, "a", o, 4, "in", "e");
	CHECK(p);
	t = json_dumps(p, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK(t && strcmp(t, "{\"s\":\"str\",\"i\":-3,\"I\":1099511627776,"
		"\"f\":0.5,\"b\":true,\"n\":null,\"o\":9,\"O\":{},\"a\":[{},4],"
		"\"in\":{\"e\":[]}}") == 0);
	free(t);
	CHECK(o->refcount == 3);
	json_decref(p);
	CHECK(o->refcount == 1);
	/* a NULL string fails, and an "o" value is dropped all the same */
	CHECK(!json_pack("{s:s, s:o}", "a", (const char *)NULL, "b",
		json_integer(1)));
	CHECK(!json_pack("[s]", "\xff"));
	CHECK(!json_pack("{s:O}", "a", (json_t *)NULL));
	CHECK(!json_pack("[i", 1));
	CHECK(!json_pack("x"));
	CHECK(!json_pack(""));
	/* a format broken after an "o": no argument taken after it */
	CHECK(!json_pack("{s:o, i:i}", "a", json_integer(1), 2, 3));
	CHECK(!json_pack("[o, x]", json_integer(1)));
	p = json_pack("[o*, O*, i]", (json_t *)NULL, (json_t *)NULL, 5);
	CHECK(json_array_size(p) == 1);
	json_decref(p);
	p = json_pack("[o]", json_object());
	CHECK(json_is_object(json_array_get(p, 0)));
	json_decref(p);
	json_decref(o);
}

/* text through jansson: its messages, and its indented form */
static void text(void)
{
	static const char in[] =
		"{\"a\": [1, 2.5, \"\\u00e9\"], \"b\": null}";
	json_error_t err;
	json_t *v = json_loadb(in, strlen(in), 0, &err);
	char *t;

	CHECK(v && json_is_array(json_object_get(v, "a")));
	CHECK(strcmp(json_string_value(json_array_get(json_object_get(v,
		"a"), 2)), "\xc3\xa9") == 0);
	t = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	CHECK(t && strcmp(t, "{\n  \"a\": [\n    1,\n    2.5,\n    "
		"\"\xc3\xa9\"\n  ],\n  \"b\": null\n}") == 0);
	free(t);
	t = json_dumps(v, 0);
	CHECK(t && strcmp(t, "{\"a\": [1, 2.5, \"\xc3\xa9\"], \"b\": null}")
		== 0);
	free(t);
	json_decref(v);
	CHECK(!json_loadb("[1 2]", 5, 0, &err));
	CHECK(strcmp(err.text, "']' expected near '2'") == 0 &&
		err.line == 1);
	/* as jansson: only an object or an array at the top */
	CHECK(json_dumpf(json_null(), stdout, 0) == -1 && !json_dumps(
		json_true(), 0));
	v = json_object();
	CHECK(json_dumpf(v, stdout, 0) == 0);
	putchar('\n');
	json_decref(v);
}

int main(void)
{
	objects();
	large_objects();
	made_in_one_piece();
	values();
	packing();
	text();
	printf("ok %d\n", checks);
	return 0;
}
