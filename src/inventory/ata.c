/* ata.c - IDENTIFY DEVICE decoding (our own, smartctl's validity rules) and
 * libatasmart blobs: record walking with every length checked, SMART parsed
 * by libatasmart from the blob. */
#include <arpa/inet.h>
#include <atasmart.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inventory/ata.h"

/* Tags as they appear in the file (ASCII, in this byte order). */
#define TAG_IDFY "IDFY"
#define TAG_SMST "SMST"
#define TAG_SMDT "SMDT"
#define TAG_SMTH "SMTH"
#define BLOB_MAX (1u << 20)	/* a real blob is ~1.5 KiB; refuse silly files */

static bool
word_valid(uint16_t w)
{
	return w != 0 && w != 0xFFFF;
}

static bool
pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

int
ata_identify_check(const uint8_t *id, char *reason, size_t n)
{
	bool all_zero = true, all_ff = true;
	for (int i = 0; i < ATA_BLOB_SECTOR; i++) {
		all_zero &= id[i] == 0;
		all_ff &= id[i] == 0xFF;
	}
	if (all_zero) {
		snprintf(reason, n, "IDFY record is all zeros");
		return -EINVAL;
	}
	if (all_ff) {
		snprintf(reason, n, "IDFY record is all 0xFF bytes (no device answered)");
		return -EINVAL;
	}
	/* Word 255: signature 0xA5 in the low byte, then the checksum byte
	 * makes the sum of all 512 bytes 0 (mod 256).  Without the signature
	 * there is nothing to check (older drives). */
	if (id[510] == 0xA5) {
		unsigned sum = 0;
		for (int i = 0; i < ATA_BLOB_SECTOR; i++)
			sum += id[i];
		if (sum & 0xFF) {
			snprintf(reason, n, "IDENTIFY checksum (word 255) does not match: the bytes "
				 "sum to 0x%02X, not 0 (corrupt record)", sum & 0xFF);
			return -EINVAL;
		}
	}
	return 0;
}

/* ATA strings: two characters per word, high byte first; NULs and other
 * control bytes become spaces; leading/trailing spaces dropped. */
static void
id_string(const uint16_t *w, unsigned first, unsigned nwords, char *dst, size_t n)
{
	char tmp[96];
	size_t k = 0;
	for (unsigned i = 0; i < nwords && k + 2 < sizeof tmp; i++) {
		tmp[k++] = (char)(w[first + i] >> 8);
		tmp[k++] = (char)(w[first + i] & 0xFF);
	}
	tmp[k] = '\0';
	for (size_t i = 0; i < k; i++)
		if ((unsigned char)tmp[i] < 0x20 || (unsigned char)tmp[i] >= 0x7F)
			tmp[i] = ' ';
	const char *s = tmp;
	while (*s == ' ')
		s++;
	strtrimcpy(dst, n, s);
}

