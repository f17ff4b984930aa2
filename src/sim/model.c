/* model.c - *.drive files: the key table, validation, and the registry of
 * drive and controller models (built-in ones are embedded in the binary). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sim/ini.h"
#include "sim/model.h"
#include "util/embedded.h"
#include "util/util.h"

#define OFF(f) offsetof(struct sim_drive_model, f)
#define SZ(f) sizeof(((struct sim_drive_model *)0)->f)
#define BIG 1e18

/* Raw [smr] and region values before they are converted to bytes. */
struct drive_raw {
	struct sim_drive_model m;
	uint64_t cache_mib, band_mib, cache_used_mib;
	int region_line[2][SIM_MAX_REGIONS];
};

static const struct sim_key drive_keys[] = {
	{ "drive", "model", SK_STR, OFF(model), SZ(model), 0, 0, true, false },
	{ "drive", "serial", SK_STR, OFF(serial), SZ(serial), 0, 0, true, false },
	{ "drive", "firmware", SK_STR, OFF(firmware), SZ(firmware), 0, 0, true, false },
	{ "drive", "capacity", SK_U64, OFF(capacity), 0, 1048576, 1e15, true, false },
	{ "drive", "logical", SK_U32, OFF(logical), 0, 512, 4096, true, false },
	{ "drive", "physical", SK_U32, OFF(physical), 0, 512, 65536, true, false },
	{ "drive", "rpm", SK_U32, OFF(rpm), 0, 3600, 20000, false, false },
	{ "drive", "ssd", SK_BOOL, OFF(ssd), 0, 0, 0, false, false },
	{ "performance", "rate", SK_CUSTOM, OFF(curve), 0, 0, 0, true, false },
	{ "performance", "write_factor", SK_DBL, OFF(write_factor), 0, 0.05, 2, false, false },
	{ "performance", "access_ms", SK_DBL, OFF(access_ms), 0, 0.001, 100, true, false },
	{ "performance", "track_seek_ms", SK_DBL, OFF(track_seek_ms), 0, 0, 20, false, false },
	{ "performance", "burst_mbps", SK_DBL, OFF(burst_mbps), 0, 1, 100000, true, false },
	{ "performance", "buffer_mib", SK_U32, OFF(buffer_mib), 0, 0, 4096, false, false },
	{ "performance", "write_cmd_us", SK_DBL, OFF(write_cmd_us), 0, 0, 100000, false, false },
	{ "performance", "ncq_gain", SK_DBL, OFF(ncq_gain), 0, 1, 64, false, false },
	{ "performance", "af_rmw_us", SK_DBL, OFF(af_rmw_us), 0, 0, 1000000, false, false },
	{ "performance", "jitter", SK_DBL, OFF(jitter), 0, 0, 0.2, false, false },
	{ "smr", "cache_mib", SK_U64, offsetof(struct drive_raw, cache_mib), 0, 1, 1e9, true, false },
	{ "smr", "band_mib", SK_U64, offsetof(struct drive_raw, band_mib), 0, 1, 65536, true, false },
	{ "smr", "cache_write_mbps", SK_DBL, OFF(cache_write_mbps), 0, 0.1, 100000, true, false },
	{ "smr", "clean_mbps", SK_DBL, OFF(clean_mbps), 0, 0.1, 100000, true, false },
	{ "smr", "trim_clean_mbps", SK_DBL, OFF(trim_clean_mbps), 0, 0.1, 100000, false, false },
	{ "smr", "idle_clean_mbps", SK_DBL, OFF(idle_clean_mbps), 0, 0.1, 100000, false, false },
	{ "smr", "cache_used_mib", SK_U64, offsetof(struct drive_raw, cache_used_mib), 0, 0, 1e9, false, false },
	{ "flaws", "slow", SK_CUSTOM, OFF(slow), 0, 0, 0, false, true },
	{ "flaws", "unreadable", SK_CUSTOM, OFF(bad), 0, 0, 0, false, true },
	{ "flaws", "error_ms", SK_DBL, OFF(error_ms), 0, 0, 120000, false, false },
	{ "identify", "trim", SK_BOOL, OFF(trim), 0, 0, 0, false, false },
	{ "identify", "trim_deterministic", SK_BOOL, OFF(trim_deterministic), 0, 0, 0, false, false },
	{ "identify", "trim_zeroed", SK_BOOL, OFF(trim_zeroed), 0, 0, 0, false, false },
	{ "identify", "zoned", SK_CUSTOM, OFF(zoned), 0, 0, 0, false, false },
	{ "identify", "ncq_depth", SK_U32, OFF(ncq_depth), 0, 0, 32, false, false },
	{ "identify", "sata_max_gbps", SK_CUSTOM, OFF(sata_max_gbps), 0, 0, 0, false, false },
	{ "identify", "sata_cur_gbps", SK_CUSTOM, OFF(sata_cur_gbps), 0, 0, 0, false, false },
	{ "identify", "physical_reported", SK_U32, OFF(physical_reported), 0, 512, 65536, false, false },
	{ "identify", "sector_sizes_reported", SK_BOOL, OFF(sector_sizes_reported), 0, 0, 0, false, false },
	{ "identify", "alignment_offset", SK_U32, OFF(align_offset), 0, 0, 65536, false, false },
	{ "smart", "temperature_c", SK_DBL, OFF(temperature_c), 0, -40, 125, false, false },
	{ "smart", "power_on_hours", SK_U64, OFF(power_on_hours), 0, 0, 1e7, false, false },
	{ "smart", "reallocated", SK_U64, OFF(reallocated), 0, 0, 1e9, false, false },
	{ "smart", "pending", SK_U64, OFF(pending), 0, 0, 1e9, false, false },
	{ "smart", "offline_uncorrectable", SK_U64, OFF(offline_uncorrectable), 0, 0, 1e9, false, false },
	{ "smart", "ssd_life_left", SK_U64, OFF(ssd_life_left), 0, 1, 100, false, false },
	{ "smart", "lbas_written", SK_U64, OFF(lbas_written), 0, 1, 1e15, false, false },
	{ "smart", "selftest", SK_CUSTOM, OFF(selftest), 0, 0, 0, false, true },
	{ "smart", "reallocated_during", SK_U64, OFF(reallocated_during), 0, 0, 1e9, false, false },
	{ "smart", "pending_during", SK_U64, OFF(pending_during), 0, 0, 1e9, false, false },
	{ "smart", "temperature_during", SK_DBL, OFF(temperature_during), 0, 0, 125, false, false },
	{ "nvme", "critical_warning", SK_U64, OFF(nvme_critical_warning), 0, 0, 255, false, false },
	{ "nvme", "available_spare", SK_U64, OFF(nvme_spare), 0, 0, 100, false, false },
	{ "nvme", "spare_threshold", SK_U64, OFF(nvme_spare_threshold), 0, 0, 100, false, false },
	{ "nvme", "percent_used", SK_U64, OFF(nvme_percent_used), 0, 0, 255, false, false },
	{ "nvme", "media_errors", SK_U64, OFF(nvme_media_errors), 0, 0, 1e12, false, false },
	{ "nvme", "media_errors_during", SK_U64, OFF(nvme_media_errors_during), 0, 0, 1e12, false, false },
	{ "nvme", "temperature_c", SK_DBL, OFF(nvme_temperature_c), 0, -40, 125, false, false },
	{ "selftest", "short_s", SK_DBL, OFF(selftest_short_s), 0, 1, 86400, false, false },
	{ "selftest", "long_s", SK_DBL, OFF(selftest_long_s), 0, 1, 7 * 86400.0, false, false },
	{ "selftest", "fail_lba", SK_U64, OFF(selftest_fail_lba), 0, 0, 1e15, false, false },
	{ "selftest", "unsupported", SK_BOOL, OFF(selftest_unsupported), 0, 0, 0, false, false },
	{ "nvme", "data_units_written", SK_U64, OFF(nvme_data_units_written), 0, 1, 1e15, false, false },
	{ "scsi", "block_bytes", SK_U32, OFF(scsi_block_bytes), 0, 512, 4160, false, false },
	{ "scsi", "protection", SK_BOOL, OFF(scsi_protection), 0, 0, 0, false, false },
	{ "scsi", "grown_defects", SK_U64, OFF(scsi_grown_defects), 0, 0, 1e9, false, false },
	{ "scsi", "grown_defects_during", SK_U64, OFF(scsi_grown_defects_during), 0, 0, 1e9, false, false },
	{ "scsi", "read_uncorrected", SK_U64, OFF(scsi_read_uncorrected), 0, 0, 1e12, false, false },
	{ "scsi", "read_uncorrected_during", SK_U64, OFF(scsi_read_uncorrected_during), 0, 0, 1e12, false, false },
	{ "scsi", "write_uncorrected", SK_U64, OFF(scsi_write_uncorrected), 0, 0, 1e12, false, false },
	{ "scsi", "ie_asc", SK_U64, OFF(scsi_ie_asc), 0, 0, 255, false, false },
	{ "scsi", "ie_ascq", SK_U64, OFF(scsi_ie_ascq), 0, 0, 255, false, false },
	{ "scsi", "selftest_result", SK_U64, OFF(scsi_selftest_result), 0, 0, 15, false, false },
	{ "scsi", "selftest_lba", SK_U64, OFF(scsi_selftest_lba), 0, 0, 1e15, false, false },
	{ "scsi", "power_on_hours", SK_U64, OFF(scsi_power_on_hours), 0, 0, 1e7, false, false },
	{ "scsi", "start_stop_cycles", SK_U64, OFF(scsi_start_stop_cycles), 0, 0, 1e9, false, false },
	{ "scsi", "temperature_c", SK_DBL, OFF(scsi_temperature_c), 0, -40, 125, false, false },
	{ "provenance", "farm_power_on_hours", SK_U64, OFF(farm_power_on_hours), 0, 1, 1e7, false, false },
	{ "provenance", "farm_serial", SK_STR, OFF(farm_serial), SZ(farm_serial), 0, 0, false, false },
	{ "provenance", "native_sectors", SK_U64, OFF(native_sectors), 0, 1, 1e15, false, false },
};

