/* ata-query.c - IDENTIFY and SMART from live drives: libatasmart first, our
 * own SG_IO pass-through when its transport fails; every drive in its own
 * thread, each bounded, a stuck one abandoned without delaying the rest. */
#include <stddef.h>
#include <atasmart.h>	/* needs size_t first */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "inventory/ata.h"

static int
sk_errno(void)
{
	int e = errno;
	if (e < 0)
		e = -e;	/* libatasmart sometimes stores -ENOTSUP / -ENODATA */
	return e ? e : EIO;
}

/* Decode a blob we obtained ourselves; hands the blob to the caller. */
static int
finish_from_blob(void *b, size_t n, const char *via, struct ata_info *out,
		 void **blob, size_t *blob_len)
{
	int rc = ata_from_blob(b, n, out);
	snprintf(out->via, sizeof out->via, "%s", via);
	if (blob && rc == 0) {
		*blob = b;
		*blob_len = n;
	} else {
		free(b);
	}
	return rc;
}

static void
smart_skipped_reason(struct ata_info *out)
{
	const struct ata_identify *id = &out->id;
	if (id->smart_supported.known && !id->smart_supported.v)
		snprintf(out->smart.reason, sizeof out->smart.reason, "drive does not support SMART");
	else if (id->smart_enabled.known && !id->smart_enabled.v)
		snprintf(out->smart.reason, sizeof out->smart.reason,
			 "SMART is disabled on the drive (diskscope never enables it)");
}

/* libatasmart's transport worked.  libatasmart enables SMART by itself when
 * it finds it disabled, so we read IDENTIFY words first and let it touch
 * SMART only when SMART is already on. */
static int
via_libatasmart(SkDisk *d, const char *devpath, unsigned tmo, struct ata_info *out,
		void **blob, size_t *blob_len)
{
	uint8_t id[ATA_BLOB_SECTOR];
	char r[160];
	if (ata_sgio_identify(devpath, tmo, id, r, sizeof r) < 0) {
		const SkIdentifyParsedData *ipd;
		memset(out, 0, sizeof *out);
		out->state = ATA_OK;
		snprintf(out->via, sizeof out->via, "libatasmart");
		if (sk_disk_identify_parse(d, &ipd) == 0) {
			snprintf(out->id.model, sizeof out->id.model, "%s", ipd->model);
			snprintf(out->id.serial, sizeof out->id.serial, "%s", ipd->serial);
			snprintf(out->id.firmware, sizeof out->id.firmware, "%s", ipd->firmware);
		}
		snprintf(out->reason, sizeof out->reason, "IDENTIFY words unreadable here (%.120s)", r);
		snprintf(out->smart.reason, sizeof out->smart.reason,
			 "not read: cannot confirm SMART is already enabled");
		return 0;
	}
	uint16_t w[256];
	for (int i = 0; i < 256; i++)
		w[i] = (uint16_t)(id[2 * i] | id[2 * i + 1] << 8);
	struct ata_identify tmp;
	ata_identify_decode(w, &tmp);
	bool smart_on = tmp.smart_supported.known && tmp.smart_supported.v &&
			tmp.smart_enabled.known && tmp.smart_enabled.v;
	if (smart_on) {
		const void *lb;
		size_t ln;
		sk_disk_smart_read_data(d);	/* failure shows as a blob without SMDT */
		if (sk_disk_get_blob(d, &lb, &ln) == 0 && ln > 0) {
			void *copy = malloc(ln);
			if (!copy)
				return -ENOMEM;
			memcpy(copy, lb, ln);
			return finish_from_blob(copy, ln, "libatasmart", out, blob, blob_len);
		}
	}
	void *b;
	size_t n;
	if (ata_blob_build(id, (struct known_bool){ 0 }, NULL, NULL, &b, &n) < 0)
		return -ENOMEM;
	int rc = finish_from_blob(b, n, "libatasmart", out, blob, blob_len);
	if (rc == 0)
		smart_skipped_reason(out);
	return rc;
}