void
ata_identify_decode(const uint16_t words[256], struct ata_identify *out)
{
	const uint16_t *w = words;
	memset(out, 0, sizeof *out);
	memcpy(out->words, words, sizeof out->words);

	id_string(w, 10, 10, out->serial, sizeof out->serial);
	id_string(w, 23, 4, out->firmware, sizeof out->firmware);
	id_string(w, 27, 20, out->model, sizeof out->model);

	/* Sector sizes (smartctl ata_get_size_info): word 106 only when 15:14 = 01.
	 * Not reported: ATA's (and smartctl's) 512/512, marked by
	 * sector_size_reported = false. */
	uint64_t logical = 512, physical = 512;
	bool sizes_ok = true;
	if ((w[106] & 0xC000) == 0x4000) {
		out->sector_size_reported = true;
		if (w[106] & (1u << 12)) {
			uint32_t lw = (uint32_t)w[117] | ((uint32_t)w[118] << 16);
			if (lw >= 256)	/* words; a 0 or tiny value would be nonsense */
				logical = 2ull * lw;
		}
		physical = logical;
		if (w[106] & (1u << 13))
			physical = logical << (w[106] & 0xF);
		/* crafted words: a logical size no drive has is unknown, not 8 GiB */
		sizes_ok = pow2(logical) && logical <= ATA_MAX_SECTOR && physical <= ATA_MAX_PHYS;
	}
	if (sizes_ok) {
		KNOWN_SET(out->logical, logical);
		KNOWN_SET(out->physical, physical);
	} else {
		logical = 512;	/* for nothing below: capacity and alignment stay unknown */
	}

	/* Alignment of LBA 0 within the physical sector (word 209, 15:14 = 01). */
	if (sizes_ok && (w[209] & 0xC000) == 0x4000)
		KNOWN_SET(out->alignment_offset, (uint64_t)(w[209] & 0x3FFF) * logical);

	/* Capacity: LBA48 (100-103) when word 83 is valid and bit 10 set; else
	 * LBA28 (60-61) when word 49 says LBA is supported.  Bounded: past 2^48
	 * sectors (the LBA48 limit) or ATA_MAX_BYTES it is unknown, never a
	 * wrapped or negative number. */
	uint64_t s48 = (uint64_t)w[100] | ((uint64_t)w[101] << 16) |
		       ((uint64_t)w[102] << 32) | ((uint64_t)w[103] << 48);
	uint64_t s28 = (uint64_t)w[60] | ((uint64_t)w[61] << 16);
	out->lba48 = (w[83] & 0xC000) == 0x4000 && (w[83] & (1u << 10));
	if (out->lba48 && s48) {
		if (s48 < (1ull << 48))
			KNOWN_SET(out->sectors, s48);
	} else if ((w[49] & (1u << 9)) && s28 && s28 < (1u << 28)) {
		KNOWN_SET(out->sectors, s28);
	}
	if (out->sectors.known && sizes_ok && out->sectors.v <= ATA_MAX_BYTES / logical)
		KNOWN_SET(out->capacity_bytes, out->sectors.v * logical);

	/* Rotation (word 217): 1 = non-rotating, 0x401..0xFFFE = rpm. */
	if (w[217] == 1) {
		out->ssd = true;
		KNOWN_SET(out->rotation_rpm, 0);
	} else if (w[217] > 0x400 && w[217] != 0xFFFF) {
		KNOWN_SET(out->rotation_rpm, w[217]);
	}

	/* TRIM (169 bit 0); what a read after TRIM returns only means something
	 * with TRIM.  0xFFFF is no answer (an absent device reads all ones). */
	if (w[169] != 0xFFFF)
		KNOWN_SET(out->trim, w[169] & 1u);
	if (out->trim.known && out->trim.v && w[69] != 0xFFFF) {
		KNOWN_SET(out->trim_deterministic, (w[69] >> 14) & 1u);
		KNOWN_SET(out->trim_zeroed, (w[69] >> 5) & 1u);
	}
	if (w[69] != 0xFFFF)
		KNOWN_SET(out->zoned, w[69] & 3u);

	/* SATA (word 76 valid): NCQ bit 8 with depth in 75 bits 4:0; gens bits 3:1. */
	if (word_valid(w[76])) {
		if (w[76] & (1u << 8))
			KNOWN_SET(out->ncq_depth, (uint64_t)(w[75] & 0x1F) + 1);
		static const double gbps[] = { 0, 1.5, 3.0, 6.0 };
		for (int b = 3; b >= 1; b--)
			if (w[76] & (1u << b)) {
				KNOWN_SET(out->sata_max_gbps, gbps[b]);
				break;
			}
		if (word_valid(w[77])) {
			unsigned cur = (w[77] >> 1) & 7u;
			if (cur >= 1 && cur <= 3)
				KNOWN_SET(out->sata_cur_gbps, gbps[cur]);
		}
	}

	if (word_valid(w[82]))
		KNOWN_SET(out->smart_supported, w[82] & 1u);
	/* SMART enabled (85 bit 0): a set bit is believed; "disabled" needs word 87
	 * to be valid too (smartctl's ataIsSmartEnabled). */
	if (out->smart_supported.known && out->smart_supported.v && w[85] != 0xFFFF) {
		if (w[85] & 1u)
			KNOWN_SET(out->smart_enabled, 1);
		else if ((w[87] & 0xC000) == 0x4000 && w[85] != 0)
			KNOWN_SET(out->smart_enabled, 0);
	}
}

