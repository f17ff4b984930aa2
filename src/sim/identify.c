/* identify.c - the IDENTIFY DEVICE words and SMART values a sim drive would
 * answer with, built from its model, so the inventory decodes a sim drive
 * with the same code (ata_identify_decode) as a real one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inventory/ata.h"
#include "sim/identify.h"

/* ATA strings: space padded, two characters per word, first one high. */
static void
put_string(uint16_t *w, unsigned first, unsigned nwords, const char *s)
{
	size_t len = strlen(s);
	for (unsigned i = 0; i < nwords; i++) {
		size_t a = 2 * (size_t)i, b = a + 1;
		uint8_t hi = a < len ? (uint8_t)s[a] : ' ';
		uint8_t lo = b < len ? (uint8_t)s[b] : ' ';
		w[first + i] = (uint16_t)(hi << 8 | lo);
	}
}

static unsigned
log2u(uint32_t v)
{
	unsigned n = 0;
	while (v > 1) {
		v >>= 1;
		n++;
	}
	return n;
}

static unsigned
sata_gen(double gbps)
{
	return gbps >= 6 ? 3 : gbps >= 3 ? 2 : gbps >= 1.5 ? 1 : 0;
}

void
sim_identify_words(const struct sim_drive_model *m, const char *serial, uint16_t w[256])
{
	memset(w, 0, 256 * sizeof *w);
	w[0] = 0x0040;				/* ATA device, fixed */
	put_string(w, 10, 10, serial);
	put_string(w, 23, 4, m->firmware);
	put_string(w, 27, 20, m->model);
	w[47] = 0x8010;
	w[49] = 0x2f00;				/* LBA and DMA supported */
	w[53] = 0x0007;
	uint64_t sectors = m->capacity / m->logical;
	uint64_t s28 = sectors > 0x0fffffff ? 0x0fffffff : sectors;
	w[60] = (uint16_t)s28;
	w[61] = (uint16_t)(s28 >> 16);
	w[69] = (uint16_t)(m->zoned < 3 ? m->zoned : 0);	/* host-managed is not in word 69 */
	if (m->trim_deterministic)
		w[69] |= 1u << 14;
	if (m->trim_zeroed)
		w[69] |= 1u << 5;
	if (m->ncq_depth) {
		w[75] = (uint16_t)(m->ncq_depth - 1);
		w[76] |= 1u << 8;
	}
	for (unsigned g = 1; g <= sata_gen(m->sata_max_gbps); g++)
		w[76] |= (uint16_t)(1u << g);
	if (w[76])
		w[77] = (uint16_t)(sata_gen(m->sata_cur_gbps) << 1);
	w[80] = 0x07f0;				/* ATA8-ACS .. ACS-3 */
	w[82] = 0x746a | (m->smart ? 1 : 0);	/* bit 0: SMART */
	w[83] = 0x7400;				/* valid; LBA48, FLUSH CACHE EXT */
	w[84] = 0x4163;
	w[85] = 0x7468 | (m->smart ? 1 : 0);	/* enabled as supported */
	w[86] = 0xb400;
	w[87] = 0x4163;
	w[100] = (uint16_t)sectors;
	w[101] = (uint16_t)(sectors >> 16);
	w[102] = (uint16_t)(sectors >> 32);
	w[103] = (uint16_t)(sectors >> 48);
	if (m->sector_sizes_reported) {
		w[106] = 0x4000;
		if (m->logical > 512) {
			w[106] |= 1u << 12;
			w[117] = (uint16_t)(m->logical / 2);
			w[118] = (uint16_t)((m->logical / 2) >> 16);
		}
		if (m->physical_reported > m->logical) {
			w[106] |= (uint16_t)(1u << 13 | log2u(m->physical_reported / m->logical));
			w[209] = (uint16_t)(0x4000 | (m->align_offset / m->logical));
		}
	}
	w[169] = m->trim ? 1 : 0;
	w[217] = m->ssd ? 1 : (uint16_t)m->rpm;
	/* integrity word: signature A5h, checksum makes the 512 bytes sum to 0 */
	w[255] = 0x00a5;
	uint8_t sum = 0;
	for (unsigned i = 0; i < 256; i++)
		sum = (uint8_t)(sum + (w[i] & 0xff) + (w[i] >> 8));
	w[255] |= (uint16_t)((uint8_t)(0x100 - sum) << 8);
}

struct attr_def {
	uint8_t id;
	const char *name;
	bool prefail;
	uint8_t threshold;
};