static int
query_device(const char *devpath, unsigned timeout_ms, struct ata_info *out,
	     void **blob, size_t *blob_len)
{
	SkDisk *d = NULL;
	char lib[128] = "", r[160] = "", eb[16];
	int rc;

	memset(out, 0, sizeof *out);
	out->state = ATA_FAILED;
	if (blob) {
		*blob = NULL;
		*blob_len = 0;
	}
	if (sk_disk_open(devpath, &d) < 0) {
		int e = sk_errno();
		snprintf(lib, sizeof lib, "libatasmart open failed (%s)", errno_name(e, eb, sizeof eb));
		if (e == EACCES || e == EPERM || e == ENOENT) {
			snprintf(out->reason, sizeof out->reason, "%s: %s", devpath, strerror(e));
			return -e;
		}
	} else {
		const SkIdentifyParsedData *ipd;
		if (sk_disk_identify_parse(d, &ipd) == 0) {
			rc = via_libatasmart(d, devpath, timeout_ms, out, blob, blob_len);
			sk_disk_free(d);
			return rc;
		}
		/* ENOENT here is the fixed-format sense bug (udisks#1305). */
		snprintf(lib, sizeof lib, "libatasmart IDENTIFY failed (%s)", errno_name(sk_errno(), eb, sizeof eb));
		sk_disk_free(d);
	}

	void *b = NULL;
	size_t n = 0;
	rc = ata_sgio_blob(devpath, timeout_ms, &b, &n, r, sizeof r);
	if (rc < 0) {
		memset(out, 0, sizeof *out);
		out->state = rc == -EOPNOTSUPP ? ATA_NOT_ATA : rc == -ETIMEDOUT ? ATA_NO_ANSWER
									  : ATA_FAILED;
		snprintf(out->reason, sizeof out->reason, "%.50s; SG_IO: %.100s", lib, r);
		return rc;
	}
	rc = finish_from_blob(b, n, "sg_io", out, blob, blob_len);
	if (rc < 0)
		return rc;
	snprintf(out->reason, sizeof out->reason, "%.100s; read through our own SG_IO", lib);
	if (!out->smart.known) {
		smart_skipped_reason(out);
		if (!out->smart.reason[0] || strcmp(out->smart.reason, "no SMART data in the blob") == 0)
			snprintf(out->smart.reason, sizeof out->smart.reason, "%.120s",
				 r[0] ? r : "no SMART data");
	}
	return 0;
}

int
ata_query_device(const char *devpath, unsigned timeout_ms, struct ata_info *out,
		 void **blob, size_t *blob_len)
{
	int rc = query_device(devpath, timeout_ms, out, blob, blob_len);
	if (rc == 0 && out->state == ATA_OK)
		ata_sgio_provenance(devpath, timeout_ms, &out->farm, &out->hidden);
	else if (out->state != ATA_OK) {
		snprintf(out->farm.reason, sizeof out->farm.reason, "no ATA answer");
		snprintf(out->hidden.reason, sizeof out->hidden.reason, "no ATA answer");
	}
	return rc;
}

/* ---- every drive in parallel ---- */

static _Atomic(ata_query_fn) query_hook;

void
ata_query_set_hook(ata_query_fn fn)
{
	query_hook = fn;
}

struct job {
	struct ata_batch *b;
	size_t drive;		/* index into inv->drv */
	char devpath[64];
	bool done, abandoned, collected;
	int rc;
	struct ata_info info;
	void *blob;
	size_t blob_len;
};

struct ata_batch {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int refs;		/* main + each running thread; the last one frees */
	size_t pending;
	unsigned tmo;
	struct timespec deadline;	/* one for all: they started together */
	char save_blobs[256];		/* --save-blobs DIR, "" none */
	struct job *jobs;
	size_t n;
};

static void
batch_free(struct ata_batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		if (b->jobs[i].done) {	/* results nobody collected */
			ata_info_free(&b->jobs[i].info);
			free(b->jobs[i].blob);
		}
	}
	pthread_cond_destroy(&b->cv);
	pthread_mutex_destroy(&b->mu);
	free(b->jobs);
	free(b);
}

static void
batch_unref(struct ata_batch *b)
{
	pthread_mutex_lock(&b->mu);
	bool last = --b->refs == 0;
	pthread_mutex_unlock(&b->mu);
	if (last)
		batch_free(b);
}

/* The thread writes only into the batch, never into the inventory: when the
 * caller gave up on it, its late results are simply dropped. */
static void *
job_run(void *arg)
{
	struct job *j = arg;
	struct ata_batch *b = j->b;
	struct ata_info info;
	void *blob = NULL;
	size_t bl = 0;
	ata_query_fn fn = query_hook ? query_hook : ata_query_device;
	int rc = fn(j->devpath, b->tmo, &info, &blob, &bl);

	pthread_mutex_lock(&b->mu);
	if (j->abandoned) {
		ata_info_free(&info);
		free(blob);
	} else {
		j->info = info;
		j->blob = blob;
		j->blob_len = bl;
		j->rc = rc;
		j->done = true;
	}
	b->pending--;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
	batch_unref(b);
	return NULL;
}

static bool
is_ata_candidate(enum ds_transport t)
{
	switch (t) {
	case TR_SATA: case TR_SAS: case TR_USB: case TR_SCSI: case TR_IDE: case TR_UNKNOWN:
		return true;
	default:
		return false;
	}
}

