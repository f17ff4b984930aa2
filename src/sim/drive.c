/* drive.c - the service-time model of a simulated drive:
 *   time = positioning + transfer (+ write command cost, AF read-modify-write,
 *          SMR media-cache stalls, slow-region retries, unreadable-sector timeouts)
 * with the transfer rate taken from the model's curve at the head position
 * and capped by what the controller grants this drive. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inventory/pci.h"
#include "sim/drive.h"

#define NS 1e9

static uint64_t
splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

int
sim_drive_new(const struct sim_drive_model *m, struct sim_ctrl *ctrl, const char *name,
	      uint64_t seed, struct sim_drive **out)
{
	struct sim_drive *d = calloc(1, sizeof *d);
	if (!d)
		return -ENOMEM;
	d->m = m;
	d->ctrl = ctrl;
	snprintf(d->name, sizeof d->name, "%s", name);
	d->rng = seed;
	for (const char *p = name; *p; p++)	/* FNV-1a: each drive its own noise */
		d->rng = (d->rng ^ (uint8_t)*p) * 0x100000001b3ull;
	if (m->smr) {
		d->n_chunks = (m->capacity + (1u << SIM_CHUNK_SHIFT) - 1) >> SIM_CHUNK_SHIFT;
		d->chunk = calloc(d->n_chunks, 1);
		if (!d->chunk) {
			free(d);
			return -ENOMEM;
		}
		d->cache_plain = (double)m->smr_cache_used;
	}
	*out = d;
	return 0;
}

void
sim_drive_free(struct sim_drive *d)
{
	if (!d)
		return;
	free(d->chunk);
	free(d);
}

static double
ctrl_eff(const struct sim_hba_model *h, int n)
{
	if (n < 1)
		n = 1;
	if (!h->n_scaling)
		return 1;
	return h->scaling[(size_t)n <= h->n_scaling ? (size_t)n - 1 : h->n_scaling - 1];
}

int
sim_ctrl_join(struct sim_ctrl *c, double demand_mbps)
{
	int slot = -1;
	pthread_mutex_lock(&c->lock);
	bool all_leaving = c->active > 0;
	for (int i = 0; i < SIM_CTRL_SLOTS; i++)
		if (c->demand[i] > 0 && !c->leaving[i])
			all_leaving = false;
	if (all_leaving) {	/* the previous step is over */
		memset(c->demand, 0, sizeof c->demand);
		memset(c->leaving, 0, sizeof c->leaving);
		c->active = 0;
	}
	for (int i = 0; i < SIM_CTRL_SLOTS && slot < 0; i++)
		if (c->demand[i] <= 0) {
			c->demand[i] = demand_mbps > 0 ? demand_mbps : 1;
			c->leaving[i] = false;
			c->active++;
			slot = i;
		}
	pthread_mutex_unlock(&c->lock);
	return slot;
}

void
sim_ctrl_leave(struct sim_ctrl *c, int slot)
{
	if (slot < 0 || slot >= SIM_CTRL_SLOTS)
		return;
	pthread_mutex_lock(&c->lock);
	c->leaving[slot] = true;
	pthread_mutex_unlock(&c->lock);
}

static int
cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void
sim_ctrl_state(struct sim_ctrl *c, bool virtual_time, int *n_out, double *level)
{
	const struct sim_hba_model *h = c->hba;
	double d[SIM_CTRL_SLOTS];
	int n = 0;
	pthread_mutex_lock(&c->lock);
	for (int i = 0; i < SIM_CTRL_SLOTS; i++)
		if (c->demand[i] > 0 && (virtual_time || !c->leaving[i]))
			d[n++] = c->demand[i];
	pthread_mutex_unlock(&c->lock);
	*n_out = n;
	*level = HUGE_VAL;
	double pool = HUGE_VAL;
	if (h->chip_mbps > 0)
		pool = h->chip_mbps;
	if (h->has_link) {
		double link = pcie_lane_mbps(h->sta_gts) * h->sta_width;
		if (link > 0 && link < pool)
			pool = link;
	}
	if (pool == HUGE_VAL || n == 0)
		return;
	/* water-filling: the slowest drives take what they ask for, the rest
	 * split what is left evenly */
	double eff = ctrl_eff(h, n);
	qsort(d, (size_t)n, sizeof d[0], cmp_dbl);
	for (int i = 0; i < n; i++) {
		double share = pool / (n - i);
		double want = d[i] * eff;
		if (want > share) {
			*level = share;
			return;
		}
		pool -= want;
	}
}

double
sim_ctrl_rate(const struct sim_ctrl *c, int n, double level, double drive_mbps)
{
	double rate = drive_mbps * ctrl_eff(c->hba, n);
	if (rate > level)
		rate = level;
	if (rate > c->hba->port_mbps)
		rate = c->hba->port_mbps;
	return rate;
}

