/* targets.c (run) - what the user named, resolved into what is opened:
 * sdb -> /dev/sdb, ctrl:N -> its drives in port order with the link ceiling,
 * and a note when loop devices share one backing disk. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "run/test.h"
#include "inventory/facts.h"
#include "inventory/inventory.h"
#include "run/runner.h"
#include "util/util.h"

static int
port_cmp(const char *a, const char *b)
{
	/* natural order: ata2 before ata10 */
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			unsigned long x = strtoul(a, (char **)&a, 10), y = strtoul(b, (char **)&b, 10);
			if (x != y)
				return x < y ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++, b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static void
link_facts(struct plan *p, const struct controller *c)
{
	const struct pci_link *l = &c->link;
	snprintf(p->ctrl_name, sizeof(p->ctrl_name), "%s", c->name);
	if (!l->known || l->ceiling_mbps <= 0)
		return;
	KNOWN_SET(p->ceiling_mbps, l->ceiling_mbps);
	snprintf(p->ceiling_text, sizeof(p->ceiling_text), "x%u %gGT/s", l->sta_width, l->sta_gts);
	if (l->downgraded) {
		p->link_downgraded = true;
		if (l->sta_width < l->cap_width)
			snprintf(p->link_text, sizeof(p->link_text), "x%u (the card supports x%u)",
				 l->sta_width, l->cap_width);
		else
			snprintf(p->link_text, sizeof(p->link_text), "%gGT/s (the card supports %gGT/s)",
				 l->sta_gts, l->cap_gts);
	}
}

/* "N loop devices share one backing disk" when their backing files do. */
static void
shared_backing(struct plan *p)
{
	dev_t dev = 0;
	unsigned n = 0;
	for (size_t i = 0; i < p->targets.n; i++) {
		struct dev_facts f;
		struct stat st;
		char err[256];
		if (target_facts(p->targets.v[i], NULL, &f, err, sizeof(err)) || f.kind != DEV_LOOP ||
		    !f.backing[0] || stat(f.backing, &st))
			continue;
		if (n && st.st_dev != dev)
			return;
		dev = st.st_dev;
		n++;
	}
	if (n >= 2)
		snprintf(p->shared_note, sizeof(p->shared_note),
			 "the %u loop devices share one backing disk", n);
}

int
plan_resolve_targets(struct plan *p, const struct inventory_opts *g, char *err, size_t errlen)
{
	return plan_resolve_targets_in(p, NULL, g, err, errlen);
}

/* What the user's names resolve to, in the order named (a ctrl: or all
 * adds several); the ceiling's controller as the names come in. */
struct targets_pick {
	char path[256];
	char port[48];
};
struct targets_resolve {
	struct plan *p;
	struct inventory *inv;
	bool have_inv;
	int ctrl_seen;	/* the one controller all drives sit on; -1 mixed/none; -2 none yet */
	struct targets_pick *v;
	size_t nv;
	char *err;
	size_t errlen;
};

/* /dev/NAME into dev, and whether it is a block device. */
static bool
targets_dev_block(const char *s, char *dev, size_t n)
{
	struct stat st;
	snprintf(dev, n, "/dev/%s", s);
	return !stat(dev, &st) && S_ISBLK(st.st_mode);
}

static const char *
targets_inv_hint(const struct targets_resolve *R)
{
	return R->have_inv ? " (see diskscope list)" : " (the inventory could not be read)";
}

static void
targets_pick_add(struct targets_resolve *R, const char *path, const char *port)
{
	snprintf(R->v[R->nv].path, sizeof(R->v[R->nv].path), "%s", path);
	snprintf(R->v[R->nv].port, sizeof(R->v[R->nv].port), "%s", port);
	R->nv++;
}

/* The inventory gives drive identity (model, serial), ports and links;
 * directories do not need it.  A sim: name needs it too: "sim:sim0" is
 * the demo rig's drive with its own model and serial, whoever names it
 * (the picker names drives by path, a user by name). */
static bool
targets_need_inventory(const struct plan *p, const struct inventory *given)
{
	bool need_inv = (p->test && p->test->by_port) || given;
	for (size_t i = 0; i < p->user_targets.n; i++) {
		const char *s = p->user_targets.v[i];
		struct stat st;
		char dev[256];
		if (!strncmp(s, "ctrl", 4) || (!stat(s, &st) && S_ISBLK(st.st_mode)) ||
		    (!strchr(s, '/') && targets_dev_block(s, dev, sizeof(dev))))
			need_inv = true;
		/* a serial, a WWN, a sim drive's name: only the inventory knows */
		else if (dev_spec_simulated(s, NULL) || (s[0] != '/' && s[0] != '.' &&
			 (stat(s, &st) || !S_ISDIR(st.st_mode))))
			need_inv = true;
	}
	return need_inv;
}