/* ---- blobs ---- */

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void
put_record(uint8_t **p, const char *tag, const void *data, uint32_t len)
{
	uint32_t be = htonl(len);
	memcpy(*p, tag, 4);
	memcpy(*p + 4, &be, 4);
	memcpy(*p + 8, data, len);
	*p += 8 + len;
}

int
ata_blob_build(const uint8_t identify[ATA_BLOB_SECTOR], struct known_bool smart_status,
	       const uint8_t *smart_data, const uint8_t *thresholds,
	       void **blob, size_t *len)
{
	size_t n = 8 + ATA_BLOB_SECTOR + (smart_status.known ? 12 : 0) +
		   (smart_data ? 8 + ATA_BLOB_SECTOR : 0) +
		   (thresholds ? 8 + ATA_BLOB_SECTOR : 0);
	uint8_t *b = malloc(n), *p = b;
	if (!b)
		return -ENOMEM;
	put_record(&p, TAG_IDFY, identify, ATA_BLOB_SECTOR);
	if (smart_status.known) {
		uint32_t st = htonl(smart_status.v ? 1 : 0);	/* as skdump writes it */
		put_record(&p, TAG_SMST, &st, 4);
	}
	if (smart_data)
		put_record(&p, TAG_SMDT, smart_data, ATA_BLOB_SECTOR);
	if (thresholds)
		put_record(&p, TAG_SMTH, thresholds, ATA_BLOB_SECTOR);
	*blob = b;
	*len = n;
	return 0;
}

const char *
ata_overall_name(int o)
{
	switch (o) {
	case SK_SMART_OVERALL_GOOD: return "good";
	case SK_SMART_OVERALL_BAD_ATTRIBUTE_IN_THE_PAST: return "bad_attribute_in_the_past";
	case SK_SMART_OVERALL_BAD_SECTOR: return "bad_sector";
	case SK_SMART_OVERALL_BAD_ATTRIBUTE_NOW: return "bad_attribute_now";
	case SK_SMART_OVERALL_BAD_SECTOR_MANY: return "bad_sector_many";
	case SK_SMART_OVERALL_BAD_STATUS: return "bad_status";
	default: return "unknown";
	}
}

/* libatasmart sometimes stores a negated errno (its ENODATA / ENOTSUP quirks). */
static int
sk_errno(void)
{
	int e = errno;
	if (e < 0)
		e = -e;
	return e ? e : EIO;
}

static void
format_pretty(const SkSmartAttributeParsedData *a, char *s, size_t n)
{
	uint64_t v = a->pretty_value;
	switch (a->pretty_unit) {
	case SK_SMART_ATTRIBUTE_UNIT_MSECONDS:
		if (v >= 3600000ull)
			snprintf(s, n, "%.1f h", v / 3600000.0);
		else if (v >= 1000)
			snprintf(s, n, "%.1f s", v / 1000.0);
		else
			snprintf(s, n, "%llu ms", (unsigned long long)v);
		break;
	case SK_SMART_ATTRIBUTE_UNIT_MKELVIN:
		snprintf(s, n, "%.1f C", ((double)v - 273150.0) / 1000.0);
		break;
	case SK_SMART_ATTRIBUTE_UNIT_SECTORS:
		snprintf(s, n, "%llu sectors", (unsigned long long)v);
		break;
	case SK_SMART_ATTRIBUTE_UNIT_PERCENT:
		snprintf(s, n, "%llu%%", (unsigned long long)v);
		break;
	case SK_SMART_ATTRIBUTE_UNIT_SMALL_PERCENT:
		snprintf(s, n, "%.3f%%", (double)v);
		break;
	case SK_SMART_ATTRIBUTE_UNIT_MB:
		snprintf(s, n, "%llu MB", (unsigned long long)v);
		break;
	case SK_SMART_ATTRIBUTE_UNIT_NONE:
		snprintf(s, n, "%llu", (unsigned long long)v);
		break;
	default:
		snprintf(s, n, "n/a");
		break;
	}
}

