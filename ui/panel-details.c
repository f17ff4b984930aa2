/* panel-details.c - every fact of the selected controller or drive: link
 * capability vs status, drives on the controller; identity, geometry, ATA
 * features, SMR evidence and the SMART attribute table (failing ones marked). */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define MAX_LINES DET_MAX_LINES

/* Byte offset of display column `col` in UTF-8 s (or its end). */
static size_t
col_offset(const char *s, int col)
{
	size_t i = 0;

	for (int c = 0; s[i]; c++) {
		if (c == col)
			return i;
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}

static void
add_line(struct det_lines *l, enum theme_el el, const char *s, size_t n)
{
	if (l->n >= MAX_LINES)
		return;
	snprintf(l->s[l->n], sizeof(l->s[0]), "%.*s", (int)n, s);
	l->el[l->n++] = el;
}

/* One fact; too long for the panel, it wraps at words, continued lines
 * indented under it (a note cut mid-word reads wrong). */
static void
vadd(struct det_lines *l, enum theme_el el, bool wrap, const char *fmt, va_list ap)
{
	char buf[512], rest[512];
	const char *s = buf;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	int indent = (int)strspn(buf, " ") + 2;

	if (indent > l->wrap / 2)
		indent = 2;
	while (wrap && text_width(s) > l->wrap && l->wrap > indent + 8) {
		size_t cut = col_offset(s, l->wrap), brk = cut;

		while (brk > 0 && s[brk] != ' ')
			brk--;
		if (brk <= (size_t)indent)	/* one long word: cut it */
			brk = cut;
		add_line(l, el, s, brk);
		while (s[brk] == ' ')
			brk++;
		size_t m = strlen(s + brk);

		if (m > sizeof(rest) - (size_t)indent - 1)
			m = sizeof(rest) - (size_t)indent - 1;
		memset(rest, ' ', (size_t)indent);
		memcpy(rest + indent, s + brk, m);
		rest[indent + m] = 0;
		memcpy(buf, rest, indent + m + 1);
		s = buf;
	}
	add_line(l, el, s, strlen(s));
}

static void __attribute__((format(printf, 3, 4)))
add(struct det_lines *l, enum theme_el el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(l, el, true, fmt, ap);
	va_end(ap);
}

/* A table row: columns line up, so it is cut, never wrapped. */
static void __attribute__((format(printf, 3, 4)))
add_row(struct det_lines *l, enum theme_el el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(l, el, false, fmt, ap);
	va_end(ap);
}

static const char *
u64s(const struct known_u64 *v, char *b, size_t n)
{
	return known_fmt_u64(v, "%llu", NULL, b, n);
}

static const char *
str_or(const char *s, const char *alt)
{
	return s && *s ? s : alt;
}

static void
ctrl_lines(struct ui *u, const struct controller *c, struct det_lines *l)
{
	char b[128];
	const struct pci_link *k = &c->link;

	add(l, EL_TITLE, "%s", str_or(c->name, "unknown controller"));
	add(l, EL_TEXT, "id        %s%s", c->id, c->simulated ? "  (simulated)" : "");
	add(l, EL_TEXT, "address   %s", str_or(c->address, "unknown"));
	add(l, EL_TEXT, "vendor    %04x:%04x", c->vendor_id, c->device_id);
	add(l, EL_TEXT, "class     %s (%06x)", str_or(c->class_name, "unknown"), c->class_code);
	add(l, EL_TEXT, "driver    %s", str_or(c->driver, "unknown"));
	add(l, EL_TEXT, "numa node %s", u64s(&c->numa_node, b, sizeof(b)));
	add(l, EL_TEXT, "%s", "");
	add(l, EL_TITLE, "PCIe link%s%s", c->link_from[0] ? " (from " : "",
	    c->link_from[0] ? c->link_from : "");
	if (c->link_from[0] && strlen(l->s[l->n - 1]) + 2 < sizeof(l->s[0]))
		strcat(l->s[l->n - 1], ")");
	if (!k->known) {
		add(l, EL_UNKNOWN, "link n/a: %s", str_or(k->reason, "no PCIe capability"));
	} else {
		char cs[24], ss[24];

		snprintf(cs, sizeof(cs), "%gGT/s", k->cap_gts);
		snprintf(ss, sizeof(ss), "%gGT/s", k->sta_gts);
		add_row(l, EL_DIM, "            speed    width  ceiling");
		char cc[24];
		known_fmt_dbl(&k->cap_ceiling_mbps, "%.0f MB/s", "?", cc, sizeof(cc));
		add(l, EL_TEXT, "capability  %-8s x%-5u %s", cs, k->cap_width, cc);
		add(l, k->downgraded ? EL_WARN : EL_OK, "status      %-8s x%-5u %.0f MB/s%s", ss, k->sta_width,
		    k->ceiling_mbps, k->downgraded ? "  downgraded" : "");
		if (k->cap2_max_gts.known)
			add(l, EL_DIM, "LnkCap2 max %g GT/s", k->cap2_max_gts.v);
	}
	if (c->narrowest.known && c->narrowest_at[0])
		add(l, EL_TEXT, "narrowest on path: %gGT/s x%u at %s (%.0f MB/s)", c->narrowest.sta_gts,
		    c->narrowest.sta_width, c->narrowest_at, c->narrowest.ceiling_mbps);
	add(l, EL_TEXT, "%s", "");
	add(l, EL_TITLE, "Drives on this controller (%zu)", c->drives.n);
	for (size_t i = 0; i < c->drives.n; i++) {
		const struct drive *d = u->inv ? inventory_find_drive(u->inv, c->drives.v[i]) : NULL;
		char cap[16] = "?";

		if (d && d->capacity_bytes.known)
			fmt_bytes(cap, sizeof(cap), (double)d->capacity_bytes.v);
		int mw = l->wrap - 21;	/* the capacity stays in view */

		mw = mw < 8 ? 8 : mw > 28 ? 28 : mw;
		add_row(l, EL_TEXT, "  %-8s %-*.*s %s", c->drives.v[i], mw, mw, d ? d->model : "", cap);
	}
}

/* The drive's bench history (its last runs, where it stands among the
 * drives of its model), asked of the backend only when the drive or the
 * number of finished runs changed: a database query per frame is too many. */
static void
history_lines(struct ui *u, const struct drive *d, struct det_lines *l)
{
	struct details_state *s = &u->det;
	if (!u->be || !u->be->drive_history)
		return;
	if (s->hist_drive != d || s->hist_runs != u->runs_finished) {
		s->n_hist = u->be->drive_history(u->be->ctx, d, s->hist, DET_HIST_LINES);
		s->hist_drive = d;
		s->hist_runs = u->runs_finished;
	}
	if (!s->n_hist)
		return;
	add(l, EL_TITLE, "%s", s->hist[0]);
	for (size_t i = 1; i < s->n_hist; i++)
		add(l, EL_TEXT, "%s", s->hist[i]);
	add(l, EL_TEXT, "%s", "");
}

/* An NVMe drive's health log and limits (inventory/nvme.c), in place of ATA
 * SMART: the warning bits, spare against its threshold and wear first. */
static void
nvme_lines(const struct drive *d, struct det_lines *l)
{
	const struct nvme_info *n = &d->nvme;
	const struct nvme_health *h = &n->health;
	char a[32], b[32], c[32], t[160];

	if (!h->known) {
		add(l, EL_UNKNOWN, "NVMe health: unknown (%s)", str_or(h->reason, "not read"));
		return;
	}
	bool warn = h->critical_warning.known && h->critical_warning.v;
	bool spare_low = h->available_spare.known && h->spare_threshold.known &&
			 h->available_spare.v < h->spare_threshold.v;
	add(l, warn ? EL_FAIL : EL_TITLE, "NVMe health: %s", !h->critical_warning.known ? "unknown" :
	    warn ? nvme_crit_text(h->critical_warning.v, t, sizeof(t)) : "no critical warning");
	snprintf(a, sizeof(a), "unknown");
	snprintf(b, sizeof(b), "unknown");
	if (n->warning_temp_c.known)
		snprintf(a, sizeof(a), "%lld C", (long long)n->warning_temp_c.v);
	if (n->critical_temp_c.known)
		snprintf(b, sizeof(b), "%lld C", (long long)n->critical_temp_c.v);
	if (h->temperature_c.known)
		add(l, EL_TEXT, "  temperature %lld C (warning %s, critical %s)",
		    (long long)h->temperature_c.v, a, b);
	else
		add(l, EL_UNKNOWN, "  temperature unknown (warning %s, critical %s)", a, b);
	add(l, spare_low ? EL_FAIL : EL_TEXT, "  spare %s%% (threshold %s%%), used %s%%",
	    u64s(&h->available_spare, a, sizeof(a)), u64s(&h->spare_threshold, b, sizeof(b)),
	    u64s(&h->percent_used, c, sizeof(c)));
	bool errs = h->media_errors.known && h->media_errors.v;
	add(l, errs ? EL_WARN : EL_TEXT, "  media errors %s, error log entries %s",
	    u64s(&h->media_errors, a, sizeof(a)), u64s(&h->error_log_entries, b, sizeof(b)));
	if (n->n_latest)
		add(l, EL_WARN, "  latest error #%llu: status 0x%x (queue %u, command %u)",
		    (unsigned long long)n->latest[0].error_count, n->latest[0].status,
		    n->latest[0].sqid, n->latest[0].cmdid);
	add(l, EL_TEXT, "  power on %s h, unsafe shutdowns %s, power cycles %s",
	    u64s(&h->power_on_hours, a, sizeof(a)), u64s(&h->unsafe_shutdowns, b, sizeof(b)),
	    u64s(&h->power_cycles, c, sizeof(c)));
	add(l, EL_TEXT, "  data units read %s, written %s (x 512000 bytes)",
	    u64s(&h->data_units_read, a, sizeof(a)), u64s(&h->data_units_written, b, sizeof(b)));
	if (n->lbaf_in_use.known) {
		const struct nvme_lbaf_desc *f = &n->lbaf[n->lbaf_in_use.v];
		add(l, EL_TEXT, "  LBA format %llu of %u: %llu + %llu metadata bytes",
		    (unsigned long long)n->lbaf_in_use.v, n->n_lbaf,
		    (unsigned long long)f->data_bytes, (unsigned long long)f->meta_bytes);
	}
	if (n->ns_id[0])
		add(l, EL_TEXT, "  namespace %s", n->ns_id);
	add(l, n->selftest_supported.known && n->selftest_supported.v ? EL_TEXT : EL_DIM,
	    "  %s", !n->selftest_supported.known ? "self-test support unknown" :
	    n->selftest_supported.v ? "self-test supported" :
	    str_or(n->selftest_reason, "self-test not supported"));
	const struct nvme_st_entry *st = nvme_st_failed(n);
	if (st)
		add(l, EL_FAIL, "  self-test %s at %llu h: %s", nvme_st_result_text(st->result),
		    (unsigned long long)st->power_on_hours, nvme_st_where(st, t, sizeof(t)));
	else if (n->n_selftest)
		add(l, EL_TEXT, "  self-test log: %u results, none failed", n->n_selftest);
}

/* A SCSI drive's format and log pages (inventory/scsi-text.c), in place of
 * ATA SMART: the same words as `list`. */
static void
scsi_lines(const struct drive *d, struct det_lines *l)
{
	static const enum theme_el el[] = {
		[SCSI_LINE_OK] = EL_TEXT, [SCSI_LINE_UNKNOWN] = EL_UNKNOWN,
		[SCSI_LINE_WARN] = EL_WARN, [SCSI_LINE_FAIL] = EL_FAIL,
	};
	struct scsi_line sl[2];
	size_t n = scsi_text_lines(&d->scsi, d->scsi.sg_node[0] ? d->scsi.sg_node : d->path, sl, 2);

	add(l, EL_TITLE, "SCSI: %s%s%s", str_or(d->scsi.transport, "transport unknown"),
	    d->scsi.transport_from[0] ? " from " : "", d->scsi.transport_from);
	for (size_t i = 0; i < n; i++)
		add(l, el[sl[i].level], "  %s", sl[i].text);
}

static void
drive_lines(struct ui *u, const struct drive *d, struct det_lines *l)
{
	char a[64], b[64], c[64];
	const struct ata_identify *id = &d->ata.id;
	const struct smart_info *sm = &d->ata.smart;

	add(l, EL_TITLE, "%s  %s", d->name, str_or(d->model, "unknown model"));
	add(l, EL_TEXT, "path      %s", str_or(d->path, "-"));
	add(l, EL_TEXT, "vendor    %s", str_or(d->vendor, "unknown"));
	add(l, EL_TEXT, "serial    %s", str_or(d->serial, "unknown"));
	add(l, EL_TEXT, "firmware  %s", str_or(d->firmware, "unknown"));
	add(l, EL_TEXT, "wwn       %s", str_or(d->wwn, "unknown"));
	add(l, EL_TEXT, "id        %s (%s)", str_or(d->id, "-"), str_or(d->id_source, "-"));
	add(l, EL_TEXT, "transport %s%s", transport_name(d->transport), d->virtual_dev ? " (virtual)" : "");
	if (d->capacity_bytes.known) {
		fmt_bytes(a, sizeof(a), (double)d->capacity_bytes.v);
		add(l, EL_TEXT, "capacity  %s (%llu bytes)", a, (unsigned long long)d->capacity_bytes.v);
	} else {
		add(l, EL_UNKNOWN, "capacity  unknown");
	}
	add(l, EL_TEXT, "sectors   %s logical / %s physical (%s, from %s)", u64s(&d->logical, a, sizeof(a)),
	    u64s(&d->physical, b, sizeof(b)), sector_text(d), str_or(d->sector_source, "?"));
	add(l, EL_TEXT, "alignment offset %s, min io %s", u64s(&d->alignment_offset, a, sizeof(a)),
	    u64s(&d->min_io, b, sizeof(b)));
	rpm_text(d, a, sizeof(a));
	add(l, EL_TEXT, "rotation  %s", a);
	struct known_bool tr = trim_state(d);

	add(l, tr.v ? EL_TEXT : EL_DIM, "TRIM      %s%s%s", !tr.known ? "unknown" : tr.v ? "yes" : "no",
	    id->trim_deterministic.known && id->trim_deterministic.v ? ", deterministic" : "",
	    id->trim_zeroed.known && id->trim_zeroed.v ? ", zeroes" : "");
	add(l, EL_TEXT, "zoned     %s", str_or(d->zoned, "unknown"));
	add(l, EL_TEXT, "cache     %s", str_or(d->write_cache, "unknown"));
	/* the drive's word 77, else the speed the kernel negotiated */
	struct known_dbl cur = id->sata_cur_gbps.known ? id->sata_cur_gbps : d->link_gbps;

	if (cur.known || id->sata_max_gbps.known) {
		known_fmt_dbl(&cur, "%g Gb/s", "?", a, sizeof(a));
		known_fmt_dbl(&id->sata_max_gbps, "%g Gb/s", "?", b, sizeof(b));
		bool slow = cur.known && id->sata_max_gbps.known && cur.v < id->sata_max_gbps.v;

		add(l, slow ? EL_WARN : EL_TEXT, "SATA link %s of %s%s", a, b, slow ? " (below capability)" : "");
	}
	if (id->ncq_depth.known)
		add(l, EL_TEXT, "NCQ depth %llu", (unsigned long long)id->ncq_depth.v);
	if (d->controller >= 0 && u->inv && (size_t)d->controller < u->inv->n_ctrl)
		add(l, EL_TEXT, "controller %s %s, port %s", u->inv->ctrl[d->controller].id,
		    u->inv->ctrl[d->controller].name, str_or(d->port, "?"));
	if (d->partitions.n) {
		char p[160] = "";

		for (size_t i = 0; i < d->partitions.n; i++)
			snprintf(p + strlen(p), sizeof(p) - strlen(p), "%s%s", i ? " " : "", d->partitions.v[i]);
		add(l, EL_TEXT, "partitions %s", p);
	}
	for (size_t i = 0; i < d->mounts.n; i++)
		add(l, EL_WARN, "mounted   %s", d->mounts.v[i]);
	for (size_t i = 0; i < d->holders.n; i++)
		add(l, EL_WARN, "held by   %s", d->holders.v[i]);
	if (d->access == ACC_DENIED)
		add(l, EL_FAIL, "access    denied (%s)", strerror(d->access_errno));
	add(l, EL_TEXT, "ATA       %s%s%s", d->ata.state == ATA_OK ? "ok" : d->ata.state == ATA_NOT_ATA ? "not ATA" :
	    d->ata.state == ATA_PENDING ? "pending" : "failed: ", d->ata.state == ATA_FAILED ||
	    d->ata.state == ATA_NO_ANSWER ? d->ata.reason : "", d->ata.via[0] ? "" : "");
	add(l, EL_TEXT, "%s", "");
	add(l, EL_TITLE, "SMR assessment: %s", smr_verdict_name(d->smr.verdict));
	l->el[l->n - 1] = smr_el(d);
	for (size_t i = 0; i < d->smr.evidence.n; i++)
		add(l, EL_TEXT, "  - %s", d->smr.evidence.v[i]);
	for (size_t i = 0; i < d->warnings.n; i++)
		add(l, EL_WARN, "%s %s", sym_warn(u), d->warnings.v[i]);
	add(l, EL_TEXT, "%s", "");
	history_lines(u, d, l);
	if (d->transport == TR_NVME) {
		nvme_lines(d, l);
		return;
	}
	if (drive_scsi_class(d)) {
		scsi_lines(d, l);
		return;
	}
	if (d->ata.state == ATA_OK && (d->ata.farm.known || d->ata.farm.reason[0])) {
		char fl[400];	/* provenance (inventory/farm.h) */
		int mis = farm_text(&d->ata.farm, sm->known ? &sm->power_on_hours : NULL,
				    str_or(d->ata.id.serial, d->serial), fl, sizeof(fl));
		add(l, mis ? EL_WARN : d->ata.farm.known ? EL_TEXT : EL_UNKNOWN, "%s", fl);
		add(l, d->ata.hidden.known && d->ata.hidden.hidden.v ? EL_WARN : d->ata.hidden.known ? EL_TEXT :
		    EL_UNKNOWN, "%s", hpa_text(&d->ata.hidden, fl, sizeof(fl)));
	}
	if (!sm->known) {
		add(l, EL_UNKNOWN, "SMART: unknown (%s)", str_or(sm->reason, "not read"));
		return;
	}
	add(l, smart_el(d), "SMART: %s%s", str_or(sm->overall, "?"),
	    sm->status_good.known ? (sm->status_good.v ? ", status good" : ", status FAILING") : "");
	if (sm->temperature_c.known)
		add(l, EL_TEXT, "  temperature %.0f C", sm->temperature_c.v);
	add(l, EL_TEXT, "  power on %s h, reallocated %s, pending %s, uncorrectable %s",
	    u64s(&sm->power_on_hours, a, sizeof(a)), u64s(&sm->reallocated, b, sizeof(b)),
	    u64s(&sm->pending, c, sizeof(c)), u64s(&sm->offline_uncorrectable, a + 32, 32));
	add_row(l, EL_DIM, "  ID  attribute                 val wst thr  raw");
	for (size_t i = 0; i < sm->n_attrs; i++) {
		const struct smart_attr *at = &sm->attrs[i];
		char v[8], w[8], t[8];

		snprintf(v, sizeof(v), at->value.known ? "%3llu" : "  ?", (unsigned long long)at->value.v);
		snprintf(w, sizeof(w), at->worst.known ? "%3llu" : "  ?", (unsigned long long)at->worst.v);
		snprintf(t, sizeof(t), at->threshold.known ? "%3llu" : "  ?", (unsigned long long)at->threshold.v);
		add_row(l, at->failing_now ? EL_FAIL : at->failed_past ? EL_WARN : EL_TEXT,
		    "%s%3u %-25.25s %s %s %s  %s%s", at->failing_now ? "!" : at->failed_past ? "~" : " ",
		    at->id, at->name, v, w, t, str_or(at->pretty, "-"),
		    at->failing_now ? "  FAILING" : at->failed_past ? "  failed in the past" : "");
	}
}

void
panel_details_draw(struct ui *u, const struct rect *r)
{
	struct det_lines *l = &u->det.text;
	bool focus = u->focus == AR_DETAILS;

	draw_box(u, r, "Details", focus);
	l->n = 0;
	l->wrap = r->w - 3;	/* the panel's text width */
	if (u->tree.n_row && u->tree.sel < (int)u->tree.n_row) {
		const struct inv_row *row = &u->tree.row[u->tree.sel];

		if (row->drive >= 0)
			drive_lines(u, &u->inv->drv[row->drive], l);
		else if (row->ctrl >= 0)
			ctrl_lines(u, &u->inv->ctrl[row->ctrl], l);
		else
			add(l, EL_DIM, "drives whose controller could not be found");
	}
	if (u->inv)
		for (size_t i = 0; i < u->inv->notes.n && u->tree.sel == 0; i++)
			add(l, EL_DIM, "note: %s", u->inv->notes.v[i]);
	int ih = r->h - 2;

	if (u->det.top > (int)l->n - ih)
		u->det.top = (int)l->n - ih;
	if (u->det.top < 0)
		u->det.top = 0;
	for (int i = 0; i < ih && u->det.top + i < (int)l->n; i++)
		draw_text(r->y + 1 + i, r->x + 2, r->w - 3, attr_of((enum theme_el)l->el[u->det.top + i]),
			  l->s[u->det.top + i]);
}

int
panel_details_key(struct ui *u, enum action a, int ch)
{
	int page = u->lay.r[AR_DETAILS].h - 3;

	switch (a) {
	case ACT_UP:
		u->det.top--;
		break;
	case ACT_DOWN:
		u->det.top++;
		break;
	case ACT_PGUP:
		u->det.top -= page;
		break;
	case ACT_PGDN:
		u->det.top += page;
		break;
	case ACT_HOME:
		u->det.top = 0;
		break;
	case ACT_END:
		u->det.top = 1 << 20;
		break;
	default:
		return 0;
	}
	if (u->det.top < 0)
		u->det.top = 0;
	return UI_HANDLED | UI_REDRAW;
}
