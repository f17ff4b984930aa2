/* panel-inventory.c - the bench as a tree: controllers with their link and
 * ceiling, their drives beneath with the facts that matter for triage.
 * "/" filters it; Enter opens the test picker on the selection. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "internal.h"

static bool
match(const char *hay, const char *needle)
{
	return hay && strcasestr(hay, needle) != NULL;
}

static bool
drive_matches(const struct drive *d, const char *f)
{
	return match(d->name, f) || match(d->model, f) || match(d->serial, f) ||
	       match(d->path, f) || match(d->vendor, f);
}

static bool
ctrl_matches(const struct controller *c, const char *f)
{
	return match(c->name, f) || match(c->id, f) || match(c->address, f) || match(c->driver, f);
}

static void
add_row(struct ui *u, int c, int d)
{
	if (u->tree.n_row == u->tree.row_cap) {
		size_t cap = u->tree.row_cap ? u->tree.row_cap * 2 : 32;
		struct inv_row *n = realloc(u->tree.row, cap * sizeof(*n));

		if (!n)
			return;
		u->tree.row = n;
		u->tree.row_cap = cap;
	}
	u->tree.row[u->tree.n_row++] = (struct inv_row){ c, d };
}

void
inventory_rows_build(struct ui *u)
{
	const struct inventory *inv = u->inv;
	const char *f = u->tree.filter;

	u->tree.n_row = 0;
	if (!inv)
		return;
	/* Controllers in order, then the drives without one. */
	for (int ci = 0; ci <= (int)inv->n_ctrl; ci++) {
		int c = ci < (int)inv->n_ctrl ? ci : -1;
		bool cm = !*f || (c >= 0 && ctrl_matches(&inv->ctrl[c], f));
		bool any = false;

		for (size_t d = 0; d < inv->n_drv; d++)
			if (inv->drv[d].controller == c && (cm || drive_matches(&inv->drv[d], f)))
				any = true;
		if (!any && !(c >= 0 && cm))
			continue;
		if (c >= 0 || any)
			add_row(u, c, -1);
		for (size_t d = 0; d < inv->n_drv; d++)
			if (inv->drv[d].controller == c && (cm || drive_matches(&inv->drv[d], f)))
				add_row(u, c, (int)d);
	}
	if (u->tree.sel >= (int)u->tree.n_row)
		u->tree.sel = u->tree.n_row ? (int)u->tree.n_row - 1 : 0;
	/* A filter puts the selection on the first thing it found, never on
	 * the "other drives" heading (which is no controller to test). */
	if (*f)
		for (size_t i = 0; i < u->tree.n_row; i++)
			if (u->tree.row[i].ctrl >= 0 || u->tree.row[i].drive >= 0) {
				u->tree.sel = (int)i;
				break;
			}
}

void
link_text(const struct ui *u, const struct pci_link *l, char *b, size_t n)
{
	if (!l->known) {
		snprintf(b, n, "link n/a");
		return;
	}
	int k = snprintf(b, n, "%gGT/s x%u", l->sta_gts, l->sta_width);

	if (l->downgraded && k > 0 && (size_t)k < n) {
		if (l->sta_width != l->cap_width && l->sta_gts != l->cap_gts)
			snprintf(b + k, n - (size_t)k, " of %gGT/s x%u %s downgraded", l->cap_gts,
				 l->cap_width, sym_warn(u));
		else if (l->sta_width != l->cap_width)
			snprintf(b + k, n - (size_t)k, " of x%u %s downgraded", l->cap_width, sym_warn(u));
		else
			snprintf(b + k, n - (size_t)k, " of %gGT/s %s downgraded", l->cap_gts, sym_warn(u));
	}
}

const char *
sector_text(const struct drive *d)
{
	if (!d->logical.known || !d->physical.known)
		return "?";
	if (d->logical.v == 512 && d->physical.v == 4096)
		return "512e";
	if (d->logical.v == 4096)
		return "4Kn";
	if (d->logical.v == 512 && d->physical.v == 512)
		return "512n";
	return "other";
}

void
rpm_text(const struct drive *d, char *b, size_t n)
{
	if (d->rotation_rpm.known)
		snprintf(b, n, d->rotation_rpm.v ? "%lurpm" : "SSD", (unsigned long)d->rotation_rpm.v);
	else if (d->rotational.known && !d->rotational.v)
		snprintf(b, n, "SSD");
	else if (d->rotational.known)
		snprintf(b, n, "HDD");
	else
		snprintf(b, n, "?");
}

