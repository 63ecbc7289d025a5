/*
 * fuzz-spec.c - libFuzzer harness: the reader of a user family's spec
 * (src/families/user-family.c) on any text.  It must refuse with a message
 * naming the file, or give a family whose every parameter has values,
 * defaults among them and a macro, and whose constraints evaluate on
 * points of its space without crashing (for every element type it names,
 * within the device limits the tuner uses).
 */
#include "families/user-family.h"
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
		struct device_limits lim = { 1024, 49152, 90 };
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
					int v[MAX_PARAMS];
					for (int j = 0; j < f->nparams; j++)
						v[j] = f->params[j].allowed[0];
					v[i] = f->params[i].names ? k : f->params[i].allowed[k];
					char buf[256];
					f->reject(v, t, &lim, buf, sizeof(buf));
				}
			dt += len + (dt[len] == ',');
		}
	}
	user_family_free();
	free(text);
	return 0;
}
