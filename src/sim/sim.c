/* sim.c - the loaded rig, its drives by name ("sim:MODEL" / "sim:simN"),
 * and model-file checking.  The target side is io/target-sim.c; the clock
 * and the seed come with each open (the plan's), not from here. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "inventory/facts.h"
#include "sim/drive.h"
#include "sim/model.h"
#include "sim/sim.h"
#include "util/embedded.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_rig *rig;		/* never freed while running: targets point into it */
static struct sim_ctrl *ctrls;

#define DEFAULT_RIG "src/sim/models/seed-bench.rig"

int
sim_load_models(const char *const *files, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		int r = sim_model_add_file(files[i], err, errlen);
		if (r)
			return r;
	}
	return 0;
}

struct retired_rig {
	struct sim_rig *rig;
	struct sim_ctrl *ctrls;
	struct retired_rig *next;
};
static struct retired_rig *retired;

/* Parse a rig (built-in when file is NULL) and make it the current one. */
static int
load_rig_locked(const char *file, char *err, size_t errlen)
{
	char *text = NULL;
	const char *src, *name = file ? file : DEFAULT_RIG;
	if (file) {
		int r = sim_read_file(file, &text, err, errlen);
		if (r)
			return r;
		src = text;
	} else {
		const struct embedded_file *f = embedded_find(DEFAULT_RIG);
		if (!f) {
			snprintf(err, errlen, "%s: not built in", DEFAULT_RIG);
			return -ENOENT;
		}
		src = f->data;
	}
	struct sim_rig *nr = malloc(sizeof *nr);
	if (!nr) {
		free(text);
		return -ENOMEM;
	}
	int r = sim_rig_parse(src, name, nr, err, errlen);
	free(text);
	struct sim_ctrl *nc = r ? NULL : calloc(nr->n_ctrl, sizeof *nc);
	if (!nc) {
		free(nr);
		return r ? r : -ENOMEM;
	}
	for (size_t i = 0; i < nr->n_ctrl; i++) {
		nc[i].hba = sim_find_hba_model(nr->ctrl[i].hba);
		pthread_mutex_init(&nc[i].lock, NULL);
		KNOWN_CLEAR(nc[i].inv_index);	/* until the rig is in an inventory */
		/* PCI domain 0x0051 is not used by real hosts: sim controllers never
		 * collide with a real address */
		snprintf(nc[i].address, sizeof nc[i].address, "0051:%02x:00.0", nr->ctrl[i].bus & 0xff);
	}
	/* an earlier rig stays allocated: open targets may point into it; on a
	 * list, so it stays reachable (LeakSanitizer) */
	struct retired_rig *old = rig ? malloc(sizeof *old) : NULL;
	if (old) {
		*old = (struct retired_rig){ rig, ctrls, retired };
		retired = old;
	}
	rig = nr;
	ctrls = nc;
	return 0;
}

int
sim_use_rig(const char *file, char *err, size_t errlen)
{
	pthread_mutex_lock(&lock);
	/* the same rig again (an inventory rescan): keep it, so targets opened
	 * before and after share one set of controllers */
	if (rig && strcmp(rig->file, file ? file : DEFAULT_RIG) == 0) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	int r = load_rig_locked(file, err, errlen);
	pthread_mutex_unlock(&lock);
	return r;
}

int
sim_rig_get(const struct sim_rig **r, struct sim_ctrl **c, char *err, size_t errlen)
{
	pthread_mutex_lock(&lock);
	int ret = rig ? 0 : load_rig_locked(NULL, err, errlen);
	*r = rig;
	*c = ctrls;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* "simN" in the current rig: its controller and model. */
static bool
find_rig_drive(const char *name, struct sim_ctrl **ctrl, const struct sim_drive_model **m)
{
	const struct sim_rig *r;
	struct sim_ctrl *c;
	char err[320];
	unsigned idx;
	char tail;
	if (sscanf(name, "sim%u%c", &idx, &tail) != 1 || sim_rig_get(&r, &c, err, sizeof err))
		return false;
	for (size_t i = 0; i < r->n_ctrl; i++) {
		if (idx < r->ctrl[i].n_drives) {
			*ctrl = &c[i];
			*m = sim_find_drive_model(r->ctrl[i].drives[idx]);
			return *m != NULL;
		}
		idx -= (unsigned)r->ctrl[i].n_drives;
	}
	return false;
}

int
sim_drive_open(const char *spec, uint64_t seed, bool virtual_time, struct sim_drive **out,
	       char *err, size_t errlen)
{
	const char *name;
	dev_spec_simulated(spec, &name);
	struct sim_ctrl *ctrl = NULL;
	const struct sim_drive_model *m = NULL;
	if (!find_rig_drive(name, &ctrl, &m)) {
		/* "sim:MODEL" or "sim:MODEL#2" (a second drive of that model) */
		char base[64];
		snprintf(base, sizeof base, "%s", name);
		base[strcspn(base, "#")] = '\0';
		ctrl = NULL;
		m = base[0] ? sim_find_drive_model(base) : NULL;
	}
	if (!m) {
		char list[256] = "";
		size_t n = sim_drive_model_count();
		for (size_t i = 0; i < n; i++) {
			size_t l = strlen(list);
			snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "",
				 sim_drive_model_at(i)->name);
		}
		snprintf(err, errlen, "%s: no simulated drive or model '%s' (models: %s)", spec, name,
			 list);
		return -ENOENT;
	}
	struct sim_drive *d;
	int r = sim_drive_new(m, ctrl, name, seed, &d);
	if (r) {
		snprintf(err, errlen, "%s: %s", spec, strerror(-r));
		return r;
	}
	d->virtual_time = virtual_time;
	*out = d;
	return 0;
}

/* By extension: .drive, .hba (parsed against the registry), .rig. */
int
sim_check_file(const char *file, char *err, size_t errlen)
{
	char *text;
	int r = sim_read_file(file, &text, err, errlen);
	if (r)
		return r;
	const char *dot = strrchr(file, '.');
	const char *ext = dot ? dot + 1 : "";
	if (strcmp(ext, "drive") == 0) {
		struct sim_drive_model *m = malloc(sizeof *m);
		r = m ? sim_drive_parse(text, file, m, err, errlen) : -ENOMEM;
		free(m);
	} else if (strcmp(ext, "hba") == 0) {
		struct sim_hba_model *m = malloc(sizeof *m);
		r = m ? sim_hba_parse(text, file, m, err, errlen) : -ENOMEM;
		free(m);
	} else if (strcmp(ext, "rig") == 0) {
		struct sim_rig *m = malloc(sizeof *m);
		r = m ? sim_rig_parse(text, file, m, err, errlen) : -ENOMEM;
		free(m);
	} else {
		snprintf(err, errlen, "%s: unknown kind of model file (expected .drive, .hba or .rig)",
			 file);
		r = -EINVAL;
	}
	free(text);
	return r;
}