/* What the path to the host lets through for a transfer the drive could do
 * at mbps: its own SATA link, then the controller's share. */
static double
path_rate(struct sim_drive *d, double mbps)
{
	const struct sim_drive_model *m = d->m;
	if (m->sata_cur_gbps > 0 && mbps > m->sata_cur_gbps * 100)
		mbps = m->sata_cur_gbps * 100;	/* 8b/10b: 6 Gb/s = 600 MB/s */
	if (!d->ctrl)
		return mbps;
	int n = d->active_snap;
	double level = d->level_snap;
	if (!d->virtual_time || n <= 0) {
		sim_ctrl_state(d->ctrl, d->virtual_time, &n, &level);
		if (d->virtual_time) {	/* the step's set, fixed at its first I/O */
			d->active_snap = n;
			d->level_snap = level;
		}
	}
	return sim_ctrl_rate(d->ctrl, n, level, mbps);
}

/* Seek by distance: the average over random pairs of positions is
 * E[sqrt|x-y|] = 8/15, so this mean equals the model's average seek. */
static double
seek_ms(const struct sim_drive_model *m, double dist_frac)
{
	double half_rot = m->rpm ? 30000.0 / m->rpm : 0;
	double avg = m->access_ms - half_rot;
	return m->track_seek_ms + (avg - m->track_seek_ms) * sqrt(dist_frac) * 15.0 / 8.0;
}

static bool
overlaps(const struct sim_region *r, size_t n, uint64_t a, uint64_t b, const struct sim_region **hit)
{
	for (size_t i = 0; i < n; i++)
		if (a < r[i].end && r[i].start < b) {
			if (hit)
				*hit = &r[i];
			return true;
		}
	return false;
}

/* ---- SMR ---- */

/* Clean one band's worth of the media cache; the time it takes. */
static double
clean_band(struct sim_drive *d, double plain_rate, double trim_rate)
{
	const struct sim_drive_model *m = d->m;
	double total = d->cache_plain + d->cache_trim;
	double amount = (double)m->smr_band < total ? (double)m->smr_band : total;
	if (amount <= 0)
		return 0;
	double fp = d->cache_plain / total;
	double from_plain = amount * fp, from_trim = amount - from_plain;
	d->cache_plain -= from_plain;
	d->cache_trim -= from_trim;
	return from_plain / (plain_rate * 1e6) + from_trim / (trim_rate * 1e6);
}

void
sim_drive_idle(struct sim_drive *d, uint64_t ns)
{
	const struct sim_drive_model *m = d->m;
	if (!m->smr || ns == 0)
		return;
	/* idle cleaning at its own rate, trimmed data as much faster as its rates say */
	double sec = (double)ns / NS;
	double total = d->cache_plain + d->cache_trim;
	if (total <= 0)
		return;
	double fp = d->cache_plain / total;
	double per_byte = fp / (m->idle_clean_mbps * 1e6) +
			  (1 - fp) / (m->idle_clean_mbps * m->trim_clean_mbps / m->clean_mbps * 1e6);
	double freed = sec / per_byte;
	if (freed >= total) {
		d->cache_plain = d->cache_trim = 0;
		return;
	}
	d->cache_plain -= freed * fp;
	d->cache_trim -= freed * (1 - fp);
}

void
sim_drive_trim(struct sim_drive *d, uint64_t off, uint64_t len)
{
	if (!d->chunk || len == 0)
		return;
	/* only whole chunks become free */
	uint64_t cs = 1ull << SIM_CHUNK_SHIFT;
	uint64_t a = (off + cs - 1) >> SIM_CHUNK_SHIFT, b = (off + len) >> SIM_CHUNK_SHIFT;
	for (uint64_t c = a; c < b && c < d->n_chunks; c++)
		if (d->chunk[c] == CH_VALID)
			d->chunk[c] = CH_TRIMMED;
}

double
sim_drive_cache_used(const struct sim_drive *d)
{
	return d->cache_plain + d->cache_trim;
}

/* An SMR write goes straight to the media when it is part of a sequential
 * stream that reached a band boundary (from there the drive can rewrite
 * whole bands in order; a partial band cannot be overwritten in place);
 * anything else lands in the media cache (a log: no seek to the
 * LBA).  Marks the chunks written; *trimmed says whether all of them had
 * been TRIMmed. */
static bool
smr_direct(struct sim_drive *d, uint64_t off, uint32_t len, bool *trimmed)
{
	uint64_t c0 = off >> SIM_CHUNK_SHIFT, c1 = (off + len - 1) >> SIM_CHUNK_SHIFT;
	*trimmed = true;
	for (uint64_t c = c0; c <= c1 && c < d->n_chunks; c++) {
		*trimmed &= d->chunk[c] == CH_TRIMMED;
		d->chunk[c] = CH_VALID;
	}
	bool seq = off == d->last_end;
	d->smr_stream = seq && (off % d->m->smr_band == 0 || d->smr_stream);
	return d->smr_stream;
}

