/* rig.c - *.hba (controller models) and *.rig (which drives sit on which
 * controller) files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sim/ini.h"
#include "sim/model.h"
#include "util/util.h"

#define HOFF(f) offsetof(struct sim_hba_model, f)
#define HSZ(f) sizeof(((struct sim_hba_model *)0)->f)

static const struct sim_key hba_keys[] = {
	{ "controller", "title", SK_STR, HOFF(title), HSZ(title), 0, 0, true, false },
	{ "controller", "vendor_id", SK_HEX16, HOFF(vendor_id), 0, 0, 0, true, false },
	{ "controller", "device_id", SK_HEX16, HOFF(device_id), 0, 0, 0, true, false },
	{ "controller", "class", SK_HEX32, HOFF(class_code), 0, 0, 0, true, false },
	{ "controller", "class_name", SK_STR, HOFF(class_name), HSZ(class_name), 0, 0, true, false },
	{ "controller", "driver", SK_STR, HOFF(driver), HSZ(driver), 0, 0, true, false },
	{ "controller", "ports", SK_U32, HOFF(ports), 0, 1, SIM_MAX_PORTS, true, false },
	{ "link", "cap", SK_CUSTOM, 0, 0, 0, 0, true, false },
	{ "link", "status", SK_CUSTOM, 0, 0, 0, 0, false, false },
	{ "limits", "chip_mbps", SK_DBL, HOFF(chip_mbps), 0, 1, 1e6, false, false },
	{ "limits", "port_mbps", SK_DBL, HOFF(port_mbps), 0, 1, 1e6, true, false },
	{ "limits", "scaling", SK_CUSTOM, HOFF(scaling), 0, 0, 0, false, false },
};

/* "5 x8" (GT/s and lanes) or "none" (onboard: no PCIe link). */
static int
parse_link(const char *v, bool *has, double *gts, unsigned *width, char *msg, size_t ml,
	   const char *key)
{
	if (strcasecmp(v, "none") == 0) {
		*has = false;
		return 0;
	}
	char buf[64];
	snprintf(buf, sizeof buf, "%s", v);
	char *x = strchr(buf, 'x');
	uint64_t w;
	double g;
	if (x)
		*x = '\0';
	if (!x || sim_parse_dbl(buf, &g) || sim_parse_u64(x + 1, &w)) {
		snprintf(msg, ml, "%s: '%s' is not 'GT/s xWIDTH' (e.g. 5 x8) or none", key, v);
		return -EINVAL;
	}
	static const double speeds[] = { 2.5, 5, 8, 16, 32, 64 };
	bool ok = false;
	for (size_t i = 0; i < ARRAY_SIZE(speeds); i++)
		ok |= g == speeds[i];
	if (!ok || (w != 1 && w != 2 && w != 4 && w != 8 && w != 12 && w != 16 && w != 32)) {
		snprintf(msg, ml, "%s: %s is not a PCIe speed (2.5..64 GT/s) and width (x1..x32)",
			 key, v);
		return -EINVAL;
	}
	*has = true;
	*gts = g;
	*width = (unsigned)w;
	return 0;
}

static int
hba_custom(struct sim_ini *p, const struct sim_key *k, const char *v, char *msg, size_t ml)
{
	struct sim_hba_model *m = p->obj;
	if (strcmp(k->name, "cap") == 0)
		return parse_link(v, &m->has_link, &m->cap_gts, &m->cap_width, msg, ml, "cap");
	if (strcmp(k->name, "status") == 0) {
		bool has;
		int r = parse_link(v, &has, &m->sta_gts, &m->sta_width, msg, ml, "status");
		if (!r && !has) {
			snprintf(msg, ml, "status: 'none' only goes with cap = none");
			return -EINVAL;
		}
		return r;
	}
	/* scaling: efficiency with 1, 2, ... drives streaming */
	char buf[256];
	snprintf(buf, sizeof buf, "%s", v);
	m->n_scaling = 0;
	for (char *save, *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
		double e;
		if (sim_parse_dbl(t, &e) || e <= 0 || e > 1.5) {
			snprintf(msg, ml, "scaling: '%s' is not an efficiency in (0, 1.5]", t);
			return -EINVAL;
		}
		if (m->n_scaling == SIM_MAX_SCALING) {
			snprintf(msg, ml, "scaling: more than %d values", SIM_MAX_SCALING);
			return -EINVAL;
		}
		m->scaling[m->n_scaling++] = e;
	}
	if (!m->n_scaling) {
		snprintf(msg, ml, "scaling: empty");
		return -EINVAL;
	}
	return 0;
}

int
sim_hba_parse(const char *text, const char *file, struct sim_hba_model *out, char *err,
	      size_t errlen)
{
	struct sim_hba_model m = { 0 };
	struct sim_ini p = { .file = file, .keys = hba_keys, .n_keys = ARRAY_SIZE(hba_keys),
			     .obj = &m, .custom = hba_custom };
	int r = sim_ini_run(&p, text);
	if (!r && m.has_link && !sim_ini_seen(&p, "status")) {
		m.sta_gts = m.cap_gts;
		m.sta_width = m.cap_width;
	}
	if (!r && !m.has_link && sim_ini_seen(&p, "status"))
		sim_ini_fail(&p, sim_ini_line(&p, "status"), "status: set, but cap = none"), r = -EINVAL;
	if (!r && m.has_link && (m.sta_gts > m.cap_gts || m.sta_width > m.cap_width))
		sim_ini_fail(&p, sim_ini_line(&p, "status"),
			     "status: %g GT/s x%u is above the capability %g GT/s x%u", m.sta_gts,
			     m.sta_width, m.cap_gts, m.cap_width), r = -EINVAL;
	if (!r && m.n_scaling > m.ports)
		sim_ini_fail(&p, sim_ini_line(&p, "scaling"),
			     "scaling: %zu values for %u ports", m.n_scaling, m.ports), r = -EINVAL;
	if (r) {
		snprintf(err, errlen, "%s", p.err);
		return r;
	}
	sim_basename(file, m.name, sizeof m.name);
	snprintf(m.file, sizeof m.file, "%s", file);
	*out = m;
	return 0;
}

