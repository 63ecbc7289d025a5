/*
 * fuzz-spec.c - libFuzzer harness: the reader of a user family's spec
 * (src/families/user-family.c) on any text.  It must refuse with a message
 * naming the file, or give a family whose every parameter has values,
 * defaults among them and a macro, and whose constraints evaluate on
 * points of its space without crashing (for every element type it names,
 * within the device limits the tuner uses); and where it declares what a
 * run on the GPU needs, whose sizes, buffers, geometry, metric, input and
 * check evaluate at a few sizes without crashing either.
 */
#include "families/user-family.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What a run on the GPU evaluates on the host, at a few sizes. */
static void run_parts(const struct family *f, const struct dtype *t)
{
	static const struct dims sizes[] = { { 1, 1, 1 }, { 33, 7, 1 }, { 1000, 3, 5 }, { 4096, 4096, 1 } };
	int v[MAX_PARAMS];
	family_fallback_point(f, v);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct dims d = sizes[k];
		if (f->shape == SHAPE_1D)
			d.cols = d.depth = 1;
		else if (f->shape == SHAPE_2D)
			d.depth = 1;
		char buf[400];
		struct launch_geometry g;
		f->geometry(v, t, &d, &g);
		if (f->size_problem(t, &d, buf, sizeof(buf)))
			continue;
		size_t in = f->in_elems(&d), out = f->out_bytes(t, &d), off[MAX_BUFFERS];
		f->buffer_offsets(t, &d, off);
		(void)f->work(t, &d);
		if (in > (1u << 20) || out > (8u << 20))
			continue;
		void *a = malloc(in * t->size + 1), *e = calloc(1, out + 1), *o = calloc(1, out + 1);
		f->fill(a, t, &d, 7, 0);
		if (f->judge && f->judge(e, o, v, t, &d, 0, buf, sizeof(buf)))
			abort(); /* equal outputs always pass */
		free(a);
		free(e);
		free(o);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	char *text = malloc(n + 1);
	memcpy(text, data, n);
	text[n] = '\0';
	char err[700] = "";
	const struct family *f = user_family_parse(text, "fuzz.json", "fuzz.cu", err, sizeof(err));
	if (!f) {
		if (strncmp(err, "fuzz.json: ", 11))
			abort();
	} else {
		struct device_limits lim = { 1024, 49152, 90, 0 };
		for (int i = 0; i < f->nparams; i++)
			if (f->params[i].nallowed < 1 || f->params[i].ndefaults < 1 || !f->params[i].macro)
				abort();
		/* A walk over the space: each parameter through its values, the
		 * others at their first. */
		for (const char *dt = f->dtypes; *dt;) {
			char name[8];
			size_t len = strcspn(dt, ",");
			snprintf(name, sizeof(name), "%.*s", (int)len, dt);
			const struct dtype *t = family_dtype(f, name);
			if (!t)
				abort();
			for (int i = 0; i < f->nparams; i++)
				for (int k = 0; k < f->params[i].nallowed; k++) {
					int v[MAX_PARAMS], asked[MAX_PARAMS] = {0};
					for (int j = 0; j < f->nparams; j++)
						v[j] = f->params[j].allowed[0];
					v[i] = f->params[i].names ? k : f->params[i].allowed[k];
					char buf[256];
					f->reject(v, t, &lim, buf, sizeof(buf));
					if (f->default_only)
						f->default_only(v, asked);
				}
			if (f->size_problem)
				run_parts(f, t);
			dt += len + (dt[len] == ',');
		}
	}
	user_family_free();
	free(text);
	return 0;
}