/* "0:150 0.5:128 1:70" */
static int
parse_curve(struct sim_drive_model *m, const char *v, char *msg, size_t ml)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", v);
	m->n_curve = 0;
	for (char *save, *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *colon = strchr(tok, ':');
		double f, r;
		if (!colon) {
			snprintf(msg, ml, "rate: '%s' is not POSITION:MBPS", tok);
			return -EINVAL;
		}
		*colon = '\0';
		if (sim_parse_dbl(tok, &f) || sim_parse_dbl(colon + 1, &r)) {
			snprintf(msg, ml, "rate: '%s:%s' is not POSITION:MBPS", tok, colon + 1);
			return -EINVAL;
		}
		if (f < 0 || f > 1) {
			snprintf(msg, ml, "rate: position %g out of range (0..1)", f);
			return -EINVAL;
		}
		/* below this an I/O would take hours of simulated time */
		if (r < SIM_MIN_MBPS || r > 100000) {
			snprintf(msg, ml, "rate: %g MB/s at position %g out of range (%g..100000 MB/s: "
				 "slower than any drive that still answers)", r, f, SIM_MIN_MBPS);
			return -EINVAL;
		}
		if (m->n_curve == SIM_MAX_CURVE) {
			snprintf(msg, ml, "rate: more than %d points", SIM_MAX_CURVE);
			return -EINVAL;
		}
		if (m->n_curve && f <= m->curve[m->n_curve - 1].frac) {
			snprintf(msg, ml, "rate: positions must increase (%g after %g)", f,
				 m->curve[m->n_curve - 1].frac);
			return -EINVAL;
		}
		m->curve[m->n_curve++] = (struct sim_curve_pt){ f, r };
	}
	if (m->n_curve < 2 || m->curve[0].frac != 0 || m->curve[m->n_curve - 1].frac != 1) {
		snprintf(msg, ml, "rate: needs points from position 0 (outer) to 1 (inner)");
		return -EINVAL;
	}
	return 0;
}

