/* engine.c - the explicit engine registry. */
#include <stddef.h>
#include <string.h>
#include "io/engine.h"

extern const struct engine_ops engine_uring_ops;
extern const struct engine_ops engine_psync_ops;
extern const struct engine_ops engine_sim_ops;	/* engine-sim.c */

const struct engine_ops *const engine_table[] = {
	&engine_uring_ops,
	&engine_psync_ops,
	&engine_sim_ops,
	NULL,
};

const struct engine_ops *
engine_find(const char *name)
{
	for (size_t i = 0; engine_table[i]; i++)
		if (name && strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}
