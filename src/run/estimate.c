/* estimate.c - expected array rates and rebuild times from measured drives.
 * Plain arithmetic with its assumptions stated beside the table: a striped
 * array is paced by its slowest member, parity members carry no data, and a
 * controller that saturated in a saturate run caps what crosses it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "run/estimate.h"
#include "util/util.h"

static const char *const layout_names[EST_NLAYOUTS] = { "raid0", "raid1/10", "raid5", "raid6" };

const char *
estimate_layout_name(enum est_layout l)
{
	return l < EST_NLAYOUTS ? layout_names[l] : "?";
}

int
estimate_layout_parse(const char *s, enum est_layout *out)
{
	static const struct {
		const char *w;
		enum est_layout l;
	} words[] = {
		{ "raid0", EST_RAID0 }, { "raid1", EST_RAID10 }, { "raid10", EST_RAID10 },
		{ "raid1/10", EST_RAID10 }, { "mirror", EST_RAID10 }, { "raid5", EST_RAID5 },
		{ "raidz1", EST_RAID5 }, { "raidz", EST_RAID5 }, { "raid6", EST_RAID6 },
		{ "raidz2", EST_RAID6 },
	};
	for (size_t i = 0; s && i < ARRAY_SIZE(words); i++)
		if (!strcasecmp(s, words[i].w)) {
			*out = words[i].l;
			return 0;
		}
	return -EINVAL;
}

unsigned
estimate_min_drives(enum est_layout l)
{
	switch (l) {
	case EST_RAID0: return 1;
	case EST_RAID10: return 2;
	case EST_RAID5: return 3;
	default: return 4;
	}
}

/* Members holding no new data in a stripe, and the factor of bus traffic
 * per byte of data written. */
static double
data_drives(enum est_layout l, unsigned n)
{
	switch (l) {
	case EST_RAID0: return n;
	case EST_RAID10: return n / 2.0;
	case EST_RAID5: return n - 1.0;
	default: return n - 2.0;
	}
}

static double
rate_of(const struct est_drive *d, bool write)
{
	if (write && isfinite(d->write_mbps) && d->write_mbps > 0)
		return d->write_mbps;
	return isfinite(d->read_mbps) && d->read_mbps > 0 ? d->read_mbps : NAN;
}

int
estimate_layout(const struct est_input *in, enum est_layout l, unsigned drives, struct est_row *out)
{
	memset(out, 0, sizeof(*out));
	out->layout = l;
	out->drives = drives;
	out->read_mbps = out->write_mbps = out->rebuild_min = NAN;
	if (l >= EST_NLAYOUTS || drives < estimate_min_drives(l) || (l == EST_RAID10 && drives % 2))
		return -EINVAL;
	/* the slowest measured drive paces every stripe */
	double rd = NAN, wr = NAN, sus = NAN;
	uint64_t cap = 0;
	bool cap_known = false, smr = false;
	for (size_t i = 0; i < in->n; i++) {
		const struct est_drive *d = &in->d[i];
		double r = rate_of(d, false), w = rate_of(d, true);
		if (isfinite(r) && !(rd <= r))
			rd = r;
		if (isfinite(w) && !(wr <= w))
			wr = w;
		/* a rebuild rewrites the whole member: a DM-SMR drive at its
		 * rewrite rate (after its media cache fills), others at their
		 * sequential write */
		double s = isfinite(d->rewrite_mbps) && d->rewrite_mbps > 0 ? d->rewrite_mbps : w;
		if (isfinite(s) && !(sus <= s)) {
			sus = s;
			smr = isfinite(d->rewrite_mbps) && d->rewrite_mbps > 0;
		}
		if (d->capacity.known && (!cap_known || d->capacity.v < cap)) {
			cap = d->capacity.v;
			cap_known = true;
		}
	}
	if (!isfinite(rd))
		return -EINVAL;
	double dd = data_drives(l, drives), ctl = in->ctrl_cap_mbps;
	out->read_mbps = dd * rd;
	out->write_mbps = dd * wr;
	if (ctl > 0) {
		/* reads carry data only; writes carry data plus its parity/mirror copy */
		if (out->read_mbps > ctl) {
			out->read_mbps = ctl;
			out->read_capped = true;
		}
		double wcap = ctl * dd / drives;
		if (out->write_mbps > wcap) {
			out->write_mbps = wcap;
			out->write_capped = true;
		}
	}
	if (l != EST_RAID0 && cap_known && isfinite(sus)) {
		/* the new member is written at its sustained rate while the
		 * survivors are read; all of it crosses the controller */
		double rate = sus;
		unsigned through = l == EST_RAID10 ? 2 : drives;
		if (ctl > 0 && rate * through > ctl)
			rate = ctl / through;
		out->rebuild_min = (double)cap / (rate * 1e6) / 60.0;
		out->rebuild_smr = smr;
	}
	return 0;
}