/* "START-END [FACTOR [EXTRA_MS]]" in logical sectors, END inclusive; kept as
 * LBAs here and turned into bytes once the sector size is known. */
static int
parse_region(struct sim_region *r, bool slow, const char *v, char *msg, size_t ml)
{
	char buf[128];
	snprintf(buf, sizeof buf, "%s", v);
	char *save, *range = strtok_r(buf, " \t", &save);
	char *fac = strtok_r(NULL, " \t", &save), *extra = strtok_r(NULL, " \t", &save);
	char *dash = range ? strchr(range, '-') : NULL;
	const char *what = slow ? "slow" : "unreadable";
	uint64_t a, b;
	if (!dash) {
		snprintf(msg, ml, "%s: '%s' is not FIRST-LAST (LBAs)", what, v);
		return -EINVAL;
	}
	*dash = '\0';
	if (sim_parse_u64(range, &a) || sim_parse_u64(dash + 1, &b) || b < a) {
		snprintf(msg, ml, "%s: '%s' is not FIRST-LAST with FIRST <= LAST", what, v);
		return -EINVAL;
	}
	r->start = a;
	r->end = b == UINT64_MAX ? UINT64_MAX : b + 1;	/* past every disk: drive_validate says so */
	r->factor = 1;
	r->extra_ms = 0;
	if (!slow && fac) {
		snprintf(msg, ml, "unreadable: takes only FIRST-LAST");
		return -EINVAL;
	}
	if (slow) {
		if (!fac || sim_parse_dbl(fac, &r->factor) || r->factor < SIM_MIN_SLOW ||
		    r->factor > 1) {
			snprintf(msg, ml, "slow: needs a rate factor in [%g, 1] after the range",
				 SIM_MIN_SLOW);
			return -EINVAL;
		}
		if (extra && (sim_parse_dbl(extra, &r->extra_ms) || r->extra_ms < 0 ||
			      r->extra_ms > 60000)) {
			snprintf(msg, ml, "slow: extra milliseconds '%s' out of range (0..60000)", extra);
			return -EINVAL;
		}
		if (strtok_r(NULL, " \t", &save)) {
			snprintf(msg, ml, "slow: too many fields (FIRST-LAST FACTOR [EXTRA_MS])");
			return -EINVAL;
		}
	}
	return 0;
}

