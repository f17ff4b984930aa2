/* station.c (station) - the bench station: slots, the uevents that fill
 * and empty them, each drive's job started in its turn, the event lines,
 * and a quit bounded in time whatever the drives do. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "inventory/topology.h"
#include "station/hotplug.h"
#include "station/station-int.h"

void
station_opts_default(struct station_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->out_dir = "station";
	o->io_timeout_s = 30;
	o->quit_s = 5;
	o->pull_grace_s = 2;
}

double
station_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct json_object *
station_num(double v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%.3f", v);
	return json_object_new_double_s(v, buf);
}

void
station_emit(struct station *st, const char *type, const char *slot, struct json_object *obj)
{
	struct json_object *e = json_object_new_object();
	struct timeval tv;
	struct tm tm;
	char when[40];
	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	size_t n = strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + n, sizeof(when) - n, ".%03ldZ", (long)(tv.tv_usec / 1000));
	json_object_object_add(e, "schema", json_object_new_string(STATION_SCHEMA));
	json_object_object_add(e, "event", json_object_new_string(type));
	json_object_object_add(e, "time", json_object_new_string(when));
	json_object_object_add(e, "t", station_num(station_now() - st->t0));
	if (slot)
		json_object_object_add(e, "slot", json_object_new_string(slot));
	if (obj) {
		json_object_object_foreach(obj, k, v)
			json_object_object_add(e, k, json_object_get(v));
		json_object_put(obj);
	}
	pthread_mutex_lock(&st->ev_lock);
	fputs(json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE), st->ev);
	fputc('\n', st->ev);
	fflush(st->ev);
	pthread_mutex_unlock(&st->ev_lock);
	json_object_put(e);
}

static void
read_line(const char *path, char *buf, size_t n)
{
	buf[0] = 0;
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, (int)n, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/* The by-path link of /dev/NAME, when /dev/disk/by-path has one (udevd). */
static void
by_path_of(const char *name, char *out, size_t n)
{
	out[0] = 0;
	DIR *d = opendir("/dev/disk/by-path");
	if (!d)
		return;
	struct dirent *e;
	char p[PATH_MAX], want[64], got[PATH_MAX];
	snprintf(want, sizeof(want), "/dev/%s", name);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(p, sizeof(p), "/dev/disk/by-path/%s", e->d_name);
			if (realpath(p, got) && !strcmp(got, want)) {
				snprintf(out, n, "%s", e->d_name);
				break;
			}
		}
	closedir(d);
}

struct where {
	char ctrl[32], port[48], by_path[256], backing[PATH_MAX];
};

static void
where_of(const char *name, struct where *w)
{
	char p[PATH_MAX], sys[PATH_MAX];
	memset(w, 0, sizeof(*w));
	snprintf(p, sizeof(p), "/sys/block/%s", name);
	if (realpath(p, sys)) {
		if (topology_pci_address(sys, w->ctrl, sizeof(w->ctrl)))
			w->ctrl[0] = 0;
		topology_port(sys, w->port, sizeof(w->port));
	}
	snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", name);
	read_line(p, w->backing, sizeof(w->backing));
	by_path_of(name, w->by_path, sizeof(w->by_path));
}

