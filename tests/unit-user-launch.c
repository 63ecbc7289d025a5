/*
 * unit-user-launch.c - what a user family's spec declares for a run on
 * the GPU (src/families/user-launch.c), evaluated without one: the
 * examples' buffers, offsets, launch geometry, metric and input at odd
 * sizes; a length that overflows refused; the tolerance check's verdicts.
 * argv[1]: the examples/user directory.
 */
#define _POSIX_C_SOURCE 200809L
#include "families/user-family.h"
#include "unit-check.h"
#include "util/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct family *load(const char *dir, const char *name)
{
	char path[512], err[700];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	const struct family *f = user_family_load(path, err, sizeof(err));
	check(f != NULL, "the example loads", f ? NULL : err);
	return f;
}

static void stencil(const char *dir)
{
	const struct family *f = load(dir, "stencil.json");
	if (!f)
		return;
	const struct dtype *dt = dtype_find("f32");
	struct dims d = { 1000, 3001, 1 };
	char buf[400], msg[200];
	check(f->args == ARGS_USER && f->nbuffers == 2 && f->check == CHECK_REFERENCE && !f->judge,
	      "stencil: two buffers, checked bit for bit against a classic", NULL);
	check(!strcmp(f->classics[f->reference_classic], "naive:tx=32,ty=8,ry=1,vx=1"), "its reference is the naive classic",
	      f->classics[f->reference_classic]);
	check(!strncmp(f->store_name, "stencil@", 8) && strlen(f->store_name) == 20, "stored as stencil@ and 12 hex digits",
	      f->store_name);
	size_t in = f->in_elems(&d), out = f->out_bytes(dt, &d), off[MAX_BUFFERS];
	snprintf(msg, sizeof(msg), "%zu elements in, %zu bytes out", in, out);
	check(in == 3001088 && out == 3001000u * 4, "1000 x 3001: the input rounded up to 128 elements, the output exact",
	      msg);
	f->buffer_offsets(dt, &d, off);
	check(off[0] == 0 && off[1] == 0, "each buffer starts its own memory", NULL);
	int v[MAX_PARAMS];
	check(family_point_parse(f, "tx=64,ty=4,ry=2,vx=4", v) == 0, "a point parses", NULL);
	struct launch_geometry g;
	f->geometry(v, dt, &d, &g);
	snprintf(msg, sizeof(msg), "grid %u %u %u block %u %u %u smem %u", g.grid[0], g.grid[1], g.grid[2], g.block[0],
		 g.block[1], g.block[2], g.smem);
	check(g.grid[0] == 12 && g.grid[1] == 125 && g.grid[2] == 1 && g.block[0] == 64 && g.block[1] == 4 &&
		      g.block[2] == 1 && g.smem == 0,
	      "its geometry: ceil(3001 / 256) x ceil(1000 / 8) blocks of 64 x 4", msg);
	check(f->work(dt, &d) == 2.0 * 1000 * 3001 * 4, "the metric: bytes read and written", NULL);
	check(f->size_problem(dt, &d, buf, sizeof(buf)) == NULL, "the size can run", buf);
	float *a = malloc(in * 4), *b = malloc(in * 4);
	f->fill(a, dt, &d, 42, 0);
	f->fill(b, dt, &d, 42, 0);
	int inrange = 1, zeros = 0;
	for (size_t i = 0; i < 3001000; i++) {
		inrange &= a[i] >= -1 && a[i] <= 1;
		zeros += a[i] == 0;
	}
	check(inrange && zeros < 10, "the input's values lie in its range", NULL);
	check(!memcmp(a, b, in * 4), "the same seed makes the same input", NULL);
	check(a[3001000] == 0 && a[3001087] == 0, "the padding after it is zero", NULL);
	f->fill(b, dt, &d, 43, 0);
	check(memcmp(a, b, 3001000 * 4) != 0, "another seed another input", NULL);
	free(a);
	free(b);
	user_family_free();
}

static void softmax(const char *dir)
{
	const struct family *f = load(dir, "softmax.cu");
	if (!f)
		return;
	const struct dtype *dt = dtype_find("f32");
	struct dims d = { 3, 5, 1 };
	char buf[400];
	check(f->judge != NULL, "softmax: checked within a bound", NULL);
	float e[15], o[15];
	for (int i = 0; i < 15; i++)
		e[i] = o[i] = 1.0f / (float)(i + 1);
	check(f->judge(e, o, NULL, dt, &d, 0, buf, sizeof(buf)) == NULL, "equal outputs pass", buf);
	o[7] = e[7] * (1 + 5e-5f);
	check(f->judge(e, o, NULL, dt, &d, 0, buf, sizeof(buf)) == NULL, "an error within 1e-4 of the value passes", buf);
	o[7] = e[7] * (1 + 1e-3f);
	const char *why = f->judge(e, o, NULL, dt, &d, 0, buf, sizeof(buf));
	check(why && strstr(why, "1 of 15 elements") && strstr(why, "element 7"), "an error of 1e-3 is wrong, at its element",
	      why);
	o[7] = NAN;
	why = f->judge(e, o, NULL, dt, &d, 0, buf, sizeof(buf));
	check(why != NULL, "a NaN is wrong", NULL);
	struct launch_geometry g;
	int v[MAX_PARAMS];
	family_point_parse(f, "tpr=128,rpb=4,vec=2", v);
	f->geometry(v, dt, &(struct dims){ 4097, 100, 1 }, &g);
	check(g.grid[0] == 1025 && g.block[0] == 128 && g.block[1] == 4, "its geometry: a block of 4 rows", NULL);
	user_family_free();
}

/* A spec whose buffer length overflows SQLite's integers at large sizes. */
static void overflow(const char *dir)
{
	char path[512], spec[2048], err[700], buf[400];
	snprintf(path, sizeof(path), "%s/stencil.json", dir);
	char *text = read_file(path, NULL);
	const char *at = text ? strstr(text, "\"length\": \"rows * cols\"") : NULL;
	if (!at) {
		check(0, "the stencil's spec has its input's length", NULL);
		free(text);
		return;
	}
	snprintf(spec, sizeof(spec), "%.*s\"length\": \"rows * cols * 4611686018427387904\"%s", (int)(at - text), text,
		 at + strlen("\"length\": \"rows * cols\""));
	free(text);
	const struct family *f = user_family_parse(spec, "o.json", "o.cu", err, sizeof(err));
	check(f != NULL, "a spec with a huge length loads (it is an expression)", err);
	if (!f)
		return;
	const char *why = f->size_problem(dtype_find("f32"), &(struct dims){ 4096, 4096, 1 }, buf, sizeof(buf));
	check(why && strstr(why, "buffers[0].length") && strstr(why, "overflows"), "at 4096 x 4096 it is refused", why);
	why = f->size_problem(dtype_find("f32"), &(struct dims){ 1, 1, 1 }, buf, sizeof(buf));
	check(why && strstr(why, "2^34"), "at 1 x 1 it is past the largest buffer", why);
	user_family_free();
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: unit-user-launch EXAMPLES-DIR\n");
		return 2;
	}
	stencil(argv[1]);
	softmax(argv[1]);
	overflow(argv[1]);
	return unit_done();
}