static int
add_attr(struct smart_info *s, const struct attr_def *a, uint64_t raw, const char *pretty)
{
	struct smart_attr *v = realloc(s->attrs, (s->n_attrs + 1) * sizeof *v);
	if (!v)
		return -1;
	s->attrs = v;
	struct smart_attr *x = &v[s->n_attrs++];
	memset(x, 0, sizeof *x);
	x->id = a->id;
	snprintf(x->name, sizeof x->name, "%s", a->name);
	/* normalised values: 100 when healthy, lower with each bad sector */
	uint64_t val = 100;
	if ((a->id == 5 || a->id == 197 || a->id == 198) && raw)
		val = raw >= 90 ? 10 : 100 - raw;
	KNOWN_SET(x->value, val);
	KNOWN_SET(x->worst, val);
	KNOWN_SET(x->threshold, a->threshold);
	x->raw = raw;
	snprintf(x->pretty, sizeof x->pretty, "%s", pretty);
	x->prefailure = a->prefail;
	x->failing_now = a->threshold && val <= a->threshold;
	x->failed_past = x->failing_now;
	return 0;
}

void
sim_smart_info(const struct sim_drive_model *m, struct smart_info *s)
{
	memset(s, 0, sizeof *s);
	if (!m->smart) {
		snprintf(s->reason, sizeof s->reason, "the model has no SMART values");
		return;
	}
	s->known = true;
	KNOWN_SET(s->status_good, 1);
	uint64_t bad = m->reallocated + m->pending;
	snprintf(s->overall, sizeof s->overall, "%s", bad ? "bad_sector" : "good");
	KNOWN_SET(s->temperature_c, m->temperature_c);
	KNOWN_SET(s->power_on_hours, m->power_on_hours);
	KNOWN_SET(s->reallocated, m->reallocated);
	KNOWN_SET(s->pending, m->pending);
	KNOWN_SET(s->offline_uncorrectable, m->offline_uncorrectable);
	/* names as libatasmart gives them */
	static const struct attr_def defs[] = {
		{ 5, "reallocated-sector-count", true, 36 },
		{ 9, "power-on-hours", false, 0 },
		{ 194, "temperature-celsius-2", false, 0 },
		{ 197, "current-pending-sector", false, 0 },
		{ 198, "offline-uncorrectable", false, 0 },
	};
	char p[48];
	snprintf(p, sizeof p, "%llu sectors", (unsigned long long)m->reallocated);
	add_attr(s, &defs[0], m->reallocated, p);
	snprintf(p, sizeof p, "%llu h", (unsigned long long)m->power_on_hours);
	add_attr(s, &defs[1], m->power_on_hours, p);
	snprintf(p, sizeof p, "%.1f C", m->temperature_c);
	add_attr(s, &defs[2], (uint64_t)(m->temperature_c > 0 ? m->temperature_c : 0), p);
	snprintf(p, sizeof p, "%llu sectors", (unsigned long long)m->pending);
	add_attr(s, &defs[3], m->pending, p);
	snprintf(p, sizeof p, "%llu sectors", (unsigned long long)m->offline_uncorrectable);
	add_attr(s, &defs[4], m->offline_uncorrectable, p);
	/* an SSD's wear attributes, when the model has them */
	static const struct attr_def wear[] = {
		{ 231, "ssd-life-left", false, 0 }, { 241, "total-lbas-written", false, 0 },
	};
	if (m->ssd_life_left && !add_attr(s, &wear[0], 0, "")) {
		s->attrs[s->n_attrs - 1].value = s->attrs[s->n_attrs - 1].worst =
			(struct known_u64){ true, m->ssd_life_left };
		snprintf(s->attrs[s->n_attrs - 1].pretty, sizeof s->attrs[0].pretty, "%llu%%",
			 (unsigned long long)m->ssd_life_left);
	}
	snprintf(p, sizeof p, "%llu sectors", (unsigned long long)m->lbas_written);
	if (m->lbas_written)
		add_attr(s, &wear[1], m->lbas_written, p);
}

void
sim_provenance_info(const struct sim_drive_model *m, const struct ata_identify *id, struct farm_info *farm,
		    struct hidden_capacity *hc)
{
	memset(farm, 0, sizeof *farm);
	memset(hc, 0, sizeof *hc);
	if (!m->farm_power_on_hours && !m->native_sectors)
		return;		/* no [provenance]: nothing said, as before it existed */
	snprintf(farm->source, sizeof farm->source, "sim model");
	if (m->farm_power_on_hours) {
		farm->known = true;
		KNOWN_SET(farm->power_on_hours, m->farm_power_on_hours);
		snprintf(farm->serial, sizeof farm->serial, "%s", m->farm_serial[0] ? m->farm_serial : id->serial);
		snprintf(farm->model, sizeof farm->model, "%s", id->model);
		snprintf(farm->firmware, sizeof farm->firmware, "%s", id->firmware);
	} else {
		snprintf(farm->reason, sizeof farm->reason, "no FARM log (the model keeps none)");
	}
	hc->reported = id->sectors;
	hc->logical = known_u64_of(m->logical);
	if (id->sectors.known)
		KNOWN_SET(hc->native, m->native_sectors > id->sectors.v ? m->native_sectors : id->sectors.v);
	snprintf(hc->reason, sizeof hc->reason, "DCO not read: the sim models none");
	hpa_judge(hc);
}
