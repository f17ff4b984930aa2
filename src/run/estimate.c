/* estimate.c - expected array rates and rebuild times from measured drives.
 * Plain arithmetic with its assumptions stated beside the table: a striped
 * array is paced by its slowest member, parity members carry no data, and a
 * controller that saturated in a saturate run caps what crosses it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* A rate counts when it was measured above zero. */
static bool
measured(struct known_dbl k)
{
	return k.known && isfinite(k.v) && k.v > 0;
}

static struct known_dbl
rate_of(const struct est_drive *d, bool write)
{
	if (write && measured(d->write_mbps))
		return d->write_mbps;
	return measured(d->read_mbps) ? d->read_mbps : (struct known_dbl){ 0 };
}

/* Keep the lower of two rates, an unknown one never. */
static void
keep_min(struct known_dbl *lo, struct known_dbl v)
{
	if (v.known && !(lo->known && lo->v <= v.v))
		*lo = v;
}

int
estimate_layout(const struct est_input *in, enum est_layout l, unsigned drives, struct est_row *out)
{
	memset(out, 0, sizeof(*out));
	out->layout = l;
	out->drives = drives;
	if (l >= EST_NLAYOUTS || drives < estimate_min_drives(l) || (l == EST_RAID10 && drives % 2))
		return -EINVAL;
	/* the slowest measured drive paces every stripe */
	struct known_dbl rd = { 0 }, wr = { 0 }, sus = { 0 };
	uint64_t cap = 0;
	bool cap_unknown = !in->n, smr = false;
	for (size_t i = 0; i < in->n; i++) {
		const struct est_drive *d = &in->d[i];
		struct known_dbl w = rate_of(d, true);
		keep_min(&rd, rate_of(d, false));
		keep_min(&wr, w);
		/* a rebuild rewrites the whole member: a DM-SMR drive at its
		 * rewrite rate (after its media cache fills), others at their
		 * sequential write */
		struct known_dbl s = measured(d->rewrite_mbps) ? d->rewrite_mbps : w;
		if (s.known && !(sus.known && sus.v <= s.v)) {
			sus = s;
			smr = measured(d->rewrite_mbps);
		}
		/* the smallest member bounds a rebuild: one unknown, all unknown */
		if (!d->capacity.known)
			cap_unknown = true;
		else if (!cap || d->capacity.v < cap)
			cap = d->capacity.v;
	}
	if (!rd.known)
		return -EINVAL;
	double dd = data_drives(l, drives);
	KNOWN_SET(out->read_mbps, dd * rd.v);
	if (wr.known)
		KNOWN_SET(out->write_mbps, dd * wr.v);
	double ctl = measured(in->ctrl_cap_mbps) ? in->ctrl_cap_mbps.v : 0;
	if (ctl > 0) {
		/* reads carry data only; writes carry data plus its parity/mirror copy */
		if (out->read_mbps.v > ctl) {
			out->read_mbps.v = ctl;
			out->read_capped = true;
		}
		double wcap = ctl * dd / drives;
		if (out->write_mbps.known && out->write_mbps.v > wcap) {
			out->write_mbps.v = wcap;
			out->write_capped = true;
		}
	}
	if (l != EST_RAID0 && !cap_unknown && cap && sus.known) {
		/* the new member is written at its sustained rate while the
		 * survivors are read; all of it crosses the controller */
		double rate = sus.v;
		unsigned through = l == EST_RAID10 ? 2 : drives;
		if (ctl > 0 && rate * through > ctl)
			rate = ctl / through;
		KNOWN_SET(out->rebuild_min, (double)cap / (rate * 1e6) / 60.0);
		out->rebuild_smr = smr;
	}
	return 0;
}

/* ---- reading a result ---- */

/* A step names a target "loop0", a table or the identity "/dev/loop0": one
 * drive either way. */
static const char *
short_name(const char *s)
{
	return !strncmp(s, "/dev/", 5) ? s + 5 : s;
}

static bool
same_target(const char *a, const char *b)
{
	return !strcmp(short_name(a), short_name(b));
}