/* ctrl:N: its drives in the inventory's order, and its link as the ceiling. */
static int
targets_add_ctrl(struct targets_resolve *R, const char *s)
{
	struct inventory *inv = R->inv;
	int c = R->have_inv ? inventory_find_controller(inv, s) : -1;
	if (c < 0) {
		snprintf(R->err, R->errlen, "unknown controller '%s'%s", s, targets_inv_hint(R));
		return -ENOENT;
	}
	const struct controller *ct = &inv->ctrl[c];
	if (!ct->drives.n) {
		snprintf(R->err, R->errlen, "controller '%s' has no drives", s);
		return -ENOENT;
	}
	link_facts(R->p, ct);
	R->ctrl_seen = R->ctrl_seen == -2 || R->ctrl_seen == c ? c : -1;
	for (size_t k = 0; k < ct->drives.n && R->nv < PLAN_MAX_TARGETS; k++) {
		struct drive *d = inventory_find_drive(inv, ct->drives.v[k]);
		targets_pick_add(R, d ? d->path : ct->drives.v[k], d ? d->port : "");
	}
	return 0;
}

/* all: every drive the guard lets us read (triage). */
static int
targets_add_all(struct targets_resolve *R)
{
	struct inventory *inv = R->inv;
	size_t n0 = R->nv;
	int rc = 0;
	for (size_t k = 0; R->have_inv && k < inv->n_drv && R->nv < PLAN_MAX_TARGETS; k++)
		if (drive_testable(&inv->drv[k], NULL))
			targets_pick_add(R, inv->drv[k].path, inv->drv[k].port);
	if (R->nv == n0) {
		snprintf(R->err, R->errlen, "all: no drive that can be read%s", targets_inv_hint(R));
		rc = -ENOENT;
	}
	R->ctrl_seen = -1;
	return rc;
}

/* One name: a drive the inventory shows, a path, sim:MODEL, a kernel name
 * or a directory; its port and controller from the inventory. */
static int
targets_add_named(struct targets_resolve *R, const char *s)
{
	struct inventory *inv = R->inv;
	struct targets_pick *v = R->v;
	size_t nv = R->nv;
	struct stat st;
	if (nv >= PLAN_MAX_TARGETS) {
		snprintf(R->err, R->errlen, "too many targets (at most %d)", PLAN_MAX_TARGETS);
		return -E2BIG;
	}
	/* a name the inventory shows (kernel name, serial, WWN, by-id
	 * link, sim drive) becomes that drive's own path */
	struct drive *named = R->have_inv ? inventory_match_drive(inv, s) : NULL;
	if (named && (!stat(s, &st) ? S_ISBLK(st.st_mode) : true)) {
		snprintf(v[nv].path, sizeof(v[nv].path), "%s", named->path);
	} else if (dev_spec_simulated(s, NULL) || s[0] == '/' || s[0] == '.') {
		if (!dev_spec_simulated(s, NULL) && stat(s, &st)) {
			snprintf(R->err, R->errlen, "target '%s': %s", s, strerror(errno));
			return -ENOENT;
		}
		snprintf(v[nv].path, sizeof(v[nv].path), "%s", s);
	} else {
		char dev[256];
		if (targets_dev_block(s, dev, sizeof(dev)))
			snprintf(v[nv].path, sizeof(v[nv].path), "%s", dev);
		else if (!stat(s, &st) && S_ISDIR(st.st_mode))
			snprintf(v[nv].path, sizeof(v[nv].path), "%s", s);
		else {
			snprintf(R->err, R->errlen, "unknown target '%s': not a drive `diskscope list` "
				 "shows (name, serial, WWN, /dev/disk/by-id/...), a directory, "
				 "sim:MODEL or ctrl:N", s);
			return -ENOENT;
		}
	}
	v[nv].port[0] = 0;
	if (R->have_inv) {
		struct drive *d = inventory_find_drive(inv, v[nv].path);
		if (d) {
			snprintf(v[nv].port, sizeof(v[nv].port), "%s", d->port);
			R->ctrl_seen = d->controller >= 0 && (R->ctrl_seen == -2 || R->ctrl_seen == d->controller)
				? d->controller : -1;
			if (R->ctrl_seen >= 0 && !R->p->ceiling_mbps.known)
				link_facts(R->p, &inv->ctrl[R->ctrl_seen]);
		} else {
			R->ctrl_seen = -1;
		}
	}
	R->nv++;
	return 0;
}

