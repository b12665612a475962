/* SPDX-License-Identifier: MIT */
/* The settings a run adds to a vector (run/settings.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/settings.h"
#include "ntprof/capability.h"

np_vector *np_vector_with_settings(const np_vector *v, const np_pair *extra, unsigned nextra)
{
	np_vector *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *v;
	for (unsigned i = 0; i < nextra && c->ngiven < NP_MAX_GIVEN; i++) {
		bool set = false;
		for (unsigned k = 0; k < v->ngiven && !set; k++)
			set = strcmp(v->given[k].name, extra[i].name) == 0;
		if (!set)
			c->given[c->ngiven++] = extra[i];
	}
	return c;
}

unsigned np_readings_of(const np_backend *b, const np_vector *v, np_pair *read)
{
	unsigned n = 0;
	for (unsigned i = 0; b->declared && i < v->nflag; i++) {
		const char *knob = v->flag[i] + 8;
		if (strncmp(v->flag[i], "unknown:", 8) == 0 &&
		    np_capability_reading(b->declared, knob, read[n].value, sizeof read[n].value)) {
			snprintf(read[n].name, sizeof read[n].name, "%s", knob);
			n++;
		}
	}
	return n;
}
