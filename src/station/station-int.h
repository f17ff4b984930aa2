/* station-int.h (station) - what station.c (the slots, the main loop),
 * job.c (one drive's worker) and events.c (the JSON lines) share. */
#ifndef DS_STATION_INT_H
#define DS_STATION_INT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include "station/profile.h"
#include "station/slots.h"
#include "station/station.h"

enum slot_state {
	SS_EMPTY,	/* no drive */
	SS_BUSY,	/* a job: identifying, waiting for its turn, running */
	SS_DONE,	/* finished: the verdict stays until the drive is pulled */
	SS_HUNG,	/* its job stopped progressing; the slot waits for the drive */
};

struct station;

struct job {
	struct station *st;
	size_t slot;
	char label[48];			/* the slot's label (a copy: slots may grow meanwhile) */
	char dev[32];			/* kernel name: loop3 */
	char path[64];			/* /dev/loop3 */
	char ctrl[32];			/* controller address, "" none (the limit's group) */
	bool present_at_start;
	pthread_t th;
	atomic_bool may_start;		/* the main loop's turn (limit, stagger) */
	atomic_bool wants_start;	/* identified: the job asks for its turn */
	atomic_bool gone;		/* the device was removed (uevent) */
	atomic_bool quit;		/* the station is quitting */
	atomic_bool hung;
	atomic_bool done;		/* the thread has ended: join it */
	char verdict[8];		/* PASS, WARN, FAIL, "" none (after done) */
	bool pulled;			/* ended by the drive's removal (after done) */
};

struct slot {
	enum slot_state state;
	struct job *job;		/* SS_BUSY/SS_HUNG/SS_DONE: the job (done or not) */
	char dev[32];			/* the drive in it, "" none */
	char verdict[8];		/* SS_DONE */
};

struct station {
	const struct station_opts *o;
	const struct profile *profile;
	struct profile_set profiles;
	struct slot_table defs;
	struct slot *slots;		/* defs.n of them (grown with learned slots) */
	FILE *ev;			/* the event stream */
	bool ev_owned;
	pthread_mutex_t ev_lock;	/* one line at a time */
	pthread_mutex_t lib_lock;	/* inventory scans, plan_make, the history: one at a time */
	double t0;			/* monotonic start */
	double last_start;		/* monotonic, of the last job start */
	unsigned tested, passed, warned, failed, pulled_early;
};

double station_now(void);		/* monotonic seconds */
struct json_object *station_num(double v);	/* a number printed with 3 decimals */
/* One event: schema, event, time, t, slot (its label, NULL none), then
 * obj's keys, as one line, flushed.  obj is consumed (NULL: none). */
void station_emit(struct station *st, const char *type, const char *slot, struct json_object *obj);
/* A job's thread (job.c): identify, wait for its turn, run the profile. */
void *job_main(void *arg);
#endif