/* A test by port: steps in port order where every drive's port is known. */
static void
targets_sort_by_port(struct targets_pick *v, size_t nv)
{
	bool all = nv > 0;
	for (size_t i = 0; i < nv; i++)
		all &= v[i].port[0] != 0;
	if (all)
		for (size_t i = 1; i < nv; i++)
			for (size_t j = i; j > 0 && port_cmp(v[j - 1].port, v[j].port) > 0; j--) {
				struct targets_pick tmp = v[j];
				v[j] = v[j - 1];
				v[j - 1] = tmp;
			}
}

/* The drive's identity as the run records it beside its target. */
static void
targets_fill_ident(struct target_ident *id, const struct drive *d, const struct inventory *inv)
{
	strtrimcpy(id->drive_id, sizeof(id->drive_id), d->id);
	strtrimcpy(id->model, sizeof(id->model), d->model);
	strtrimcpy(id->serial, sizeof(id->serial), d->serial);
	strtrimcpy(id->wwn, sizeof(id->wwn), d->wwn);
	strtrimcpy(id->firmware, sizeof(id->firmware), d->firmware);
	id->capacity = (struct known_u64){ d->capacity_bytes.known, d->capacity_bytes.v };
	id->logical = (struct known_u64){ d->logical.known, d->logical.v };
	id->physical = (struct known_u64){ d->physical.known, d->physical.v };
	strtrimcpy(id->sector_source, sizeof(id->sector_source), d->sector_source);
	if (d->controller >= 0 && (size_t)d->controller < inv->n_ctrl)
		strtrimcpy(id->controller, sizeof(id->controller), inv->ctrl[d->controller].address);
	strtrimcpy(id->port, sizeof(id->port), d->port);
}

/* The picks into the plan's targets (each once) with their identity. */
static int
targets_commit(struct targets_resolve *R)
{
	struct plan *p = R->p;
	int rc = 0;
	for (size_t i = 0; !rc && i < R->nv; i++) {
		struct drive *d = R->have_inv ? inventory_find_drive(R->inv, R->v[i].path) : NULL;
		if (d)
			targets_fill_ident(&p->ident[p->targets.n], d, R->inv);
		if (strlist_has(&p->targets, R->v[i].path)) {
			snprintf(R->err, R->errlen, "target '%s' named twice", R->v[i].path);
			rc = -EINVAL;
		} else if (strlist_add(&p->targets, R->v[i].path))
			rc = -ENOMEM;
	}
	return rc;
}

int
plan_resolve_targets_in(struct plan *p, struct inventory *given, const struct inventory_opts *g,
			char *err, size_t errlen)
{
	bool need_inv = targets_need_inventory(p, given);
	struct inventory own = { 0 };
	struct targets_resolve R = { .p = p, .inv = given ? given : &own, .have_inv = given != NULL,
				     .ctrl_seen = -2, .err = err, .errlen = errlen };
	if (need_inv && !given) {
		struct inventory_opts io;
		if (g)
			io = *g;
		else
			inventory_opts_default(&io);
		io.no_ata = true;
		R.have_inv = inventory_scan(&own, &io) == 0;
	}
	int rc = 0;
	R.v = calloc(PLAN_MAX_TARGETS, sizeof(*R.v));
	if (!R.v) {
		inventory_free(&own);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->user_targets.n && !rc; i++) {
		const char *s = p->user_targets.v[i];
		if (!strncmp(s, "ctrl", 4))
			rc = targets_add_ctrl(&R, s);
		else if (!strcmp(s, "all"))
			rc = targets_add_all(&R);
		else
			rc = targets_add_named(&R, s);
	}
	if (!rc && R.ctrl_seen == -1) {	/* drives on different controllers: no one ceiling */
		KNOWN_CLEAR(p->ceiling_mbps);
		p->ceiling_text[0] = 0;
		p->link_downgraded = false;
	}
	if (!rc && need_inv && p->test && p->test->by_port)
		targets_sort_by_port(R.v, R.nv);
	if (!rc)
		rc = targets_commit(&R);
	free(R.v);
	inventory_free(&own);	/* also a partly filled one when the scan failed */
	if (!rc)
		shared_backing(p);
	return rc;
}
