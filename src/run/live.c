/* live.c (run) - the bench's live view: one process-wide copy behind a
 * mutex held only to copy a struct in or out (live.h says why). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "run/live.h"

const char *const live_state_name[LIVE_STATE_N] = {
	[LIVE_IDENTIFYING] = "identifying", [LIVE_WAITING] = "waiting", [LIVE_RUNNING] = "running",
	[LIVE_DONE] = "done", [LIVE_STOPPED] = "stopped", [LIVE_FAILED] = "failed", [LIVE_HUNG] = "hung",
};
const char *const live_level_name[LIVE_LEVEL_N] = {
	[LIVE_V_NONE] = "", [LIVE_V_PASS] = "pass", [LIVE_V_WARN] = "warn", [LIVE_V_FAIL] = "fail",
};
const char *const live_err_name[LIVE_ERR_N] = { [LIVE_ERR_IO] = "io" };

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct live_view live;

double
live_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void
live_begin(const char *bench, const char *instance)
{
	pthread_mutex_lock(&live_lock);
	memset(&live, 0, sizeof live);
	snprintf(live.bench, sizeof live.bench, "%s", bench ? bench : "");
	snprintf(live.instance, sizeof live.instance, "%s", instance ? instance : "");
	live.started = (double)time(NULL);
	pthread_mutex_unlock(&live_lock);
}

static ssize_t
live_find(const char *key)
{
	for (size_t i = 0; i < live.n; i++)
		if (!strcmp(live.d[i].key, key))
			return (ssize_t)i;
	return -1;
}

int
live_put(const struct live_drive *d)
{
	int rc = 0;
	pthread_mutex_lock(&live_lock);
	ssize_t i = live_find(d->key);
	if (i < 0 && live.n == LIVE_MAX)
		rc = -ENOSPC;
	else {
		if (i < 0)
			i = (ssize_t)live.n++;
		live.d[i] = *d;
		live.d[i].updated = live_now();
	}
	pthread_mutex_unlock(&live_lock);
	return rc;
}

void
live_remove(const char *key)
{
	pthread_mutex_lock(&live_lock);
	ssize_t i = live_find(key);
	if (i >= 0) {
		memmove(&live.d[i], &live.d[i + 1], (live.n - (size_t)i - 1) * sizeof live.d[0]);
		live.n--;
	}
	pthread_mutex_unlock(&live_lock);
}

void
live_count(enum live_level v, bool pulled)
{
	pthread_mutex_lock(&live_lock);
	if (pulled)
		live.counts.pulled++;
	else {
		live.counts.tested++;
		live.counts.passed += v == LIVE_V_PASS;
		live.counts.warned += v == LIVE_V_WARN;
		live.counts.failed += v == LIVE_V_FAIL;
	}
	pthread_mutex_unlock(&live_lock);
}

void
live_set_rate(struct known_dbl bps)
{
	pthread_mutex_lock(&live_lock);
	live.rate_bps = bps;
	pthread_mutex_unlock(&live_lock);
}

void
live_end(void)
{
	pthread_mutex_lock(&live_lock);
	live.ended = true;
	pthread_mutex_unlock(&live_lock);
}

void
live_copy(struct live_view *out)
{
	pthread_mutex_lock(&live_lock);
	*out = live;
	pthread_mutex_unlock(&live_lock);
}