/* ---- rigs ---- */

struct rig_state {
	struct sim_rig r;
	int cur_section;		/* p->n_sections of the current [controller] */
	int hba_line[16];
	int drive_line[16][SIM_MAX_PORTS];
	int ctrl_line[16];
};

#define ROFF(f) offsetof(struct sim_rig, f)

static const struct sim_key rig_keys[] = {
	{ "rig", "name", SK_STR, ROFF(name), sizeof(((struct sim_rig *)0)->name), 0, 0, false, false },
	{ "controller", "hba", SK_CUSTOM, 0, 0, 0, 0, true, true },
	{ "controller", "bus", SK_CUSTOM, 0, 0, 0, 0, false, true },
	{ "controller", "drive", SK_CUSTOM, 0, 0, 0, 0, false, true },
};

static int
rig_custom(struct sim_ini *p, const struct sim_key *k, const char *v, char *msg, size_t ml)
{
	struct rig_state *s = p->user;
	struct sim_rig *r = &s->r;
	if (s->cur_section != p->n_sections) {
		if (r->n_ctrl == ARRAY_SIZE(r->ctrl)) {
			snprintf(msg, ml, "more than %zu controllers", ARRAY_SIZE(r->ctrl));
			return -EINVAL;
		}
		s->cur_section = p->n_sections;
		s->ctrl_line[r->n_ctrl] = p->section_line;
		r->ctrl[r->n_ctrl].bus = (unsigned)r->n_ctrl + 1;
		r->n_ctrl++;
	}
	if (!r->n_ctrl) {	/* cannot happen with the reader's section count; be sure */
		snprintf(msg, ml, "'%s' outside a [controller] section", k->name);
		return -EINVAL;
	}
	size_t ci = r->n_ctrl - 1;
	struct sim_rig_ctrl *c = &r->ctrl[ci];
	if (strcmp(k->name, "hba") == 0) {
		if (s->hba_line[ci]) {
			snprintf(msg, ml, "duplicate key 'hba' (first on line %d)", s->hba_line[ci]);
			return -EINVAL;
		}
		if (strlen(v) >= sizeof c->hba) {
			snprintf(msg, ml, "hba: name too long");
			return -EINVAL;
		}
		s->hba_line[ci] = p->line;
		snprintf(c->hba, sizeof c->hba, "%s", v);
		return 0;
	}
	if (strcmp(k->name, "bus") == 0) {
		uint64_t b;
		if (sim_parse_u64(v, &b) || b > 255) {
			snprintf(msg, ml, "bus: '%s' is not a PCI bus number (0..255)", v);
			return -EINVAL;
		}
		c->bus = (unsigned)b;
		return 0;
	}
	if (c->n_drives == SIM_MAX_PORTS || strlen(v) >= sizeof c->drives[0]) {
		snprintf(msg, ml, "drive: too many drives or name too long");
		return -EINVAL;
	}
	s->drive_line[ci][c->n_drives] = p->line;
	snprintf(c->drives[c->n_drives++], sizeof c->drives[0], "%s", v);
	return 0;
}

int
sim_rig_parse(const char *text, const char *file, struct sim_rig *out, char *err, size_t errlen)
{
	struct rig_state *s = calloc(1, sizeof *s);
	if (!s)
		return -ENOMEM;
	struct sim_ini p = { .file = file, .keys = rig_keys, .n_keys = ARRAY_SIZE(rig_keys),
			     .obj = &s->r, .custom = rig_custom, .user = s,
			     .repeat_section = "controller" };
	int r = sim_ini_run(&p, text);
	struct sim_rig *rig = &s->r;
	for (size_t i = 0; !r && i < rig->n_ctrl; i++) {
		struct sim_rig_ctrl *c = &rig->ctrl[i];
		const struct sim_hba_model *h = c->hba[0] ? sim_find_hba_model(c->hba) : NULL;
		if (!c->hba[0]) {
			sim_ini_fail(&p, s->ctrl_line[i], "[controller] without 'hba'");
			r = -EINVAL;
		} else if (!h) {
			sim_ini_fail(&p, s->hba_line[i], "hba: no controller model '%s'", c->hba);
			r = -EINVAL;
		} else if (c->n_drives > h->ports) {
			sim_ini_fail(&p, s->drive_line[i][h->ports], "drive: %s has only %u ports",
				     c->hba, h->ports);
			r = -EINVAL;
		}
		for (size_t j = 0; !r && j < c->n_drives; j++)
			if (!sim_find_drive_model(c->drives[j])) {
				sim_ini_fail(&p, s->drive_line[i][j], "drive: no drive model '%s'",
					     c->drives[j]);
				r = -EINVAL;
			}
		for (size_t j = 0; !r && j < i; j++)
			if (rig->ctrl[j].bus == c->bus) {
				sim_ini_fail(&p, s->ctrl_line[i], "bus %u used twice", c->bus);
				r = -EINVAL;
			}
	}
	if (!r && !rig->n_ctrl) {
		sim_ini_fail(&p, p.line, "no [controller] in the rig");
		r = -EINVAL;
	}
	if (r) {
		snprintf(err, errlen, "%s", p.err);
	} else {
		*out = *rig;
		if (!out->name[0])
			sim_basename(file, out->name, sizeof out->name);
		snprintf(out->file, sizeof out->file, "%s", file);
	}
	free(s);
	return r;
}