/* A write into the media cache, stalling for band cleaning while it is
 * full.  Seconds. */
static double
smr_cache_write(struct sim_drive *d, uint32_t len, bool trimmed, double media_mbps)
{
	const struct sim_drive_model *m = d->m;
	double sec = 0;
	while (d->cache_plain + d->cache_trim + len > (double)m->smr_cache) {
		double t = clean_band(d, m->clean_mbps, m->trim_clean_mbps);
		if (t <= 0)
			break;
		sec += t;
	}
	if (sec > 0) {		/* one stall: the host waits for the bands */
		d->stalls++;
		d->stall_ns += (uint64_t)(sec * NS);
		if ((uint64_t)(sec * NS) > d->longest_stall_ns)
			d->longest_stall_ns = (uint64_t)(sec * NS);
	}
	if (trimmed)
		d->cache_trim += len;
	else
		d->cache_plain += len;
	double rate = path_rate(d, m->cache_write_mbps < media_mbps ? m->cache_write_mbps : media_mbps);
	return sec + len / (rate * 1e6);
}

/* ---- the model ---- */

uint64_t
sim_drive_service(struct sim_drive *d, uint64_t off, uint32_t len, bool write, bool queued,
		  int *result)
{
	const struct sim_drive_model *m = d->m;
	double frac = (double)off / (double)m->capacity;
	double sec = 0;
	*result = (int)len;

	/* served from the drive buffer: reads of what was just read or read ahead */
	bool from_buffer = !write && m->buffer_mib && off >= d->buf_start && off + len <= d->buf_end;
	bool trimmed = false;
	bool to_cache = write && m->smr && !smr_direct(d, off, len, &trimmed);

	/* positioning; a queued I/O overlaps part of it (NCQ reordering on a
	 * disk, parallel channels on flash) */
	if (!from_buffer && !to_cache && off != d->last_end) {
		double dist = fabs((double)off - (double)d->last_end) / (double)m->capacity;
		double gain = queued ? m->ncq_gain : 1;
		if (m->ssd) {
			sec += m->access_ms / 1e3 / gain;
		} else {
			double access = (seek_ms(m, dist) + 30000.0 / m->rpm) / 1e3;
			/* a short skip forward: let the gap pass under the head */
			if (off > d->last_end) {
				double pass = (double)(off - d->last_end) /
					      (sim_curve_rate(m, frac) * 1e6);
				if (pass < access)
					access = pass;
			}
			sec += access / gain;
		}
	}

	/* media rate here, with noise, slow regions */
	double mbps = sim_curve_rate(m, frac) * (write ? m->write_factor : 1);
	if (m->jitter > 0) {
		double u = (double)(splitmix(&d->rng) >> 11) / 9007199254740992.0;
		mbps *= 1 + m->jitter * (2 * u - 1);
	}
	const struct sim_region *slow = NULL;
	if (overlaps(m->slow, m->n_slow, off, off + len, &slow)) {
		mbps *= slow->factor;
		sec += slow->extra_ms / 1e3;
	}

	if (!write && overlaps(m->bad, m->n_bad, off, off + len, NULL)) {
		/* the drive retries, then gives up on the sector */
		sec += m->error_ms / 1e3;
		*result = -EIO;
		d->errors++;
	} else if (from_buffer) {
		sec += len / (path_rate(d, m->burst_mbps) * 1e6);
	} else {
		if (to_cache)
			sec += smr_cache_write(d, len, trimmed, mbps);
		else
			sec += len / (path_rate(d, mbps) * 1e6);
		if (write && !queued)
			sec += m->write_cmd_us / 1e6;	/* NCQ hides it behind the previous I/O */
		uint64_t ph = m->physical;
		if (write && ph > m->logical && m->af_rmw_us > 0 &&
		    ((off + ph - m->align_offset) % ph || (off + len + ph - m->align_offset) % ph)) {
			sec += m->af_rmw_us / 1e6;
			d->rmw_count++;
		}
	}

	/* the buffer holds what was read, plus read-ahead within its size */
	if (!write && *result >= 0 && m->buffer_mib) {
		uint64_t cap = (uint64_t)m->buffer_mib << 20;
		if (!from_buffer) {
			d->buf_start = off;
			d->buf_end = off + len;
		}
		if (d->buf_end - d->buf_start > cap)
			d->buf_start = d->buf_end - cap;
	} else if (write && off < d->buf_end && off + len > d->buf_start) {
		d->buf_start = d->buf_end = 0;
	}
	d->last_end = off + len;
	/* time always advances, and by a bounded step: a degenerate rate must
	 * not stall the clock nor jump it past what the runner can catch up */
	if (!(sec > 1e-9))
		sec = 1e-9;
	if (sec > SIM_MAX_IO_S)
		sec = SIM_MAX_IO_S;
	return (uint64_t)llround(sec * NS);
}