/* "TYPE STATUS HOURS [LBA] [during]": one self-test log entry */
static int
parse_selftest(struct sim_drive_model *m, const char *v, char *msg, size_t ml)
{
	static const char *const types[] = { "offline", "short", "extended", "conveyance", "selective" };
	static const char *const stats[] = { "ok", "aborted", "interrupted", "fatal", "unknown",
					     "electrical", "servo", "read", "handling" };
	char buf[128];
	snprintf(buf, sizeof buf, "%s", v);
	char *save, *w[6] = { 0 };
	int n = 0;
	for (char *t = strtok_r(buf, " \t", &save); t && n < 6; t = strtok_r(NULL, " \t", &save))
		w[n++] = t;
	struct sim_selftest e = { 0 };
	int ty = -1, st = -1;
	for (int i = 0; n >= 3 && i < 5; i++)
		ty = strcmp(w[0], types[i]) ? ty : i;
	for (int i = 0; n >= 3 && i < 9; i++)
		st = strcmp(w[1], stats[i]) ? st : i;
	uint64_t h = 0, lba = 0xffffffffu;
	int k = 3;
	bool ok = n >= 3 && ty >= 0 && st >= 0 && !sim_parse_u64(w[2], &h) && h <= 65535;
	if (ok && k < n && strcmp(w[k], "during"))
		ok = !sim_parse_u64(w[k++], &lba) && lba <= 0xffffffffu;
	if (ok && k < n)
		ok = !strcmp(w[k++], "during") && (e.during = true) && k == n;
	if (!ok) {
		snprintf(msg, ml, "selftest: '%s' is not TYPE STATUS HOURS [LBA] [during] (TYPE short, "
			 "extended, conveyance, selective; STATUS ok, aborted, interrupted, fatal, unknown, "
			 "electrical, servo, read, handling)", v);
		return -EINVAL;
	}
	if (m->n_selftest == SIM_MAX_SELFTESTS) {
		snprintf(msg, ml, "selftest: more than %d entries", SIM_MAX_SELFTESTS);
		return -EINVAL;
	}
	e.type = (uint8_t)ty;
	e.status = (uint8_t)st;
	e.hours = (uint16_t)h;
	e.lba = (uint32_t)lba;
	m->selftest[m->n_selftest++] = e;
	return 0;
}

