/* target-sim.c - simulated drives as targets ("sim:MODEL", "sim:NAME"):
 * the sim (src/sim/) makes the drive; this side fills the target, with the
 * clock and the seed the options (the plan) carry. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "io/target.h"
#include "sim/drive.h"
#include "sim/model.h"
#include "sim/sim.h"

int
sim_target_open(struct target *t, const char *spec, const struct target_opts *o, char *err,
		size_t errlen)
{
	const char *name;
	dev_spec_simulated(spec, &name);
	double speed = o ? o->sim_speed : 0;
	struct sim_drive *d;
	int r = sim_drive_open(spec, o ? o->sim_seed : SIM_DEFAULT_SEED, speed <= 0, &d, err, errlen);
	if (r)
		return r;
	const struct sim_drive_model *m = d->m;
	t->sim_speed = speed > 0 ? speed : 0;
	snprintf(t->spec, sizeof t->spec, "%s", spec);
	snprintf(t->name, sizeof t->name, "%s", spec);
	snprintf(t->path, sizeof t->path, DEV_SIM_PREFIX "%s", name);
	t->kind = TGT_SIM;
	t->fd = -1;
	t->size = m->capacity;
	t->logical = m->logical;
	t->physical = m->physical;
	t->mem_align = m->logical;
	t->offset_align = m->logical;
	t->writable = true;	/* a sim drive holds no data: nothing to guard */
	t->created = false;
	sim_drive_facts(d, &t->facts);
	t->sim = d;
	return 0;
}

int
sim_target_facts(const char *spec, const struct target_opts *o, struct dev_facts *f, char *err,
		 size_t errlen)
{
	struct sim_drive *d;
	int r = sim_drive_open(spec, o ? o->sim_seed : SIM_DEFAULT_SEED, true, &d, err, errlen);
	if (r)
		return r;
	sim_drive_facts(d, f);
	sim_drive_free(d);
	return 0;
}

void
sim_target_close(struct target *t)
{
	if (t->kind != TGT_SIM || !t->sim)
		return;
	sim_drive_free(t->sim);
	t->sim = NULL;
}

int
sim_target_trim(struct target *t, uint64_t off, uint64_t len)
{
	if (t->kind != TGT_SIM || !t->sim)
		return -EINVAL;
	if (off > t->size || len > t->size - off)
		return -EINVAL;
	if (!((const struct sim_drive *)t->sim)->m->trim)
		return -EOPNOTSUPP;	/* as a drive without DSM TRIM answers BLKDISCARD */
	sim_drive_trim(t->sim, off, len);
	return 0;
}

int
sim_target_idle(struct target *t, double seconds)
{
	if (t->kind != TGT_SIM || !t->sim || seconds < 0)
		return -EINVAL;
	struct sim_drive *d = t->sim;
	uint64_t ns = (uint64_t)(seconds * 1e9);
	uint64_t from = d->busy_until > d->vnow ? d->busy_until : d->vnow;
	sim_drive_idle(d, from + ns - d->busy_until);
	d->vnow = from + ns;
	d->busy_until = d->vnow;
	return 0;
}

int
sim_target_stats(const struct target *t, struct sim_drive_stats *st)
{
	if (t->kind != TGT_SIM || !t->sim)
		return -EINVAL;
	const struct sim_drive *d = t->sim;
	st->cache_used_bytes = sim_drive_cache_used(d);
	st->stalls = d->stalls;
	st->stall_s = (double)d->stall_ns / 1e9;
	st->longest_stall_s = (double)d->longest_stall_ns / 1e9;
	st->rmw = d->rmw_count;
	st->errors = d->errors;
	return 0;
}
