/* facts.c - a sim drive's device facts (inventory/facts.h) and its model as
 * the identity and SMART source tests ask through, as they ask the
 * inventory of a real drive: the rig's scan, the model's drive, SMART after
 * the test's I/O, the self-test log. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "inventory/ata-selftest.h"
#include "inventory/facts.h"
#include "inventory/nvme.h"
#include "inventory/selftest.h"
#include "sim/drive.h"
#include "sim/identify.h"
#include "sim/sim.h"

static const struct sim_drive_model *
model_of(const struct dev_facts *f)
{
	return f->source_arg;
}

/* The rig loaded now, kept as it is: the sim drive shows in it (else no sim
 * drive, no SMART: ENOSYS). */
static void
src_scan_opts(const struct dev_facts *f, struct inventory_opts *o)
{
	const struct sim_rig *rig = NULL;
	struct sim_ctrl *ctrls = NULL;
	char err[256] = "";
	(void)f;
	if (!sim_rig_get(&rig, &ctrls, err, sizeof err) && rig) {
		o->demo = true;
		o->demo_rig = rig->file;
		o->extra_drives = sim_inventory_source;
	}
}

static int
src_drive(const struct dev_facts *f, const char *path, struct inventory *inv, struct drive **out)
{
	(void)path;
	*out = NULL;
	int rc = sim_model_inventory(inv, model_of(f));
	if (rc)
		return rc;
	if (!inv->n_drv)
		return -ENOENT;
	*out = &inv->drv[inv->n_drv - 1];
	return 0;
}

static void
attr_add(struct smart_info *s, uint8_t id, uint64_t add)
{
	for (size_t a = 0; a < s->n_attrs; a++)
		if (s->attrs[a].id == id)
			s->attrs[a].raw += add;
}

/* The sectors the drive remapped or marked during the run, and its warming
 * under the reads. */
static void
src_smart_after(const struct dev_facts *f, struct smart_info *s)
{
	const struct sim_drive_model *m = model_of(f);
	if (!s->known)
		return;
	if (m->reallocated_during) {
		attr_add(s, 5, m->reallocated_during);
		if (s->reallocated.known)
			s->reallocated.v += m->reallocated_during;
	}
	if (m->pending_during) {
		attr_add(s, 197, m->pending_during);
		if (s->pending.known)
			s->pending.v += m->pending_during;
	}
	if (m->temperature_during > 0)
		KNOWN_SET(s->temperature_c, m->temperature_during);
}

/* The model's log: its "during" entries only once the test ran, newest
 * first (the run's entries, then the rest). */
static int
src_selftest_log(const struct dev_facts *f, const char *path, bool after, bool smart,
		 uint8_t *log, char *reason, size_t n)
{
	const struct sim_drive_model *m = model_of(f);
	(void)path;
	(void)smart;
	if (!m->smart) {
		snprintf(reason, n, "the sim model has no SMART");
		return -ENODATA;
	}
	struct ata_selftest e[ATA_SELFTEST_N];
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = m->n_selftest; i-- > 0 && k < ATA_SELFTEST_N;)
			if (m->selftest[i].during == !pass && (!m->selftest[i].during || after))
				e[k++] = (struct ata_selftest){ .type = m->selftest[i].type,
								.status = m->selftest[i].status,
								.hours = m->selftest[i].hours,
								.lba = m->selftest[i].lba };
	ata_selftest_build(e, k, log);
	return 0;
}

/* The model's NVMe health log ([nvme]); after a test's I/O, its media
 * errors meanwhile added. */
static int
src_nvme_health(const struct dev_facts *f, const struct drive *d, bool after, struct nvme_health *out)
{
	const struct sim_drive_model *m = model_of(f);
	(void)d;
	memset(out, 0, sizeof *out);
	if (!m || !m->nvme) {
		snprintf(out->reason, sizeof out->reason, "not an NVMe drive");
		return -ENODATA;
	}
	out->known = true;
	KNOWN_SET(out->critical_warning, m->nvme_critical_warning);
	KNOWN_SET(out->available_spare, m->nvme_spare);
	KNOWN_SET(out->spare_threshold, m->nvme_spare_threshold);
	KNOWN_SET(out->percent_used, m->nvme_percent_used);
	KNOWN_SET(out->media_errors, m->nvme_media_errors + (after ? m->nvme_media_errors_during : 0));
	KNOWN_SET(out->temperature_c, (int64_t)m->nvme_temperature_c);
	KNOWN_SET(out->power_on_hours, m->power_on_hours);
	if (m->nvme_data_units_written)
		KNOWN_SET(out->data_units_written, m->nvme_data_units_written);
	return 0;
}

/* ---- its own self-test, on the clock the orchestrator gives (s->now_s) ---- */

struct sim_st {			/* in selftest_drive.priv */
	double dur_s;		/* how long this one takes */
	double fail_frac;	/* where it fails (fail_lba's place on the drive), >1 never */
	struct known_dbl aborted_at;	/* its clock when aborted, unknown: running */
};
_Static_assert(sizeof(struct sim_st) <= sizeof(((struct selftest_drive *)0)->priv), "priv too small");

static double
st_duration(const struct sim_drive_model *m, enum selftest_kind k)
{
	if (k == SELFTEST_SHORT)
		return m->selftest_short_s > 0 ? m->selftest_short_s : 120;
	if (m->selftest_long_s > 0)
		return m->selftest_long_s;
	double sum = 0;		/* the surface at its mean rate */
	for (int i = 0; i <= 20; i++)
		sum += sim_curve_rate(m, i / 20.0);
	return (double)m->capacity / (sum / 21 * 1e6);
}