static int
drive_custom(struct sim_ini *p, const struct sim_key *k, const char *v, char *msg, size_t ml)
{
	struct drive_raw *raw = p->obj;
	struct sim_drive_model *m = &raw->m;
	if (strcmp(k->name, "rate") == 0)
		return parse_curve(m, v, msg, ml);
	if (strcmp(k->name, "selftest") == 0)
		return parse_selftest(m, v, msg, ml);
	if (strcmp(k->name, "slow") == 0 || strcmp(k->name, "unreadable") == 0) {
		bool slow = k->name[0] == 's';
		size_t *n = slow ? &m->n_slow : &m->n_bad;
		if (*n == SIM_MAX_REGIONS) {
			snprintf(msg, ml, "%s: more than %d ranges", k->name, SIM_MAX_REGIONS);
			return -EINVAL;
		}
		raw->region_line[slow ? 0 : 1][*n] = p->line;
		int r = parse_region(slow ? &m->slow[*n] : &m->bad[*n], slow, v, msg, ml);
		if (!r)
			(*n)++;
		return r;
	}
	if (strcmp(k->name, "zoned") == 0) {
		static const char *const names[] = { "none", "host-aware", "device-managed", "host-managed" };
		for (unsigned i = 0; i < 4; i++)
			if (strcasecmp(v, names[i]) == 0)
				return m->zoned = i, 0;
		snprintf(msg, ml, "zoned: '%s' is not none, host-aware, device-managed or host-managed", v);
		return -EINVAL;
	}
	/* SATA link speeds: only the three generations exist */
	double g;
	if (sim_parse_dbl(v, &g) || (g != 1.5 && g != 3.0 && g != 6.0)) {
		snprintf(msg, ml, "%s: '%s' is not 1.5, 3.0 or 6.0", k->name, v);
		return -EINVAL;
	}
	*(double *)(void *)((char *)m + k->off) = g;
	return 0;
}