/* skdump's naming ("MODEL--SERIAL", spaces as '_'); NAME.blob without a model. */
static void
blob_filename(const struct drive *d, char *buf, size_t n)
{
	const char *model = d->ata.id.model[0] ? d->ata.id.model : d->model;
	const char *serial = d->ata.id.serial[0] ? d->ata.id.serial : d->serial;
	if (model[0] && serial[0])
		snprintf(buf, n, "%.40s--%.20s", model, serial);
	else
		snprintf(buf, n, "%.31s.blob", d->name);
	for (char *p = buf; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'))
			*p = '_';
	if (buf[0] == '.')
		buf[0] = '_';
}

static void
save_blob(struct inventory *inv, const char *dir, const struct drive *d,
	  const void *blob, size_t len)
{
	char name[96], path[512], tmp[530];
	blob_filename(d, name, sizeof name);
	if (pathf(path, sizeof path, "%s/%s", dir, name) < 0 ||
	    pathf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name) < 0) {
		strlist_addf(&inv->notes, "--save-blobs: path too long for %s", d->name);
		return;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		strlist_addf(&inv->notes, "--save-blobs: cannot write %s: %s", tmp, strerror(errno));
		return;
	}
	ssize_t w = write(fd, blob, len);
	int e = errno;
	if (close(fd) < 0 && w == (ssize_t)len) {
		w = -1;
		e = errno;
	}
	if (w != (ssize_t)len || rename(tmp, path) < 0) {
		if (w == (ssize_t)len)
			e = errno;
		unlink(tmp);
		strlist_addf(&inv->notes, "--save-blobs: cannot write %s: %s", path, strerror(e));
	}
}

static void
apply_blob_args(struct inventory *inv, const struct inventory_opts *o)
{
	for (size_t i = 0; i < o->n_blobs; i++) {
		const struct blob_arg *a = &o->blobs[i];
		struct drive *d = inventory_find_drive(inv, a->name);
		if (!d) {	/* decode a saved blob as a drive of its own */
			if (!(d = inventory_add_drive(inv))) {
				strlist_add(&inv->notes, "--ata-blob: out of memory");
				return;
			}
			snprintf(d->name, sizeof d->name, "%s", a->name);
			snprintf(d->path, sizeof d->path, "blob:%.58s", a->file);
			d->controller = -1;
		}
		ata_info_free(&d->ata);
		if (ata_from_blob_file(a->file, &d->ata) < 0) {
			strlist_addf(&inv->notes, "--ata-blob %s: %s", a->name, d->ata.reason);
			inv->incomplete = true;
		}
		snprintf(d->ata.via, sizeof d->ata.via, "blob");
	}
}

static bool
blob_given(const struct inventory_opts *o, const char *name)
{
	for (size_t i = 0; i < o->n_blobs; i++)
		if (strcmp(o->blobs[i].name, name) == 0)
			return true;
	return false;
}

static void
skip(struct drive *d, enum ata_state st, const char *why)
{
	ata_info_free(&d->ata);
	memset(&d->ata, 0, sizeof d->ata);
	d->ata.state = st;
	snprintf(d->ata.reason, sizeof d->ata.reason, "%s", why);
}

/* Take one finished (or abandoned) job's result into its drive. */
static void
collect_job(struct inventory *inv, struct ata_batch *b, struct job *j)
{
	struct drive *d = &inv->drv[j->drive];
	if (j->done) {
		d->ata = j->info;	/* ownership of attrs moves to the drive */
		j->done = false;
		if (j->blob && b->save_blobs[0])
			save_blob(inv, b->save_blobs, d, j->blob, j->blob_len);
		free(j->blob);
		j->blob = NULL;
		if (d->transport == TR_USB && d->ata.state != ATA_OK) {
			/* the bridge is the reason, not the drive (usb-bridge.c) */
			char why[sizeof d->ata.reason];
			usb_bridge_reason(d->syspath, d->ata.reason, why, sizeof why);
			snprintf(d->ata.reason, sizeof d->ata.reason, "%s", why);
		}
		if (d->ata.state != ATA_OK && d->ata.state != ATA_NOT_ATA) {
			strlist_addf(&inv->notes, "%s: ATA/SMART: %s", d->name, d->ata.reason);
			inv->incomplete = true;
		}
	} else {
		unsigned s = (b->tmo + 999) / 1000;
		j->abandoned = true;
		d->ata.state = ATA_NO_ANSWER;
		snprintf(d->ata.reason, sizeof d->ata.reason, "no answer within %u s", s);
		strlist_addf(&inv->notes, "%s: ATA/SMART: no answer within %u s", d->name, s);
		inv->incomplete = true;
	}
	j->collected = true;
	ata_apply_identify(d);
}