static int
station_grow(struct station *st)
{
	struct slot *v = realloc(st->slots, st->defs.n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	st->slots = v;
	memset(&st->slots[st->defs.n - 1], 0, sizeof(*v));
	return 0;
}

/* A disk with media at NAME: its slot gets a job unless it has one. */
static void
station_present(struct station *st, const char *name, bool at_start)
{
	for (size_t i = 0; i < st->defs.n; i++)
		if (!strcmp(st->slots[i].dev, name))
			return;		/* a repeated change, or the drive we know */
	struct where w;
	where_of(name, &w);
	struct slot_key k = { .name = name, .ctrl = w.ctrl, .port = w.port, .by_path = w.by_path,
			      .backing = w.backing };
	int idx = slots_match(&st->defs, &k);
	if (idx < 0 && !st->o->slots_file && w.port[0] && !w.backing[0]) {
		/* no slots.ini: a slot per port as drives show up (loops only by pattern) */
		idx = slots_learn(&st->defs, &k);
		if (idx >= 0 && station_grow(st))
			idx = -ENOMEM;
	}
	if (idx < 0)
		return;
	struct slot *s = &st->slots[idx];
	if (s->state != SS_EMPTY)
		return;		/* a second drive at a busy bay's pattern: not this bay's */
	struct job *j = calloc(1, sizeof(*j));
	if (!j)
		return;
	j->st = st;
	j->slot = (size_t)idx;
	j->present_at_start = at_start;
	snprintf(j->label, sizeof(j->label), "%s", st->defs.v[idx].label);
	snprintf(j->dev, sizeof(j->dev), "%s", name);
	snprintf(j->path, sizeof(j->path), "/dev/%s", name);
	snprintf(j->ctrl, sizeof(j->ctrl), "%s", w.ctrl);
	if (pthread_create(&j->th, NULL, job_main, j)) {
		free(j);
		return;
	}
	s->job = j;
	s->state = SS_BUSY;
	snprintf(s->dev, sizeof(s->dev), "%s", name);
}

static void
station_gone(struct station *st, const char *name)
{
	for (size_t i = 0; i < st->defs.n; i++) {
		struct slot *s = &st->slots[i];
		if (strcmp(s->dev, name))
			continue;
		if (s->job) {	/* its job ends as pulled; the slot empties when it is reaped */
			atomic_store(&s->job->gone, true);
			continue;
		}
		struct json_object *o = json_object_new_object();
		char dev[64];
		snprintf(dev, sizeof(dev), "/dev/%s", name);
		json_object_object_add(o, "device", json_object_new_string(dev));
		json_object_object_add(o, "early", json_object_new_boolean(false));
		json_object_object_add(o, "verdict", json_object_new_string(s->verdict));
		station_emit(st, "pulled", st->defs.v[i].label, o);
		memset(s, 0, sizeof(*s));
	}
}

static bool
dev_here(const char *name)
{
	char p[128], buf[32];
	snprintf(p, sizeof(p), "/sys/block/%s/size", name);
	read_line(p, buf, sizeof(buf));
	return buf[0] && strtoull(buf, NULL, 10) > 0;
}

/* Ended jobs joined; their slot keeps the verdict while the drive stays. */
static void
station_reap(struct station *st)
{
	for (size_t i = 0; i < st->defs.n; i++) {
		struct slot *s = &st->slots[i];
		struct job *j = s->job;
		if (!j)
			continue;
		if (!atomic_load(&j->done)) {
			if (atomic_load(&j->hung))
				s->state = SS_HUNG;
			continue;
		}
		pthread_join(j->th, NULL);
		st->tested++;
		if (j->pulled)
			st->pulled_early++;
		else if (!strcmp(j->verdict, "PASS"))
			st->passed++;
		else if (!strcmp(j->verdict, "WARN"))
			st->warned++;
		else if (j->verdict[0])
			st->failed++;
		snprintf(s->verdict, sizeof(s->verdict), "%s", j->verdict);
		bool left = j->pulled || atomic_load(&j->gone) || !dev_here(j->dev);
		free(j);
		s->job = NULL;
		if (left)
			memset(s, 0, sizeof(*s));
		else
			s->state = SS_DONE;
	}
}

/* Jobs waiting for their turn: the controller's limit, the stagger. */
static void
station_schedule(struct station *st)
{
	for (size_t i = 0; i < st->defs.n; i++) {
		struct job *j = st->slots[i].job;
		if (!j || !atomic_load(&j->wants_start) || atomic_load(&j->may_start))
			continue;
		if (station_now() - st->last_start < st->o->stagger_s)
			return;
		unsigned running = 0;
		for (size_t k = 0; k < st->defs.n; k++) {
			struct job *o = st->slots[k].job;
			running += o && o != j && atomic_load(&o->may_start) && !atomic_load(&o->done) &&
				   !strcmp(o->ctrl, j->ctrl);
		}
		if (st->o->max_per_ctrl && running >= st->o->max_per_ctrl)
			continue;
		atomic_store(&j->may_start, true);
		st->last_start = station_now();
	}
}

/* The disks there now: drives present when the station starts. */
static void
station_scan_present(struct station *st)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		struct hp_uevent u = { .action = "add", .subsystem = "block", .devtype = "disk",
				       .sysname = e->d_name };
		struct hp_event ev;
		if (e->d_name[0] == '.')
			continue;
		u.size_known = true;
		u.size_sectors = dev_here(e->d_name);
		if (hotplug_decode(&u, &ev) == HP_PRESENT)
			station_present(st, ev.name, true);
	}
	closedir(d);
}

static void
station_ready(struct station *st, const char *source)
{
	static const char *const by[] = { "port", "by-path", "pattern" };
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	for (size_t i = 0; i < st->defs.n; i++) {
		struct json_object *s = json_object_new_object();
		const struct slot_def *d = &st->defs.v[i];
		json_object_object_add(s, "label", json_object_new_string(d->label));
		json_object_object_add(s, by[d->by], json_object_new_string(d->value));
		if (d->ctrl[0])
			json_object_object_add(s, "controller", json_object_new_string(d->ctrl));
		json_object_array_add(a, s);
	}
	json_object_object_add(o, "source", json_object_new_string(source));
	json_object_object_add(o, "profile", json_object_new_string(st->profile->name));
	json_object_object_add(o, "out_dir", json_object_new_string(st->o->out_dir));
	json_object_object_add(o, "io_timeout_s", station_num(st->o->io_timeout_s));
	json_object_object_add(o, "slots", a);
	station_emit(st, "ready", NULL, o);
}

