/* triage.h - the triage test's inventory and SMART snapshots
 * (triage-smart.c), taken before and after its reads. */
#ifndef DS_TRIAGE_H
#define DS_TRIAGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bench/bench.h"

/* The SMART attributes that predict failure: reallocated, reported
 * uncorrectable, command timeout, reallocation events, pending,
 * offline uncorrectable, UDMA CRC errors (the cable). */
#define TRI_SMART_N 7
extern const uint8_t triage_smart_ids[TRI_SMART_N];

struct tri_snap {
	bool taken;			/* a snapshot was attempted */
	bool found;			/* the inventory shows this drive */
	bool smart;			/* SMART was read */
	char reason[192];		/* why not (!found or !smart) */
	char overall[32];		/* libatasmart's overall, "" unknown */
	bool temp_known;
	double temp_c;
	struct known_u64 attr[TRI_SMART_N];	/* raw values, triage_smart_ids order */
	bool link_low;			/* a link trained below what it could */
	struct strlist checks;		/* inventory checks, one sentence each */
};

/* One inventory scan (ATA queries on; the sim rig in use when a target is
 * simulated): a snapshot per target into out[n].  0 / -errno (every
 * snapshot then says why). */
int triage_snapshot(const struct plan *p, const struct target *tg, size_t n, struct tri_snap *out);
void triage_snap_free(struct tri_snap *s);
#endif