static int
src_st_start(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	const struct sim_drive_model *m = model_of(f);
	(void)d;
	if (!m->smart && !m->nvme) {
		snprintf(s->st.text, sizeof s->st.text, "the sim model has no SMART");
		return -EOPNOTSUPP;
	}
	if (m->selftest_unsupported) {
		snprintf(s->st.text, sizeof s->st.text, "%s",
			 m->nvme ? "self-test not supported (OACS)" : "SMART self-test not supported");
		return -EOPNOTSUPP;
	}
	struct sim_st *p = (struct sim_st *)(void *)s->priv;
	p->dur_s = st_duration(m, s->kind);
	p->fail_frac = m->selftest_fail ? (double)m->selftest_fail_lba * m->logical / (double)m->capacity : 2;
	KNOWN_CLEAR(p->aborted_at);
	KNOWN_SET(s->st.estimate_s, p->dur_s);
	KNOWN_SET(s->st.percent, 0);
	snprintf(s->st.text, sizeof s->st.text, "in progress");
	return 0;
}

static int
src_st_poll(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	const struct sim_drive_model *m = model_of(f);
	const struct sim_st *p = (const struct sim_st *)(const void *)s->priv;
	(void)d;
	double now = p->aborted_at.known ? p->aborted_at.v : s->now_s;
	double frac = p->dur_s > 0 ? now / p->dur_s : 1;
	if (frac >= p->fail_frac) {
		s->st.state = STS_FAILED;
		KNOWN_SET(s->st.lba, m->selftest_fail_lba);
		KNOWN_SET(s->st.percent, 100);
		snprintf(s->st.text, sizeof s->st.text, "%s", m->nvme ? "completed: segment failed"
								  : "completed: read failure");
	} else if (p->aborted_at.known) {
		s->st.state = STS_ABORTED;
		snprintf(s->st.text, sizeof s->st.text, "aborted by the host");
	} else if (frac >= 1) {
		s->st.state = STS_PASSED;
		KNOWN_SET(s->st.percent, 100);
		KNOWN_SET(s->st.left_s, 0);
		snprintf(s->st.text, sizeof s->st.text, "completed without error");
	} else {
		s->st.state = STS_RUNNING;
		KNOWN_SET(s->st.percent, (double)(int)(frac * 100));
		KNOWN_SET(s->st.left_s, p->dur_s - now);
		snprintf(s->st.text, sizeof s->st.text, "in progress, %.0f%% done", s->st.percent.v);
	}
	return 0;
}

static int
src_st_abort(const struct dev_facts *f, const struct drive *d, struct selftest_drive *s)
{
	struct sim_st *p = (struct sim_st *)(void *)s->priv;
	(void)f;
	(void)d;
	if (!p->aborted_at.known)
		KNOWN_SET(p->aborted_at, s->now_s);
	return 0;
}

/* The model's SCSI health pages ([scsi]); after a test's I/O, what grew
 * meanwhile added. */
static int
src_scsi_health(const struct dev_facts *f, const struct drive *d, bool after, struct scsi_health *out)
{
	const struct sim_drive_model *m = model_of(f);
	struct scsi_info si;
	if (!m) {
		memset(out, 0, sizeof *out);
		snprintf(out->reason, sizeof out->reason, "no sim model");
		return -ENODATA;
	}
	sim_scsi_info(m, d ? d->serial : "", after, &si);
	*out = si.health;
	return m->scsi ? 0 : -ENODATA;
}

static const struct dev_source sim_source = {
	.name = "sim model",
	.scan_opts = src_scan_opts,
	.drive = src_drive,
	.smart_after = src_smart_after,
	.selftest_log = src_selftest_log,
	.nvme_health = src_nvme_health,
	.scsi_health = src_scsi_health,
	.selftest_start = src_st_start,
	.selftest_poll = src_st_poll,
	.selftest_abort = src_st_abort,
};

void
sim_drive_facts(const struct sim_drive *d, struct dev_facts *f)
{
	const struct sim_drive_model *m = d->m;
	memset(f, 0, sizeof *f);
	f->kind = DEV_SIM;
	f->simulated = true;
	snprintf(f->name, sizeof f->name, "%s", d->name);
	snprintf(f->disk, sizeof f->disk, "%s", d->name);
	snprintf(f->model, sizeof f->model, "%s", m->model);
	KNOWN_SET(f->capacity, m->capacity);
	/* as the kernel would pass IDENTIFY words 106 and 209 on */
	KNOWN_SET(f->logical, m->logical);
	KNOWN_SET(f->physical, m->sector_sizes_reported ? m->physical_reported : m->logical);
	KNOWN_SET(f->alignment_offset, m->sector_sizes_reported ? (int64_t)m->align_offset : 0);
	snprintf(f->sector_source, sizeof f->sector_source, "%s",
		 m->sector_sizes_reported ? "IDENTIFY" : "IDENTIFY word 106 not valid");
	KNOWN_SET(f->rotational, !m->ssd);
	KNOWN_SET(f->holders, 0);
	if (d->ctrl && d->ctrl->inv_index.known)
		f->controller = d->ctrl->inv_index;
	f->source = &sim_source;
	f->source_arg = m;
}
