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

int
plan_resolve_targets_in(struct plan *p, struct inventory *given, const struct inventory_opts *g,
			char *err, size_t errlen)
{
	/* the inventory gives drive identity (model, serial), ports and links;
	 * directories do not need it.  A sim: name needs it too: "sim:sim0" is
	 * the demo rig's drive with its own model and serial, whoever names it
	 * (the picker names drives by path, a user by name). */
	bool need_inv = (p->test && p->test->by_port) || given;
	for (size_t i = 0; i < p->user_targets.n; i++) {
		const char *s = p->user_targets.v[i];
		struct stat st;
		char dev[256];
		snprintf(dev, sizeof(dev), "/dev/%s", s);
		if (!strncmp(s, "ctrl", 4) || (!stat(s, &st) && S_ISBLK(st.st_mode)) ||
		    (!strchr(s, '/') && !stat(dev, &st) && S_ISBLK(st.st_mode)))
			need_inv = true;
		/* a serial, a WWN, a sim drive's name: only the inventory knows */
		else if (dev_spec_simulated(s, NULL) || (s[0] != '/' && s[0] != '.' &&
			 (stat(s, &st) || !S_ISDIR(st.st_mode))))
			need_inv = true;
	}
	struct inventory own = { 0 }, *inv = given ? given : &own;
	bool have_inv = given != NULL;
	if (need_inv && !given) {
		struct inventory_opts io;
		if (g)
			io = *g;
		else
			inventory_opts_default(&io);
		io.no_ata = true;
		have_inv = inventory_scan(&own, &io) == 0;
	}
	int rc = 0;
	int ctrl_seen = -2;	/* the one controller all drives sit on; -1 mixed/none */
	struct { char path[256]; char port[48]; } *v = calloc(PLAN_MAX_TARGETS, sizeof(*v));
	size_t nv = 0;
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->user_targets.n && !rc; i++) {
		const char *s = p->user_targets.v[i];
		struct stat st;
		if (!strncmp(s, "ctrl", 4)) {
			int c = have_inv ? inventory_find_controller(inv, s) : -1;
			if (c < 0) {
				snprintf(err, errlen, "unknown controller '%s'%s", s,
					 have_inv ? " (see diskscope list)" : " (the inventory could not be read)");
				rc = -ENOENT;
				break;
			}
			const struct controller *ct = &inv->ctrl[c];
			if (!ct->drives.n) {
				snprintf(err, errlen, "controller '%s' has no drives", s);
				rc = -ENOENT;
				break;
			}
			link_facts(p, ct);
			ctrl_seen = ctrl_seen == -2 || ctrl_seen == c ? c : -1;
			for (size_t k = 0; k < ct->drives.n && nv < PLAN_MAX_TARGETS; k++) {
				struct drive *d = inventory_find_drive(inv, ct->drives.v[k]);
				snprintf(v[nv].path, sizeof(v[nv].path), "%s", d ? d->path : ct->drives.v[k]);
				snprintf(v[nv].port, sizeof(v[nv].port), "%s", d ? d->port : "");
				nv++;
			}
			continue;
		}
		if (!strcmp(s, "all")) {	/* every drive the guard lets us read (triage) */
			size_t n0 = nv;
			for (size_t k = 0; have_inv && k < inv->n_drv && nv < PLAN_MAX_TARGETS; k++)
				if (drive_testable(&inv->drv[k], NULL)) {
					snprintf(v[nv].path, sizeof(v[nv].path), "%s", inv->drv[k].path);
					snprintf(v[nv].port, sizeof(v[nv].port), "%s", inv->drv[k].port);
					nv++;
				}
			if (nv == n0) {
				snprintf(err, errlen, "all: no drive that can be read%s",
					 have_inv ? " (see diskscope list)" : " (the inventory could not be read)");
				rc = -ENOENT;
			}
			ctrl_seen = -1;
			continue;
		}
		if (nv >= PLAN_MAX_TARGETS) {
			snprintf(err, errlen, "too many targets (at most %d)", PLAN_MAX_TARGETS);
			rc = -E2BIG;
			break;
		}
		/* a name the inventory shows (kernel name, serial, WWN, by-id
		 * link, sim drive) becomes that drive's own path */
		struct drive *named = have_inv ? inventory_match_drive(inv, s) : NULL;
		if (named && (!stat(s, &st) ? S_ISBLK(st.st_mode) : true)) {
			snprintf(v[nv].path, sizeof(v[nv].path), "%s", named->path);
		} else if (dev_spec_simulated(s, NULL) || s[0] == '/' || s[0] == '.') {
			if (!dev_spec_simulated(s, NULL) && stat(s, &st)) {
				snprintf(err, errlen, "target '%s': %s", s, strerror(errno));
				rc = -ENOENT;
				break;
			}
			snprintf(v[nv].path, sizeof(v[nv].path), "%s", s);
		} else {
			char dev[256];
			snprintf(dev, sizeof(dev), "/dev/%s", s);
			if (!stat(dev, &st) && S_ISBLK(st.st_mode))
				snprintf(v[nv].path, sizeof(v[nv].path), "%s", dev);
			else if (!stat(s, &st) && S_ISDIR(st.st_mode))
				snprintf(v[nv].path, sizeof(v[nv].path), "%s", s);
			else {
				snprintf(err, errlen, "unknown target '%s': not a drive `diskscope list` "
					 "shows (name, serial, WWN, /dev/disk/by-id/...), a directory, "
					 "sim:MODEL or ctrl:N", s);
				rc = -ENOENT;
				break;
			}
		}
		v[nv].port[0] = 0;
		if (have_inv) {
			struct drive *d = inventory_find_drive(inv, v[nv].path);
			if (d) {
				snprintf(v[nv].port, sizeof(v[nv].port), "%s", d->port);
				ctrl_seen = d->controller >= 0 && (ctrl_seen == -2 || ctrl_seen == d->controller)
					? d->controller : -1;
				if (ctrl_seen >= 0 && !p->ceiling_mbps.known)
					link_facts(p, &inv->ctrl[ctrl_seen]);
			} else {
				ctrl_seen = -1;
			}
		}
		nv++;
	}
	if (!rc && ctrl_seen == -1) {	/* drives on different controllers: no one ceiling */
		KNOWN_CLEAR(p->ceiling_mbps);
		p->ceiling_text[0] = 0;
		p->link_downgraded = false;
	}
	/* a test by port: steps in port order where every drive's port is known */
	if (!rc && need_inv && p->test && p->test->by_port) {
		bool all = nv > 0;
		for (size_t i = 0; i < nv; i++)
			all &= v[i].port[0] != 0;
		if (all)
			for (size_t i = 1; i < nv; i++)
				for (size_t j = i; j > 0 && port_cmp(v[j - 1].port, v[j].port) > 0; j--) {
					char tmp[sizeof(*v)];
					memcpy(tmp, &v[j], sizeof(*v));
					memcpy(&v[j], &v[j - 1], sizeof(*v));
					memcpy(&v[j - 1], tmp, sizeof(*v));
				}
	}
	for (size_t i = 0; !rc && i < nv; i++) {
		struct drive *d = have_inv ? inventory_find_drive(inv, v[i].path) : NULL;
		if (d) {
			struct target_ident *id = &p->ident[p->targets.n];
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
		if (strlist_has(&p->targets, v[i].path)) {
			snprintf(err, errlen, "target '%s' named twice", v[i].path);
			rc = -EINVAL;
		} else if (strlist_add(&p->targets, v[i].path))
			rc = -ENOMEM;
	}
	free(v);
	inventory_free(&own);	/* also a partly filled one when the scan failed */
	if (!rc)
		shared_backing(p);
	return rc;
}