struct attr_ctx {
	struct smart_info *si;
	int err;
};

static void
attr_cb(SkDisk *d, const SkSmartAttributeParsedData *a, void *userdata)
{
	struct attr_ctx *c = userdata;
	struct smart_info *si = c->si;
	(void)d;
	if (c->err)
		return;
	struct smart_attr *v = realloc(si->attrs, (si->n_attrs + 1) * sizeof *v);
	if (!v) {
		c->err = -ENOMEM;
		return;
	}
	si->attrs = v;
	struct smart_attr *x = &v[si->n_attrs++];
	memset(x, 0, sizeof *x);
	x->id = a->id;
	snprintf(x->name, sizeof x->name, "%s", a->name ? a->name : "unknown");
	if (a->current_value_valid)
		KNOWN_SET(x->value, a->current_value);
	if (a->worst_value_valid)
		KNOWN_SET(x->worst, a->worst_value);
	if (a->threshold_valid)
		KNOWN_SET(x->threshold, a->threshold);
	for (int i = 5; i >= 0; i--)
		x->raw = (x->raw << 8) | a->raw[i];
	format_pretty(a, x->pretty, sizeof x->pretty);
	x->prefailure = a->prefailure;
	x->failing_now = a->good_now_valid && !a->good_now;
	x->failed_past = a->good_in_the_past_valid && !a->good_in_the_past;
	if (a->id == 5)
		KNOWN_SET(si->reallocated, x->raw);
	else if (a->id == 197)
		KNOWN_SET(si->pending, x->raw);
	else if (a->id == 198)
		KNOWN_SET(si->offline_uncorrectable, x->raw);
}

/* SMART through libatasmart, from a clean blob (known records only). */
static void
smart_from_blob(const void *clean, size_t len, bool have_smdt, struct smart_info *si)
{
	SkDisk *d = NULL;
	if (!have_smdt) {
		snprintf(si->reason, sizeof si->reason, "no SMART data in the blob");
		return;
	}
	if (sk_disk_open(NULL, &d) < 0) {
		snprintf(si->reason, sizeof si->reason, "libatasmart: %s", strerror(sk_errno()));
		return;
	}
	if (sk_disk_set_blob(d, clean, len) < 0) {
		snprintf(si->reason, sizeof si->reason, "libatasmart refused the blob: %s",
			 strerror(sk_errno()));
		sk_disk_free(d);
		return;
	}
	struct attr_ctx c = { si, 0 };
	if (sk_disk_smart_parse_attributes(d, attr_cb, &c) < 0 || c.err) {
		snprintf(si->reason, sizeof si->reason, "libatasmart could not parse the attributes: %s",
			 strerror(c.err ? -c.err : sk_errno()));
		sk_disk_free(d);
		return;
	}
	si->known = true;
	uint64_t v;
	if (sk_disk_smart_get_temperature(d, &v) == 0 && v >= 173150)
		KNOWN_SET(si->temperature_c, ((double)v - 273150.0) / 1000.0);
	if (sk_disk_smart_get_power_on(d, &v) == 0)
		KNOWN_SET(si->power_on_hours, v / 3600000ull);
	/* Needs SMST (and SMART enabled in IDENTIFY): else the verdict stays unknown. */
	SkSmartOverall o;
	if (sk_disk_smart_get_overall(d, &o) == 0)
		snprintf(si->overall, sizeof si->overall, "%s", ata_overall_name(o));
	sk_disk_free(d);
}

static bool
tag_is(const uint8_t *p, const char *tag)
{
	return memcmp(p, tag, 4) == 0;
}

static void
tag_print(const uint8_t *p, char out[5])
{
	for (int i = 0; i < 4; i++)
		out[i] = (p[i] >= 0x20 && p[i] < 0x7F) ? (char)p[i] : '?';
	out[4] = '\0';
}