static bool
pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Consistency once everything is read; lines point at the key at fault. */
static int
drive_validate(struct sim_ini *p, struct drive_raw *raw)
{
	struct sim_drive_model *m = &raw->m;
	if (!pow2(m->logical))
		return sim_ini_fail(p, sim_ini_line(p, "logical"), "logical: %u is not a power of two",
				    m->logical), -EINVAL;
	if (!pow2(m->physical) || m->physical < m->logical)
		return sim_ini_fail(p, sim_ini_line(p, "physical"),
				    "physical: %u must be a power of two >= logical (%u)",
				    m->physical, m->logical), -EINVAL;
	if (!m->physical_reported)
		m->physical_reported = m->physical;
	if (!pow2(m->physical_reported) || m->physical_reported < m->logical)
		return sim_ini_fail(p, sim_ini_line(p, "physical_reported"),
				    "physical_reported: %u must be a power of two >= logical (%u)",
				    m->physical_reported, m->logical), -EINVAL;
	if (m->capacity % m->logical)
		return sim_ini_fail(p, sim_ini_line(p, "capacity"),
				    "capacity: %llu is not a whole number of %u-byte sectors",
				    (unsigned long long)m->capacity, m->logical), -EINVAL;
	if (m->align_offset % m->logical || m->align_offset >= m->physical)
		return sim_ini_fail(p, sim_ini_line(p, "alignment_offset"),
				    "alignment_offset: must be a multiple of logical below physical"), -EINVAL;
	if (m->ssd && m->rpm)
		return sim_ini_fail(p, sim_ini_line(p, "rpm"), "rpm set on an ssd"), -EINVAL;
	if (!m->ssd && !m->rpm)
		return sim_ini_fail(p, sim_ini_line(p, "ssd"),
				    "a rotating drive needs rpm (or ssd = yes)"), -EINVAL;
	double outer = m->curve[0].mbps, inner = m->curve[m->n_curve - 1].mbps;
	if (!m->ssd && inner > outer)
		return sim_ini_fail(p, sim_ini_line(p, "rate"),
				    "rate: inner rate %g MB/s above outer rate %g MB/s", inner,
				    outer), -EINVAL;
	double half_rot = m->rpm ? 30000.0 / m->rpm : 0;
	if (m->access_ms < half_rot)
		return sim_ini_fail(p, sim_ini_line(p, "access_ms"),
				    "access_ms: %g below half a rotation (%.2f ms at %u rpm)",
				    m->access_ms, half_rot, m->rpm), -EINVAL;
	if (m->track_seek_ms > m->access_ms - half_rot)
		return sim_ini_fail(p, sim_ini_line(p, "track_seek_ms"),
				    "track_seek_ms: above the average seek"), -EINVAL;
	if (m->af_rmw_us > 0 && m->physical == m->logical)
		return sim_ini_fail(p, sim_ini_line(p, "af_rmw_us"),
				    "af_rmw_us: set, but physical sector equals logical"), -EINVAL;
	if (m->sata_cur_gbps > m->sata_max_gbps && m->sata_max_gbps > 0)
		return sim_ini_fail(p, sim_ini_line(p, "sata_cur_gbps"),
				    "sata_cur_gbps: above sata_max_gbps"), -EINVAL;
	if ((m->trim_deterministic || m->trim_zeroed) && !m->trim)
		return sim_ini_fail(p, sim_ini_line(p, m->trim_deterministic ? "trim_deterministic" :
						    "trim_zeroed"),
				    "TRIM properties set without trim = yes"), -EINVAL;
	/* regions: LBAs -> bytes, inside the disk */
	for (int s = 0; s < 2; s++) {
		struct sim_region *rg = s == 0 ? m->slow : m->bad;
		size_t n = s == 0 ? m->n_slow : m->n_bad;
		for (size_t i = 0; i < n; i++) {
			if (rg[i].end > m->capacity / m->logical)
				return sim_ini_fail(p, raw->region_line[s][i],
						    "%s: range ends past the last LBA (%llu)",
						    s == 0 ? "slow" : "unreadable",
						    (unsigned long long)(m->capacity / m->logical - 1)),
				       -EINVAL;
			rg[i].start *= m->logical;
			rg[i].end *= m->logical;
		}
	}
	for (size_t i = 0; i < p->n_keys; i++)
		if (strcmp(p->keys[i].section, "smart") == 0 && p->seen[i])
			m->smart = true;
		else if (strcmp(p->keys[i].section, "nvme") == 0 && p->seen[i])
			m->nvme = true;
		else if (strcmp(p->keys[i].name, "fail_lba") == 0 && p->seen[i]) {
			m->selftest_fail = true;
			if (m->selftest_fail_lba >= m->capacity / m->logical)
				return sim_ini_fail(p, p->seen[i], "fail_lba: past the last LBA (%llu)",
						    (unsigned long long)(m->capacity / m->logical - 1)), -EINVAL;
		}
		else if (strcmp(p->keys[i].section, "scsi") == 0 && p->seen[i])
			m->scsi = true;
	if (m->scsi && !m->scsi_block_bytes)
		m->scsi_block_bytes = m->logical;
	/* SMR: a [smr] section means drive-managed SMR */
	bool any = false, all = true;
	for (size_t i = 0; i < p->n_keys; i++)
		if (strcmp(p->keys[i].section, "smr") == 0) {
			any |= p->seen[i] != 0;
			all &= p->seen[i] != 0 || !p->keys[i].required;
		}
	m->smr = any;
	if (any) {
		if (!all)
			for (size_t i = 0; i < p->n_keys; i++)
				if (strcmp(p->keys[i].section, "smr") == 0 && p->keys[i].required &&
				    !p->seen[i])
					return sim_ini_fail(p, p->line, "missing required key '%s' in [smr]",
							    p->keys[i].name), -EINVAL;
		m->smr_cache = raw->cache_mib << 20;
		m->smr_band = raw->band_mib << 20;
		if (m->smr_cache >= m->capacity)
			return sim_ini_fail(p, sim_ini_line(p, "cache_mib"),
					    "cache_mib: media cache larger than the disk"), -EINVAL;
		m->smr_cache_used = raw->cache_used_mib << 20;
		if (m->smr_cache_used > m->smr_cache)
			return sim_ini_fail(p, sim_ini_line(p, "cache_used_mib"),
					    "cache_used_mib: more than the media cache holds"), -EINVAL;
		if (m->smr_band > m->smr_cache)
			return sim_ini_fail(p, sim_ini_line(p, "band_mib"),
					    "band_mib: band larger than the media cache"), -EINVAL;
		if (m->ssd)
			return sim_ini_fail(p, sim_ini_line(p, "cache_mib"),
					    "[smr] on an ssd"), -EINVAL;
		if (!m->trim_clean_mbps)
			m->trim_clean_mbps = m->clean_mbps;
		if (!m->idle_clean_mbps)
			m->idle_clean_mbps = m->clean_mbps;
	}
	return 0;
}