int
ata_query_start(struct inventory *inv, const struct inventory_opts *o, struct ata_batch **out)
{
	unsigned tmo = o->ata_timeout_ms ? o->ata_timeout_ms : 5000;
	bool offline = o->sysfs_root && strcmp(o->sysfs_root, "/sys") != 0;

	*out = NULL;
	apply_blob_args(inv, o);	/* may add drives: before any index is taken */

	struct ata_batch *b = calloc(1, sizeof *b);
	if (!b || !(b->jobs = calloc(inv->n_drv ? inv->n_drv : 1, sizeof *b->jobs))) {
		free(b);
		return -ENOMEM;
	}
	pthread_mutex_init(&b->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&b->cv, &ca);
	pthread_condattr_destroy(&ca);
	b->refs = 1;
	b->tmo = tmo;
	if (o->save_blobs)
		snprintf(b->save_blobs, sizeof b->save_blobs, "%s", o->save_blobs);
	for (size_t i = 0; i < inv->n_drv; i++) {
		struct drive *d = &inv->drv[i];
		if (d->transport == TR_SIM || blob_given(o, d->name))
			continue;	/* the simulator and --ata-blob fill their own */
		if (!is_ata_candidate(d->transport)) {
			skip(d, ATA_NOT_ATA, "not an ATA drive");
			continue;
		}
		if (o->no_ata) {
			skip(d, ATA_FAILED, "not queried (--no-ata)");
			continue;
		}
		if (offline) {
			skip(d, ATA_FAILED, "not queried: offline inventory (--sysfs-root)");
			continue;
		}
		if (d->access == ACC_DENIED || d->access == ACC_GONE) {
			char why[96];
			snprintf(why, sizeof why, "not queried: %s",
				 d->access == ACC_GONE ? "device vanished" : strerror(d->access_errno));
			skip(d, ATA_FAILED, why);
			continue;
		}
		struct job *j = &b->jobs[b->n];
		j->b = b;
		j->drive = i;
		snprintf(j->devpath, sizeof j->devpath, "%s", d->path);
		skip(d, ATA_PENDING, "");
		pthread_t t;
		pthread_attr_t at;
		pthread_attr_init(&at);
		pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
		pthread_mutex_lock(&b->mu);
		b->refs++;
		b->pending++;
		b->n++;
		int e = pthread_create(&t, &at, job_run, j);
		if (e) {
			b->refs--;
			b->pending--;
			b->n--;
		}
		pthread_mutex_unlock(&b->mu);
		pthread_attr_destroy(&at);
		if (e) {
			char why[96];
			snprintf(why, sizeof why, "could not start a query thread: %s", strerror(e));
			skip(d, ATA_FAILED, why);
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &b->deadline);
	b->deadline.tv_sec += tmo / 1000;
	b->deadline.tv_nsec += (long)(tmo % 1000) * 1000000L;
	if (b->deadline.tv_nsec >= 1000000000L) {
		b->deadline.tv_sec++;
		b->deadline.tv_nsec -= 1000000000L;
	}
	/* drives that needed no query (sim, blobs, skipped) are final already */
	for (size_t i = 0; i < inv->n_drv; i++)
		if (inv->drv[i].ata.state != ATA_PENDING)
			ata_apply_identify(&inv->drv[i]);
	*out = b;
	return 0;
}

int
ata_query_collect(struct inventory *inv, struct ata_batch *b, bool wait, size_t *changed,
		  size_t n_changed_max, size_t *n_changed)
{
	size_t nc = 0;
	pthread_mutex_lock(&b->mu);
	if (wait)
		while (b->pending > 0)
			if (pthread_cond_timedwait(&b->cv, &b->mu, &b->deadline) == ETIMEDOUT)
				break;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	bool expired = now.tv_sec > b->deadline.tv_sec ||
		       (now.tv_sec == b->deadline.tv_sec && now.tv_nsec >= b->deadline.tv_nsec);
	bool all = true;
	for (size_t k = 0; k < b->n; k++) {
		struct job *j = &b->jobs[k];
		if (j->collected)
			continue;
		if (!j->done && !expired) {
			all = false;
			continue;
		}
		collect_job(inv, b, j);
		if (changed && nc < n_changed_max)
			changed[nc] = j->drive;
		nc++;
	}
	pthread_mutex_unlock(&b->mu);
	if (n_changed)
		*n_changed = nc;
	if (all)
		batch_unref(b);
	return all ? 1 : 0;
}

void
ata_query_abandon(struct ata_batch *b)
{
	pthread_mutex_lock(&b->mu);
	for (size_t k = 0; k < b->n; k++)
		b->jobs[k].abandoned = !b->jobs[k].collected;
	pthread_mutex_unlock(&b->mu);
	batch_unref(b);
}

int
ata_query_all(struct inventory *inv, const struct inventory_opts *o)
{
	struct ata_batch *b;
	int rc = ata_query_start(inv, o, &b);
	if (rc < 0)
		return rc;
	ata_query_collect(inv, b, true, NULL, 0, NULL);
	return 0;
}