int
ata_from_blob(const void *blob, size_t len, struct ata_info *out)
{
	const uint8_t *b = blob, *rec[4] = { NULL, NULL, NULL, NULL };
	static const char *const tags[4] = { TAG_IDFY, TAG_SMST, TAG_SMDT, TAG_SMTH };
	static const uint32_t need[4] = { ATA_BLOB_SECTOR, 4, ATA_BLOB_SECTOR, ATA_BLOB_SECTOR };
	size_t off = 0;

	memset(out, 0, sizeof *out);
	out->state = ATA_FAILED;
	snprintf(out->via, sizeof out->via, "blob");
	if (!blob || len == 0) {
		snprintf(out->reason, sizeof out->reason, "empty blob");
		return -EINVAL;
	}
	while (off < len) {
		char t[5];
		if (len - off < 8) {
			snprintf(out->reason, sizeof out->reason,
				 "truncated record header at byte %zu (%zu bytes left, 8 needed)",
				 off, len - off);
			return -EINVAL;
		}
		tag_print(b + off, t);
		uint32_t rl = be32(b + off + 4);
		if (rl > len - off - 8) {
			snprintf(out->reason, sizeof out->reason,
				 "record %s at byte %zu claims %u bytes, only %zu left",
				 t, off, rl, len - off - 8);
			return -EINVAL;
		}
		for (int i = 0; i < 4; i++) {
			if (!tag_is(b + off, tags[i]))
				continue;
			if (rl != need[i]) {
				snprintf(out->reason, sizeof out->reason,
					 "record %s at byte %zu has length %u, expected %u",
					 t, off, rl, need[i]);
				return -EINVAL;
			}
			if (rec[i]) {
				snprintf(out->reason, sizeof out->reason,
					 "record %s appears twice (again at byte %zu)", t, off);
				return -EINVAL;
			}
			rec[i] = b + off + 8;
		}
		off += 8 + (size_t)rl;	/* unknown tags: skipped by their length */
	}
	if (!rec[0]) {
		snprintf(out->reason, sizeof out->reason, "no IDFY record (IDENTIFY data missing)");
		return -ENODATA;
	}

	uint16_t w[256];
	if (ata_identify_check(rec[0], out->reason, sizeof out->reason))
		return -EINVAL;
	for (int i = 0; i < 256; i++)
		w[i] = (uint16_t)(rec[0][2 * i] | (rec[0][2 * i + 1] << 8));
	ata_identify_decode(w, &out->id);
	out->state = ATA_OK;
	out->reason[0] = '\0';

	if (rec[1])
		KNOWN_SET(out->smart.status_good, rec[1][0] | rec[1][1] | rec[1][2] | rec[1][3] ? 1 : 0);

	/* libatasmart gets only the records it knows, freshly aligned. */
	struct known_bool st = { rec[1] != NULL, out->smart.status_good.v != 0 };
	void *clean = NULL;
	size_t clen = 0;
	if (ata_blob_build(rec[0], st, rec[2], rec[3], &clean, &clen) < 0) {
		snprintf(out->smart.reason, sizeof out->smart.reason, "out of memory");
		return 0;
	}
	smart_from_blob(clean, clen, rec[2] != NULL, &out->smart);
	if (out->smart.known && !out->smart.overall[0] && !rec[1])
		snprintf(out->smart.reason, sizeof out->smart.reason,
			 "no SMART status record: overall verdict unknown");
	free(clean);
	return 0;
}

/* "FILE: reason", truncated to fit (plain copies: no printf truncation games). */
static void
prefix_reason(char *dst, size_t n, const char *prefix)
{
	char tmp[512];
	size_t pl = strlen(prefix), rl = strlen(dst), k = 0;
	if (pl > 300)
		pl = 300;
	memcpy(tmp, prefix, pl);
	k = pl;
	tmp[k++] = ':';
	tmp[k++] = ' ';
	if (rl > sizeof tmp - k - 1)
		rl = sizeof tmp - k - 1;
	memcpy(tmp + k, dst, rl);
	k += rl;
	tmp[k] = '\0';
	if (k >= n)
		k = n - 1;
	memcpy(dst, tmp, k);
	dst[k] = '\0';
}