/* The [smr] keys are required only when the section is there: sim_ini_run
 * checks "required" globally, so clear it and let drive_validate decide. */
int
sim_drive_parse(const char *text, const char *file, struct sim_drive_model *out,
		char *err, size_t errlen)
{
	struct sim_key keys[ARRAY_SIZE(drive_keys)];
	memcpy(keys, drive_keys, sizeof keys);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (strcmp(keys[i].section, "smr") == 0)
			keys[i].required = false;
	struct drive_raw *raw = calloc(1, sizeof *raw);
	struct sim_ini *p = calloc(1, sizeof *p);
	if (!raw || !p) {
		free(raw);
		free(p);
		return -ENOMEM;
	}
	raw->m.write_factor = 1;
	raw->m.buffer_mib = 64;
	raw->m.track_seek_ms = -1;
	raw->m.error_ms = 2000;
	raw->m.sector_sizes_reported = true;
	p->file = file;
	p->keys = keys;
	p->n_keys = ARRAY_SIZE(keys);
	p->obj = raw;
	p->custom = drive_custom;
	int r = sim_ini_run(p, text);
	if (!r) {
		memcpy(keys, drive_keys, sizeof keys);	/* validate needs [smr]'s "required" */
		if (!raw->m.ncq_gain)	/* flash answers queued reads in parallel */
			raw->m.ncq_gain = raw->m.ssd ? 8 : 1;
		if (raw->m.track_seek_ms < 0)
			raw->m.track_seek_ms = raw->m.ssd ? 0 : 1.0;
		r = drive_validate(p, raw);
	}
	if (r) {
		snprintf(err, errlen, "%s", p->err);
	} else {
		*out = raw->m;
		sim_basename(file, out->name, sizeof out->name);
		snprintf(out->file, sizeof out->file, "%s", file);
	}
	free(raw);
	free(p);
	return r;
}

double
sim_curve_rate(const struct sim_drive_model *m, double frac)
{
	if (frac <= 0)
		return m->curve[0].mbps;
	for (size_t i = 1; i < m->n_curve; i++)
		if (frac <= m->curve[i].frac) {
			const struct sim_curve_pt *a = &m->curve[i - 1], *b = &m->curve[i];
			return a->mbps + (b->mbps - a->mbps) * (frac - a->frac) / (b->frac - a->frac);
		}
	return m->curve[m->n_curve - 1].mbps;
}

int
sim_read_file(const char *file, char **text, char *err, size_t errlen)
{
	size_t n;
	char *buf;
	int r = input_read(file, 1u << 20, &buf, &n, err, errlen);
	if (r == -EFBIG)
		snprintf(err, errlen, "%s: larger than 1 MiB, not a model file", file);
	if (r)
		return r;
	if (memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%s: contains NUL bytes, not a text file", file);
		free(buf);
		return -EINVAL;
	}
	*text = buf;
	return 0;
}

void
sim_basename(const char *path, char *out, size_t n)
{
	const char *s = strrchr(path, '/');
	s = s ? s + 1 : path;
	const char *dot = strrchr(s, '.');
	size_t len = dot && dot != s ? (size_t)(dot - s) : strlen(s);
	if (len >= n)
		len = n - 1;
	memcpy(out, s, len);
	out[len] = '\0';
}

/* ---- registry ---- */

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;
static struct sim_drive_model **drives;
static size_t n_drives;
static struct sim_hba_model **hbas;
static size_t n_hbas;
static char builtin_err[320];

static const char *
ext_of(const char *path)
{
	const char *dot = strrchr(path, '.');
	return dot ? dot + 1 : "";
}