/* TRIM: yes / no when known. */
struct known_bool
trim_state(const struct drive *d)
{
	struct known_u64 t = drive_trim(d, NULL);	/* the same answer as `list` */

	return (struct known_bool){ t.known, t.known && t.v };
}

enum theme_el
smart_el(const struct drive *d)
{
	if (!d->ata.smart.known)
		return EL_UNKNOWN;
	return strcmp(d->ata.smart.overall, "good") == 0 ? EL_OK : EL_FAIL;
}

enum theme_el
smr_el(const struct drive *d)
{
	switch (d->smr.verdict) {
	case SMR_UNLIKELY:
		return EL_OK;
	case SMR_POSSIBLE:
		return EL_WARN;
	case SMR_LIKELY:
	case SMR_ZONED:
		return EL_FAIL;
	default:
		return EL_UNKNOWN;
	}
}

/* Draw one field and the gap after it; returns the new x. */
static int
field(int y, int x, int end, int w, int attr, const char *s)
{
	if (x >= end)
		return x;
	draw_text(y, x, w < end - x ? w : end - x, attr, s);
	return x + w + 1;
}

/* Vendor names carry legal suffixes a technician never reads. */
void
short_ctrl_name(const char *in, char *out, size_t n)
{
	static const char *const drop[] = {
		" Technology Group Ltd.", " Corporation", ", Inc.", " Inc.", " Co., Ltd.", " Ltd.",
		" Semiconductor", " Electronics",
	};
	size_t k = 0;

	for (const char *p = in; *p && k + 1 < n;) {
		size_t i;

		for (i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
			if (strncmp(p, drop[i], strlen(drop[i])) == 0)
				break;
		if (i < sizeof(drop) / sizeof(drop[0])) {
			p += strlen(drop[i]);
			continue;
		}
		out[k++] = *p++;
	}
	out[k] = 0;
}

static void
draw_ctrl_row(struct ui *u, const struct controller *c, int y, int x, int w, bool sel)
{
	char link[96], ceil[32];
	int base = sel ? attr_of(EL_SELECTED) : attr_of(EL_TITLE);
	int end = x + w;

	if (sel)
		draw_fill(y, x, w, base);
	link_text(u, &c->link, link, sizeof(link));
	if (c->link.known && c->link.ceiling_mbps > 0)
		snprintf(ceil, sizeof(ceil), "ceiling %.0f MB/s", c->link.ceiling_mbps);
	else
		snprintf(ceil, sizeof(ceil), "ceiling ?");
	char name[160];

	short_ctrl_name(c->name[0] ? c->name : c->address, name, sizeof(name));
	/* The ceiling is the fact the line exists for: the name gives way
	 * (cut, marked), then the word "ceiling", never the figure. */
	int nw = w - 6 - text_width(link) - text_width(ceil) - 3;

	if (nw < 12 && strncmp(ceil, "ceiling ", 8) == 0) {
		memmove(ceil, ceil + 8, strlen(ceil + 8) + 1);
		nw += 8;
	}
	if (nw < 8)
		nw = 8;
	if (text_width(name) > nw) {
		const char *mark = u->utf8 ? "\u2026" : "~";
		size_t cut = 0;

		for (int col = 0; name[cut] && col < nw - 1; col++) {	/* UTF-8 aware */
			cut++;
			while ((name[cut] & 0xc0) == 0x80)
				cut++;
		}
		while (cut > 0 && name[cut - 1] == ' ')
			cut--;
		snprintf(name + cut, sizeof(name) - cut, "%s", mark);
	} else {
		nw = text_width(name);
	}
	x = field(y, x, end, 5, base, c->id);
	x = field(y, x, end, nw, base, name);
	x = field(y, x, end, text_width(link), sel ? base : attr_of(c->link.downgraded ? EL_WARN : EL_TEXT), link);
	field(y, x, end, text_width(ceil), sel ? base : attr_of(EL_DIM), ceil);
}

static const char *
smr_short(const struct drive *d)
{
	switch (d->smr.verdict) {
	case SMR_UNLIKELY:
		return "CMR?";	/* SMR unlikely: probably CMR, not proven */
	case SMR_POSSIBLE:
		return "SMR?";
	case SMR_LIKELY:
		return "SMR!";
	case SMR_ZONED:
		return "zoned";
	default:
		return "-";
	}
}

/* Drive columns, dropped from the end of this list when the panel is narrow. */
enum { C_CAP, C_FMT, C_RPM, C_TRIM, C_SMR, C_SMART, C_TEMP, C_N };
static const int col_w[C_N] = { 8, 4, 7, 4, 5, 8, 5 };
static const int drop_order[C_N] = { C_TEMP, C_TRIM, C_FMT, C_RPM, C_SMR, C_CAP, C_SMART };

static void
draw_drive_row(struct ui *u, const struct drive *d, int y, int x, int w, bool sel)
{
	char cap[16], rpm[16], temp[16];
	int base = sel ? attr_of(EL_SELECTED) : attr_of(EL_TEXT);
	int end = x + w;
	struct known_bool tr = trim_state(d);
	const struct nvme_health *nh = d->transport == TR_NVME ? &d->nvme.health : NULL;
	/* an NVMe drive: its health log stands in for SMART (the same column) */
	/* a SCSI drive: its log pages (informational exception, self-test) */
	const struct scsi_health *sh = drive_scsi_class(d) ? &d->scsi.health : NULL;
	bool sbad = sh && ((sh->ie_asc.known && (sh->ie_asc.v || sh->ie_ascq.v)) ||
			   (sh->selftest_failed.known && sh->selftest_failed.v));
	const char *smart = nh ? (!nh->known ? "SMART ?" :
				  nh->critical_warning.v ? "SMART !!" : "SMART ok") :
			    sh ? (!sh->known ? "SMART ?" : sbad ? "SMART !!" : "SMART ok") :
			    d->ata.state == ATA_PENDING ? "SMART .." :
			    d->ata.state == ATA_NO_ANSWER ? "no answr" :
			    d->ata.state == ATA_NOT_ATA ? "SMART -" :
			    !d->ata.smart.known ? "SMART ?" :
			    strcmp(d->ata.smart.overall, "good") == 0 ? "SMART ok" : "SMART !!";
	bool on[C_N];
	int fixed = 2 + 9;

	if (sel)
		draw_fill(y, x, w, base);
	if (d->capacity_bytes.known)
		fmt_bytes(cap, sizeof(cap), (double)d->capacity_bytes.v);
	else
		snprintf(cap, sizeof(cap), "?");
	rpm_text(d, rpm, sizeof(rpm));
	if (d->ata.smart.temperature_c.known)
		snprintf(temp, sizeof(temp), u->utf8 ? "%.0f\u00b0C" : "%.0fC", d->ata.smart.temperature_c.v);
	else if (nh && nh->temperature_c.known)
		snprintf(temp, sizeof(temp), u->utf8 ? "%lld\u00b0C" : "%lldC",
			 (long long)nh->temperature_c.v);
	else if (sh && sh->temperature_c.known)
		snprintf(temp, sizeof(temp), u->utf8 ? "%lld\u00b0C" : "%lldC",
			 (long long)sh->temperature_c.v);
	else
		snprintf(temp, sizeof(temp), "-");
	for (int c = 0; c < C_N; c++) {
		on[c] = true;
		fixed += col_w[c] + 1;
	}
	/* The model keeps at least 12 columns; facts go before it does. */
	for (int k = 0; k < C_N && w - fixed < 12; k++) {
		on[drop_order[k]] = false;
		fixed -= col_w[drop_order[k]] + 1;
	}
	int mw = w - fixed;

	if (mw > 30)
		mw = 30;
	x += 2;
	x = field(y, x, end, 8, sel ? base : attr_of(EL_MARK), d->name);
	x = field(y, x, end, mw, base, d->model[0] ? d->model : "?");
	if (on[C_CAP])
		x = field(y, x, end, col_w[C_CAP], base, cap);
	if (on[C_FMT])
		x = field(y, x, end, col_w[C_FMT], base, sector_text(d));
	if (on[C_RPM])
		x = field(y, x, end, col_w[C_RPM], base, rpm);
	if (on[C_TRIM])
		x = field(y, x, end, col_w[C_TRIM], sel ? base : attr_of(tr.v ? EL_TEXT : EL_DIM),
			  !tr.known ? "?" : tr.v ? "TRIM" : "-");
	if (on[C_SMR])
		x = field(y, x, end, col_w[C_SMR], sel ? base : attr_of(smr_el(d)), smr_short(d));
	if (on[C_SMART])
		x = field(y, x, end, col_w[C_SMART], sel ? base : attr_of(smart_el(d)), smart);
	if (on[C_TEMP])
		field(y, x, end, col_w[C_TEMP], base, temp);
}

void
panel_inventory_draw(struct ui *u, const struct rect *r)
{
	char title[128];
	int ih = r->h - 2;
	bool focus = u->focus == AR_INVENTORY;

	if (u->tree.filter[0])
		snprintf(title, sizeof(title), "Inventory [/%s]", u->tree.filter);
	else
		snprintf(title, sizeof(title), "Inventory");
	draw_box(u, r, title, focus);
	if (!u->inv || (!u->inv->n_drv && !u->inv->n_ctrl)) {
		draw_text(r->y + 1, r->x + 2, r->w - 4, attr_of(EL_DIM), "no drives found");
		return;
	}
	if (!u->tree.n_row) {
		draw_text(r->y + 1, r->x + 2, r->w - 4, attr_of(EL_DIM), "nothing matches the filter");
		return;
	}
	if (u->tree.sel < u->tree.top)
		u->tree.top = u->tree.sel;
	if (u->tree.sel >= u->tree.top + ih)
		u->tree.top = u->tree.sel - ih + 1;
	if (u->tree.top < 0)
		u->tree.top = 0;
	for (int i = 0; i < ih && u->tree.top + i < (int)u->tree.n_row; i++) {
		const struct inv_row *row = &u->tree.row[u->tree.top + i];
		int y = r->y + 1 + i;
		bool sel = u->tree.top + i == u->tree.sel;

		if (row->drive >= 0)
			draw_drive_row(u, &u->inv->drv[row->drive], y, r->x + 1, r->w - 2, sel);
		else if (row->ctrl >= 0)
			draw_ctrl_row(u, &u->inv->ctrl[row->ctrl], y, r->x + 1, r->w - 2, sel);
		else {
			if (sel)
				draw_fill(y, r->x + 1, r->w - 2, attr_of(EL_SELECTED));
			draw_text(y, r->x + 1, r->w - 2, attr_of(sel ? EL_SELECTED : EL_TITLE),
				  "other drives (no controller found)");
		}
	}
	if ((int)u->tree.n_row > ih)
		draw_textf(r->y + r->h - 1, r->x + r->w - 12, 10, attr_of(EL_DIM), " %d/%zu ",
			   u->tree.sel + 1, u->tree.n_row);
}

static int
move_sel(struct ui *u, int to)
{
	if (to < 0)
		to = 0;
	if (to >= (int)u->tree.n_row)
		to = (int)u->tree.n_row - 1;
	if (to < 0)
		to = 0;
	u->tree.sel = to;
	u->det.top = 0;
	return UI_HANDLED | UI_REDRAW;
}

int
panel_inventory_key(struct ui *u, enum action a, int ch)
{
	int page = u->lay.r[AR_INVENTORY].h - 3;

	switch (a) {
	case ACT_UP:
		return move_sel(u, u->tree.sel - 1);
	case ACT_DOWN:
		return move_sel(u, u->tree.sel + 1);
	case ACT_PGUP:
		return move_sel(u, u->tree.sel - page);
	case ACT_PGDN:
		return move_sel(u, u->tree.sel + page);
	case ACT_HOME:
		return move_sel(u, 0);
	case ACT_END:
		return move_sel(u, (int)u->tree.n_row - 1);
	case ACT_ENTER:
		/* Enter on a drive or controller: test it. */
		if (!u->be || !u->be->n_tests)
			return UI_HANDLED;
		picker_open(u);
		u->view = VIEW_PICKER;
		u->focus = AR_PICKER;
		return UI_HANDLED | UI_RELAYOUT | UI_REDRAW;
	default:
		return 0;
	}
}

int
panel_inventory_click(struct ui *u, const struct rect *r, int x, int y)
{
	int i = u->tree.top + (y - r->y - 1);

	if (y > r->y && y < r->y + r->h - 1 && i < (int)u->tree.n_row)
		move_sel(u, i);
	return UI_HANDLED | UI_REDRAW;
}