int
ata_from_blob_file(const char *file, struct ata_info *out)
{
	memset(out, 0, sizeof *out);
	out->state = ATA_FAILED;
	snprintf(out->via, sizeof out->via, "blob");
	int fd = input_open(file, out->reason, sizeof out->reason);
	if (fd < 0)
		return fd;
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size <= 0 || (uint64_t)st.st_size > BLOB_MAX) {
		snprintf(out->reason, sizeof out->reason, "%s: %s", file,
			 st.st_size <= 0 ? "empty file" : "too large for a blob (over 1 MiB)");
		close(fd);
		return -EINVAL;
	}
	size_t n = (size_t)st.st_size, got = 0;
	uint8_t *buf = malloc(n);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	int rc = ata_from_blob(buf, got, out);
	free(buf);
	if (rc < 0) {
		prefix_reason(out->reason, sizeof out->reason, file);
	}
	return rc;
}

/* ---- folding IDENTIFY into the drive ---- */

static bool
empty(const char *s)
{
	return !s || !*s;
}

/* Is `part` a strictly shorter prefix (or suffix) of `whole`? */
static bool
is_piece_of(const char *part, const char *whole, bool prefix)
{
	size_t pl = strlen(part), wl = strlen(whole);
	if (pl >= wl)
		return false;
	return prefix ? strncmp(whole, part, pl) == 0 : strcmp(whole + wl - pl, part) == 0;
}

void
ata_apply_identify(struct drive *d)
{
	const struct ata_identify *id = &d->ata.id;
	if (d->ata.state != ATA_OK)
		return;
	if (id->sector_size_reported && id->logical.known && id->physical.known) {
		/* A USB bridge may present other logical sectors than the drive's
		 * own: I/O goes by what the kernel sees, so keep that and say so. */
		if (d->logical.known && d->logical.v != id->logical.v) {
			char w[160];
			snprintf(w, sizeof w, "the host sees %llu-byte logical sectors, the drive "
				 "itself uses %llu (bridge translation)",
				 (unsigned long long)d->logical.v, (unsigned long long)id->logical.v);
			if (!strlist_has(&d->warnings, w))
				strlist_add(&d->warnings, w);
		} else {
			d->logical = id->logical;
		}
		d->physical = id->physical;
		snprintf(d->sector_source, sizeof d->sector_source, "identify");
		if (id->alignment_offset.known && !d->alignment_offset.known)
			d->alignment_offset = id->alignment_offset;
	} else if (!id->sector_size_reported &&
		   (!d->physical.known || (d->logical.v == 512 && d->physical.v == 512)) &&
		   (!d->logical.known || d->logical.v == 512)) {
		/* No valid word 106: ATA (and smartctl) mean 512/512; shown, and
		 * marked as not reported by the drive. */
		KNOWN_SET(d->logical, 512);
		KNOWN_SET(d->physical, 512);
		snprintf(d->sector_source, sizeof d->sector_source, "ata-default");
	}
	if (id->rotation_rpm.known)
		d->rotation_rpm = id->rotation_rpm;
	/* SCSI INQUIRY (sysfs device/model, device/rev) holds only the first 16
	 * characters of an ATA model and the last 4 of its firmware: where sysfs
	 * has such a piece (or nothing), the IDENTIFY string is the whole one. */
	if (id->model[0] && (empty(d->model) || is_piece_of(d->model, id->model, true)))
		snprintf(d->model, sizeof d->model, "%s", id->model);
	if (id->serial[0] && (empty(d->serial) || is_piece_of(d->serial, id->serial, true)))
		snprintf(d->serial, sizeof d->serial, "%s", id->serial);
	if (id->firmware[0] && (empty(d->firmware) || is_piece_of(d->firmware, id->firmware, false)))
		snprintf(d->firmware, sizeof d->firmware, "%s", id->firmware);
	if (!d->capacity_bytes.known && id->capacity_bytes.known)
		d->capacity_bytes = id->capacity_bytes;
}

void
ata_info_free(struct ata_info *a)
{
	free(a->smart.attrs);
	a->smart.attrs = NULL;
	a->smart.n_attrs = 0;
}