static struct est_drive *
drive_named(struct est_input *in, const char *name)
{
	for (size_t i = 0; i < in->n; i++)
		if (same_target(in->d[i].name, name))
			return &in->d[i];
	if (in->n >= EST_MAX_DRIVES)
		return NULL;
	struct est_drive *d = &in->d[in->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", short_name(name));
	return d;	/* no rate known yet */
}

/* Where a drive's rate came from, best last: a pass's step, a solo pass, a
 * table of each target's average over its whole region (a surface scan). */
enum rate_src { SRC_NONE, SRC_STEP, SRC_SOLO, SRC_TABLE };

struct rate_pick {
	enum rate_src src;
	size_t active;		/* SRC_STEP: drives in the step */
	uint64_t bytes;		/* SRC_STEP: what the drive moved in it */
};

/* A step's result counts when it is the drive's sustained pass: a
 * sequential pure read (or pure write), with the fewest drives beside it,
 * and of those the one that moved the most bytes; a surface's burst,
 * access-time and re-read steps move far fewer bytes than its scan. */
static void
take_step(struct est_drive *d, struct rate_pick pk[2], const struct step_result *sr,
	  const struct target_result *t, const struct run_params *rp)
{
	const char *pat = sr->pattern[0] ? sr->pattern : rp->pattern;
	int mix = sr->bs ? sr->rw_mix : rp->rw_mix;
	if (strcmp(pat, "seq") || (mix != 100 && mix != 0))
		return;
	bool wr = mix == 0;
	double v = wr ? t->write_mbps : t->read_mbps > 0 ? t->read_mbps : t->mbps;
	struct rate_pick *p = &pk[wr];
	if (!(v > 0) || !isfinite(v) || p->src > SRC_STEP ||
	    (p->src == SRC_STEP && (sr->n_res > p->active || (sr->n_res == p->active && t->bytes <= p->bytes))))
		return;
	*p = (struct rate_pick){ SRC_STEP, sr->n_res, t->bytes };
	*(wr ? &d->write_mbps : &d->read_mbps) = known_dbl_of(v);
}

static void
take_rates(const struct run_result *r, struct est_input *in, struct rate_pick (*pk)[2])
{
	for (size_t i = 0; i < r->n_solo; i++) {
		const struct target_result *t = &r->solo[i];
		struct est_drive *d = drive_named(in, t->target);
		if (!d)
			continue;
		struct rate_pick *p = pk[d - in->d];
		if (t->read_mbps > 0 || (t->mbps > 0 && !(t->write_mbps > 0))) {
			KNOWN_SET(d->read_mbps, t->read_mbps > 0 ? t->read_mbps : t->mbps);
			p[0].src = SRC_SOLO;
		}
		if (t->write_mbps > 0) {
			KNOWN_SET(d->write_mbps, t->write_mbps);
			p[1].src = SRC_SOLO;
		}
	}
	for (size_t s = 0; s < r->n_steps; s++) {
		const struct step_result *sr = &r->steps[s];
		for (size_t k = 0; !sr->failed && k < sr->n_res; k++) {
			struct est_drive *d = drive_named(in, sr->res[k].target);
			if (d)
				take_step(d, pk[d - in->d], sr, &sr->res[k], &r->params);
		}
	}
	/* found by its role, whatever the test */
	for (const struct result_table *t = NULL; (t = result_table_next(r, TR_DRIVE_RATES, t));) {
		int ct = table_col(t, CR_TARGET), ca = table_col(t, CR_AVG_MBPS), cm = table_col(t, CR_MODE);
		for (size_t row = 0; ct >= 0 && ca >= 0 && row < t->n_rows; row++) {
			const struct result_cell *n = &t->cells[row * t->n_cols + (size_t)ct];
			const struct result_cell *a = &t->cells[row * t->n_cols + (size_t)ca];
			if (!n->s || !measured(a->d))
				continue;
			struct est_drive *d = drive_named(in, n->s);
			if (d) {
				const struct result_cell *m = cm >= 0 ? &t->cells[row * t->n_cols + (size_t)cm] : NULL;
				d->read_mbps = a->d;
				d->sampled = m && m->s && !strcmp(m->s, RESULT_MODE_SAMPLED);
				pk[d - in->d][0].src = SRC_TABLE;
			}
		}
	}
	/* a read rate is needed; a write-only pass stands in for it */
	for (size_t i = 0; i < in->n; i++)
		if (!measured(in->d[i].read_mbps) && measured(in->d[i].write_mbps))
			in->d[i].read_mbps = in->d[i].write_mbps;
}

/* Capacity and model from the run's identity block (the inventory's, or
 * the opened device's size), never from the bytes a scan covered. */
static void
take_identity(const struct run_result *r, struct est_drive *d)
{
	for (size_t k = 0; k < r->n_ident && k < r->ident_targets.n; k++) {
		const struct target_ident *id = &r->ident[k];
		if (same_target(r->ident_targets.v[k], d->name) || (id->drive_id[0] && !strcmp(id->drive_id, d->name))) {
			d->capacity = id->capacity;
			strtrimcpy(d->model, sizeof(d->model), id->model);
		}
	}
	for (size_t s = 0; !d->model[0] && s < r->n_steps; s++)
		for (size_t k = 0; k < r->steps[s].n_res; k++)
			if (same_target(r->steps[s].res[k].target, d->name) && r->steps[s].res[k].model[0])
				strtrimcpy(d->model, sizeof(d->model), r->steps[s].res[k].model);
}

int
estimate_input(const struct run_result *r, const struct run_result *smr, struct est_input *in)
{
	struct rate_pick (*pk)[2] = calloc(EST_MAX_DRIVES, sizeof(*pk));
	memset(in, 0, sizeof(*in));
	if (!pk)
		return -ENOMEM;
	take_rates(r, in, pk);
	free(pk);
	/* drop drives with nothing measured */
	size_t w = 0;
	for (size_t i = 0; i < in->n; i++)
		if (measured(in->d[i].read_mbps))
			in->d[w++] = in->d[i];
	in->n = w;
	if (!in->n)
		return -ENOENT;
	for (size_t i = 0; i < in->n; i++)
		take_identity(r, &in->d[i]);
	/* the controller's measured aggregate caps only when it saturated */
	bool knee = false;
	for (size_t i = 0; i < r->n_verdicts; i++)
		knee |= r->verdicts[i].knee_drives > 0;
	if (knee)
		for (size_t s = 0; s < r->n_steps; s++)
			if (!r->steps[s].failed && r->steps[s].aggregate_mbps.known &&
			    r->steps[s].aggregate_mbps.v > (in->ctrl_cap_mbps.known ? in->ctrl_cap_mbps.v : 0))
				KNOWN_SET(in->ctrl_cap_mbps, r->steps[s].aggregate_mbps.v);
	/* an smr result: each drive's rate while rewriting ("rewrite NAME" steps) */
	for (size_t s = 0; smr && s < smr->n_steps; s++) {
		const struct step_result *sr = &smr->steps[s];
		if (strncmp(sr->label, "rewrite ", 8))
			continue;
		for (size_t k = 0; k < sr->n_res; k++)
			for (size_t i = 0; i < in->n; i++)
				if (same_target(in->d[i].name, sr->res[k].target) && sr->res[k].mbps > 0)
					KNOWN_SET(in->d[i].rewrite_mbps, sr->res[k].mbps);
	}
	return 0;
}

static void
cap_text(uint64_t b, char *out, size_t n)
{
	if (b >= 1000000000000ULL)
		snprintf(out, n, "%.2f TB", b / 1e12);
	else if (b >= 1000000000ULL)
		snprintf(out, n, "%.0f GB", b / 1e9);
	else
		snprintf(out, n, "%.0f MB", b / 1e6);
}

int
estimate_check(const struct est_input *in, unsigned drives, char *why, size_t n)
{
	if (!in->n) {
		snprintf(why, n, "no drive rate measured");
		return -ENOENT;
	}
	if (in->n == 1 && !drives) {
		snprintf(why, n, "one drive measured (%s): an array of drives like it needs their count "
			 "(diskscope estimate RESULT.json --drives N)", in->d[0].name);
		return -EINVAL;
	}
	/* unlike drives: the arithmetic of like members would not hold */
	const char *m0 = NULL, *m1 = NULL;
	size_t models = 0;
	uint64_t lo = 0, hi = 0;
	for (size_t i = 0; i < in->n; i++) {
		const struct est_drive *d = &in->d[i];
		bool seen = false;
		for (size_t j = 0; d->model[0] && j < i; j++)
			seen |= !strcmp(in->d[j].model, d->model);
		if (d->model[0] && !seen) {
			models++;
			if (!m0)
				m0 = d->model;
			else if (!m1)
				m1 = d->model;
		}
		if (d->capacity.known) {
			if (!lo || d->capacity.v < lo)
				lo = d->capacity.v;
			if (d->capacity.v > hi)
				hi = d->capacity.v;
		}
	}
	bool sizes = lo && (double)hi > 1.01 * (double)lo;
	if (models > 1 || sizes) {
		char a[24], b[24], ms[160] = "";
		cap_text(lo, a, sizeof(a));
		cap_text(hi, b, sizeof(b));
		if (models > 1)
			snprintf(ms, sizeof(ms), "%zu models (%s, %s%s)%s", models, m0, m1, models > 2 ? ", ..." : "",
				 sizes ? ", " : "");
		snprintf(why, n, "the %zu drives are not alike: %s%s%s%s%s: estimate an array of like drives from "
			 "their own run", in->n, ms, sizes ? "sizes " : "", sizes ? a : "", sizes ? " to " : "",
			 sizes ? b : "");
		return -EINVAL;
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
	char why[256];
	int e = estimate_check(in, drives, why, sizeof(why));
	if (e)
		return e;
	unsigned n = drives ? drives : (unsigned)in->n;
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
		table_set_known_dbl(t, row, 2, e.read_mbps);
		table_set_known_dbl(t, row, 3, e.write_mbps);
		table_set_known_dbl(t, row, 4, e.rebuild_min);
		table_set_str(t, row, 5, note);
	}
	struct known_dbl slow = { 0 };	/* every drive left has a read rate */
	for (size_t i = 0; i < in->n; i++)
		keep_min(&slow, in->d[i].read_mbps);
	strlist_addf(&r->notes, "estimate: every member at the slowest measured drive's rate (%.0f MB/s); "
		     "writes at the measured write rate, else at the read rate", slow.v);
	strlist_addf(&r->notes, "estimate: RAID5/RAIDZ1 (n-1), RAID6/RAIDZ2 (n-2), RAID1/10 n/2 data drives for writes"
		     " and n/2 for reads too; RAIDZ ~ RAID5/6 at full stripes");
	if (measured(in->ctrl_cap_mbps))
		strlist_addf(&r->notes, "estimate: capped by the controller's measured aggregate %.0f MB/s "
			     "(writes carry their parity across it too)", in->ctrl_cap_mbps.v);
	else
		strlist_addf(&r->notes, "estimate: no controller cap measured (no saturation seen): rates may be optimistic");
	for (size_t i = 0; i < in->n; i++)
		if (!in->d[i].capacity.known) {
			strlist_addf(&r->notes, "estimate: %s: capacity unknown (no identity): no rebuild time",
				     in->d[i].name);
			break;
		}
	for (size_t i = 0; i < in->n; i++)
		if (in->d[i].sampled) {
			strlist_addf(&r->notes, "estimate: %s: the rate of a quick scan (a seek before each sampled block): "
				     "a lower bound; a full scan measures the sustained rate", in->d[i].name);
			break;
		}
	if (n != in->n)
		strlist_addf(&r->notes, "estimate: %zu drive%s measured: the arrays are of %u drives like %s", in->n,
			     in->n == 1 ? "" : "s", n, in->n == 1 ? "it" : "them");
	strlist_addf(&r->notes, "estimate: rebuild = the smallest member's capacity / the slowest sustained write "
		     "(a DM-SMR drive's rewrite rate when an smr result gives it), an idle array");
	return 0;
}

void
estimate_finish(struct run_result *r)
{
	struct est_input in;
	char why[256];
	if (estimate_input(r, NULL, &in))
		return;	/* nothing measured: nothing to say */
	if (estimate_check(&in, 0, why, sizeof(why)))
		strlist_addf(&r->notes, "estimate: left out: %s", why);
	else
		(void)estimate_add_table(r, &in, -1, 0);
}