/* ---- reading a result ---- */

static struct est_drive *
drive_named(struct est_input *in, const char *name)
{
	for (size_t i = 0; i < in->n; i++)
		if (!strcmp(in->d[i].name, name))
			return &in->d[i];
	if (in->n >= EST_MAX_DRIVES)
		return NULL;
	struct est_drive *d = &in->d[in->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->read_mbps = d->write_mbps = d->rewrite_mbps = NAN;
	return d;
}

static void
take_rate(struct est_drive *d, const struct target_result *t)
{
	double rd = t->read_mbps > 0 ? t->read_mbps : t->write_mbps > 0 ? NAN : t->mbps;
	if (rd > 0 && isfinite(rd))
		d->read_mbps = rd;
	if (t->write_mbps > 0)
		d->write_mbps = t->write_mbps;
	if (!(d->read_mbps > 0) && t->write_mbps > 0)
		d->read_mbps = t->write_mbps;
}

static int
col_of(const struct result_table *t, const char *name)
{
	for (size_t c = 0; c < t->n_cols; c++)
		if (!strcmp(t->cols[c].name, name))
			return (int)c;
	return -1;
}

int
estimate_input(const struct run_result *r, const struct run_result *smr, struct est_input *in)
{
	uint64_t scanned[EST_MAX_DRIVES] = { 0 };	/* surface: bytes scanned, 0 unknown */
	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < r->n_solo; i++) {
		struct est_drive *d = drive_named(in, r->solo[i].target);
		if (d)
			take_rate(d, &r->solo[i]);
	}
	/* the others (a sweep's first drive has no solo pass): each at its
	 * rate alone when a step ran it alone, else in the first step that
	 * ran it */
	size_t n_solo = in->n;
	for (size_t s = 0; s < r->n_steps; s++) {
		const struct step_result *sr = &r->steps[s];
		for (size_t k = 0; !sr->failed && k < sr->n_res; k++) {
			struct est_drive *d = drive_named(in, sr->res[k].target);
			if (d && d >= in->d + n_solo && (sr->n_res == 1 || !(d->read_mbps > 0)))
				take_rate(d, &sr->res[k]);
		}
	}
	/* a table with each target's average over its whole region (a surface
	 * scan's): the drive's sustained rate, where the steps' figure includes
	 * re-reads.  Found by its columns, whatever the test. */
	for (size_t i = 0; i < r->n_tables; i++) {
		const struct result_table *t = &r->tables[i];
		int ct = col_of(t, "target"), ca = col_of(t, "avg_mbps"), cs = col_of(t, "scanned");
		for (size_t row = 0; ct >= 0 && ca >= 0 && row < t->n_rows; row++) {
			const struct result_cell *n = &t->cells[row * t->n_cols + (size_t)ct];
			const struct result_cell *a = &t->cells[row * t->n_cols + (size_t)ca];
			if (!n->known || !n->s || !a->known || !(a->d > 0))
				continue;
			struct est_drive *d = drive_named(in, n->s);
			if (!d)
				continue;
			d->read_mbps = a->d;
			if (cs >= 0 && t->cells[row * t->n_cols + (size_t)cs].known) {
				scanned[d - in->d] = (uint64_t)t->cells[row * t->n_cols + (size_t)cs].i;
			}
		}
	}
	/* drop drives with nothing measured */
	size_t w = 0;
	for (size_t i = 0; i < in->n; i++)
		if (in->d[i].read_mbps > 0) {
			scanned[w] = scanned[i];
			in->d[w++] = in->d[i];
		}
	in->n = w;
	if (!in->n)
		return -ENOENT;
	for (size_t i = 0; i < in->n; i++)
		for (size_t k = 0; k < r->n_ident && k < r->ident_targets.n; k++) {
			const char *it = r->ident_targets.v[k], *base = strrchr(it, '/');
			if (!strcmp(it, in->d[i].name) || (base && !strcmp(base + 1, in->d[i].name)) ||
			    (r->ident[k].drive_id[0] && !strcmp(r->ident[k].drive_id, in->d[i].name)))
				in->d[i].capacity = r->ident[k].capacity;
		}
	/* no capacity from the inventory: what a surface scan covered */
	for (size_t i = 0; i < in->n; i++)
		if (!in->d[i].capacity.known && scanned[i]) {
			in->d[i].capacity.known = true;
			in->d[i].capacity.v = scanned[i];
			in->scanned_capacity = true;
		}
	/* the controller's measured aggregate caps only when it saturated */
	bool knee = false;
	for (size_t i = 0; i < r->n_verdicts; i++)
		knee |= r->verdicts[i].knee_drives > 0;
	if (knee)
		for (size_t s = 0; s < r->n_steps; s++)
			if (!r->steps[s].failed && r->steps[s].aggregate_mbps > in->ctrl_cap_mbps)
				in->ctrl_cap_mbps = r->steps[s].aggregate_mbps;
	/* an smr result: each drive's rate while rewriting ("rewrite NAME" steps) */
	for (size_t s = 0; smr && s < smr->n_steps; s++) {
		const struct step_result *sr = &smr->steps[s];
		if (strncmp(sr->label, "rewrite ", 8))
			continue;
		for (size_t k = 0; k < sr->n_res; k++)
			for (size_t i = 0; i < in->n; i++)
				if (!strcmp(in->d[i].name, sr->res[k].target) && sr->res[k].mbps > 0)
					in->d[i].rewrite_mbps = sr->res[k].mbps;
	}
	return 0;
}