static int
add_text(const char *text, const char *file, char *err, size_t errlen)
{
	const char *ext = ext_of(file);
	if (strcmp(ext, "drive") == 0) {
		struct sim_drive_model *m = malloc(sizeof *m);
		if (!m)
			return -ENOMEM;
		int r = sim_drive_parse(text, file, m, err, errlen);
		void *nv = r ? NULL : realloc(drives, (n_drives + 1) * sizeof *drives);
		if (!nv) {
			free(m);
			return r ? r : -ENOMEM;
		}
		drives = nv;
		drives[n_drives++] = m;
		return 0;
	}
	if (strcmp(ext, "hba") == 0) {
		struct sim_hba_model *m = malloc(sizeof *m);
		if (!m)
			return -ENOMEM;
		int r = sim_hba_parse(text, file, m, err, errlen);
		void *nv = r ? NULL : realloc(hbas, (n_hbas + 1) * sizeof *hbas);
		if (!nv) {
			free(m);
			return r ? r : -ENOMEM;
		}
		hbas = nv;
		hbas[n_hbas++] = m;
		return 0;
	}
	snprintf(err, errlen, "%s: not a model file (expected .drive or .hba)", file);
	return -EINVAL;
}

static void
load_builtin(void)
{
	static const char prefix[] = "src/sim/models/";
	pthread_mutex_lock(&reg_lock);
	for (const struct embedded_file *f = embedded_files; f->path; f++) {
		if (strncmp(f->path, prefix, sizeof prefix - 1) != 0 ||
		    strcmp(ext_of(f->path), "rig") == 0)
			continue;
		char err[320];
		if (add_text(f->data, f->path, err, sizeof err) && !builtin_err[0])
			snprintf(builtin_err, sizeof builtin_err, "%s", err);
	}
	pthread_mutex_unlock(&reg_lock);
}

const char *
sim_builtin_error(void)
{
	pthread_once(&reg_once, load_builtin);
	return builtin_err[0] ? builtin_err : NULL;
}

int
sim_model_add_file(const char *file, char *err, size_t errlen)
{
	pthread_once(&reg_once, load_builtin);
	/* the same file again (an inventory rescan): already registered */
	bool known = false;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = 0; i < n_drives && !known; i++)
		known = strcmp(drives[i]->file, file) == 0;
	for (size_t i = 0; i < n_hbas && !known; i++)
		known = strcmp(hbas[i]->file, file) == 0;
	pthread_mutex_unlock(&reg_lock);
	if (known)
		return 0;
	char *text;
	int r = sim_read_file(file, &text, err, errlen);
	if (r)
		return r;
	pthread_mutex_lock(&reg_lock);
	r = add_text(text, file, err, errlen);
	pthread_mutex_unlock(&reg_lock);
	free(text);
	return r;
}

/* Later files win, so a user's model overrides a built-in of the same name. */
const struct sim_drive_model *
sim_find_drive_model(const char *name)
{
	pthread_once(&reg_once, load_builtin);
	const struct sim_drive_model *m = NULL;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = n_drives; i-- > 0 && !m;)
		if (strcasecmp(drives[i]->name, name) == 0)
			m = drives[i];
	pthread_mutex_unlock(&reg_lock);
	return m;
}

const struct sim_hba_model *
sim_find_hba_model(const char *name)
{
	pthread_once(&reg_once, load_builtin);
	const struct sim_hba_model *m = NULL;
	pthread_mutex_lock(&reg_lock);
	for (size_t i = n_hbas; i-- > 0 && !m;)
		if (strcasecmp(hbas[i]->name, name) == 0)
			m = hbas[i];
	pthread_mutex_unlock(&reg_lock);
	return m;
}

size_t
sim_drive_model_count(void)
{
	pthread_once(&reg_once, load_builtin);
	pthread_mutex_lock(&reg_lock);
	size_t n = n_drives;
	pthread_mutex_unlock(&reg_lock);
	return n;
}

const struct sim_drive_model *
sim_drive_model_at(size_t i)
{
	pthread_once(&reg_once, load_builtin);
	pthread_mutex_lock(&reg_lock);
	const struct sim_drive_model *m = i < n_drives ? drives[i] : NULL;
	pthread_mutex_unlock(&reg_lock);
	return m;
}