/* Quit: every job told, at most quit_s for them; the rest are left behind
 * (a drive stuck in the kernel cannot hold the station).  Returns how many. */
static size_t
station_quit(struct station *st)
{
	for (size_t i = 0; i < st->defs.n; i++)
		if (st->slots[i].job)
			atomic_store(&st->slots[i].job->quit, true);
	double t0 = station_now();
	size_t left;
	for (;;) {
		left = 0;
		for (size_t i = 0; i < st->defs.n; i++)
			left += st->slots[i].job && !atomic_load(&st->slots[i].job->done);
		if (!left || station_now() - t0 >= st->o->quit_s)
			break;
		poll(NULL, 0, 50);
	}
	struct json_object *o = json_object_new_object(), *ab = json_object_new_array();
	for (size_t i = 0; i < st->defs.n; i++)
		if (st->slots[i].job && !atomic_load(&st->slots[i].job->done))
			json_object_array_add(ab, json_object_new_string(st->defs.v[i].label));
	station_reap(st);
	json_object_object_add(o, "abandoned", ab);
	json_object_object_add(o, "tested", json_object_new_int(st->tested));
	json_object_object_add(o, "pass", json_object_new_int(st->passed));
	json_object_object_add(o, "warn", json_object_new_int(st->warned));
	json_object_object_add(o, "fail", json_object_new_int(st->failed));
	json_object_object_add(o, "pulled_early", json_object_new_int(st->pulled_early));
	station_emit(st, "quit", NULL, o);
	return left;
}

static int
station_setup(struct station *st, const struct station_opts *o, char *err, size_t errlen)
{
	int rc = profiles_load(o->profiles_file, &st->profiles, err, errlen);
	if (rc)
		return rc;
	const char *name = o->profile ? o->profile : "quick-check";
	if (!(st->profile = profiles_find(&st->profiles, name))) {
		snprintf(err, errlen, "no profile '%s' (diskscope station --list-profiles)", name);
		return -ENOENT;
	}
	if (o->slots_file && (rc = slots_load(o->slots_file, &st->defs, err, errlen)))
		return rc;
	st->slots = calloc(st->defs.n ? st->defs.n : 1, sizeof(*st->slots));
	if (!st->slots)
		return -ENOMEM;
	st->ev = stdout;
	if (o->events && strcmp(o->events, "-")) {
		if (!(st->ev = fopen(o->events, "a"))) {
			rc = -errno;
			snprintf(err, errlen, "--events %s: %s", o->events, strerror(errno));
			return rc;
		}
		st->ev_owned = true;
	}
	return 0;
}

int
station_run(const struct station_opts *o, char *err, size_t errlen)
{
	struct station *st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->o = o;
	st->t0 = station_now();
	st->last_start = -1e9;
	pthread_mutex_init(&st->ev_lock, NULL);
	pthread_mutex_init(&st->lib_lock, NULL);
	struct hotplug *hp = NULL;
	const char *source = "";
	int rc = station_setup(st, o, err, errlen);
	if (!rc)
		rc = hotplug_open(&hp, &source, err, errlen);
	if (rc) {
		if (st->ev_owned)
			fclose(st->ev);
		free(st->slots);
		slots_free(&st->defs);
		profiles_free(&st->profiles);
		free(st);
		return rc;
	}
	station_ready(st, source);
	station_scan_present(st);	/* after the monitor opened: no arrival falls between */
	while (!(o->stop_requested && o->stop_requested())) {
		struct pollfd pfd = { .fd = hotplug_fd(hp), .events = POLLIN };
		if (poll(&pfd, 1, 100) > 0) {
			struct hp_event ev;
			while (hotplug_read(hp, &ev) == 0)
				if (ev.kind == HP_PRESENT)
					station_present(st, ev.name, false);
				else if (ev.kind == HP_GONE)
					station_gone(st, ev.name);
		}
		station_reap(st);
		station_schedule(st);
	}
	size_t left = station_quit(st);
	hotplug_close(hp);
	if (left) {	/* threads still hold st: leave it to the process's end */
		fflush(st->ev);
		return 0;
	}
	if (st->ev_owned)
		fclose(st->ev);
	free(st->slots);
	slots_free(&st->defs);
	profiles_free(&st->profiles);
	pthread_mutex_destroy(&st->ev_lock);
	pthread_mutex_destroy(&st->lib_lock);
	free(st);
	return 0;
}

int
station_list_profiles(const char *profiles_file, FILE *f, char *err, size_t errlen)
{
	struct profile_set set = { 0 };
	int rc = profiles_load(profiles_file, &set, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < set.n; i++)
		fprintf(f, "%-16s %s (%s)\n", set.v[i].name, set.v[i].description, set.v[i].origin);
	profiles_free(&set);
	return 0;
}