int
estimate_add_table(struct run_result *r, const struct est_input *in, int only, unsigned drives)
{
	static const struct result_col cols[] = {
		{ "layout", "layout", COL_STR, "", 0 },
		{ "drives", "drives", COL_INT, "", 0 },
		{ "read_mbps", "seq read", COL_DBL, "MB/s", 0 },
		{ "write_mbps", "seq write", COL_DBL, "MB/s", 0 },
		{ "rebuild_min", "rebuild", COL_DBL, "min", 0 },
		{ "note", "note", COL_STR, "", 0 },
	};
	if (!in->n)
		return -ENOENT;
	/* one drive measured: a 4-drive array of it, the seed's usual size */
	unsigned n = drives ? drives : in->n > 1 ? (unsigned)in->n : 4;
	struct result_table *t = result_table_add(r, "estimate", "Array estimate (no I/O: arithmetic)",
						  cols, ARRAY_SIZE(cols));
	if (!t)
		return -ENOMEM;
	for (int l = 0; l < EST_NLAYOUTS; l++) {
		if (only >= 0 && l != only)
			continue;
		struct est_row e;
		unsigned nn = (l == EST_RAID10 && n % 2 && only < 0) ? n - 1 : n;
		if (estimate_layout(in, (enum est_layout)l, nn, &e))
			continue;
		if (table_add_row(t))
			return -ENOMEM;
		size_t row = t->n_rows - 1;
		char note[96];
		snprintf(note, sizeof(note), "%s%s%s", e.read_capped || e.write_capped ? "capped by the controller" : "",
			 e.rebuild_smr ? (e.read_capped || e.write_capped ? "; " : "") : "",
			 e.rebuild_smr ? "rebuild at the SMR rewrite rate" : "");
		table_set_str(t, row, 0, estimate_layout_name(e.layout));
		table_set_int(t, row, 1, e.drives);
		table_set_dbl(t, row, 2, e.read_mbps);
		table_set_dbl(t, row, 3, e.write_mbps);
		table_set_dbl(t, row, 4, e.rebuild_min);
		table_set_str(t, row, 5, note);
	}
	double slow = NAN;
	for (size_t i = 0; i < in->n; i++)
		if (!(slow <= in->d[i].read_mbps))
			slow = in->d[i].read_mbps;
	strlist_addf(&r->notes, "estimate: every member at the slowest measured drive's rate (%.0f MB/s); "
		     "writes at the measured write rate, else at the read rate", slow);
	strlist_addf(&r->notes, "estimate: RAID5/RAIDZ1 (n-1), RAID6/RAIDZ2 (n-2), RAID1/10 n/2 data drives for writes"
		     " and n/2 for reads too; RAIDZ ~ RAID5/6 at full stripes");
	if (in->ctrl_cap_mbps > 0)
		strlist_addf(&r->notes, "estimate: capped by the controller's measured aggregate %.0f MB/s "
			     "(writes carry their parity across it too)", in->ctrl_cap_mbps);
	else
		strlist_addf(&r->notes, "estimate: no controller cap measured (no saturation seen): rates may be optimistic");
	if (in->scanned_capacity)
		strlist_addf(&r->notes, "estimate: capacity: the bytes the surface scan covered (the inventory had none)");
	if (in->n == 1 && !drives)
		strlist_addf(&r->notes, "estimate: one drive measured: the arrays are of %u drives like it", n);
	strlist_addf(&r->notes, "estimate: rebuild = the smallest member's capacity / the slowest sustained write "
		     "(a DM-SMR drive's rewrite rate when an smr result gives it), an idle array");
	return 0;
}

void
estimate_finish(struct run_result *r)
{
	struct est_input in;
	if (!estimate_input(r, NULL, &in) && in.n >= 1)
		(void)estimate_add_table(r, &in, -1, 0);
}
