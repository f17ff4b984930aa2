/* scsi.c - the SCSI drive class's decoders: standard INQUIRY, the VPD pages,
 * READ CAPACITY(16), the LOG SENSE pages and READ DEFECT DATA's header.
 * Pure functions over the raw response bytes (the reader, scsi-read.c, sends
 * the commands through libsgutils2); the field offsets are SPC-4/SBC-3's.
 * The big-endian fields and the ASC/ASCQ words are libsgutils2's helpers. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <scsi/sg_lib.h>
#include <scsi/sg_unaligned.h>
#include "inventory/scsi.h"

/* libsgutils2's 32- and 64-bit readers shift a byte into an int's sign bit
 * where no byte-swap builtin is used (clang: UBSan says so); its generic
 * any-width reader does not. */
static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)sg_get_unaligned_be(4, p);
}

static uint64_t
be64(const uint8_t *p)
{
	return sg_get_unaligned_be(8, p);
}

/* A fixed-width ASCII field: printable characters, blanks cut both ends. */
static void
ascii_field(char *dst, size_t n, const uint8_t *src, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; i < len && j + 1 < n; i++)
		dst[j++] = src[i] >= 0x20 && src[i] < 0x7f ? (char)src[i] : ' ';
	while (j && dst[j - 1] == ' ')
		j--;
	dst[j] = 0;
	size_t lead = strspn(dst, " ");
	memmove(dst, dst + lead, j - lead + 1);
}

int
scsi_decode_inquiry(const uint8_t *p, size_t n, struct scsi_info *out)
{
	if (n < 36)
		return -EINVAL;
	/* peripheral qualifier (bits 7:5) non-zero: no device at this LUN */
	if (p[0] >> 5)
		return -EINVAL;
	out->peripheral_type = known_u64_of(p[0] & 0x1f);
	ascii_field(out->vendor, sizeof out->vendor, p + 8, 8);
	ascii_field(out->product, sizeof out->product, p + 16, 16);
	ascii_field(out->revision, sizeof out->revision, p + 32, 4);
	out->known = true;
	return 0;
}

static const char *const protocol_names[16] = {
	[0] = "fc", [1] = "spi", [2] = "ssa", [3] = "sbp", [4] = "srp", [5] = "iscsi",
	[6] = "sas", [7] = "adt", [8] = "ata", [9] = "uas", [10] = "sop", [11] = "pcie",
};

const char *
scsi_protocol_name(unsigned id)
{
	return id < 16 && protocol_names[id] ? protocol_names[id] : "";
}

static void
hex_into(char *dst, size_t n, const char *tag, const uint8_t *p, size_t len)
{
	size_t j = (size_t)snprintf(dst, n, "%s", tag);
	for (size_t i = 0; i < len && j + 2 < n; i++, j += 2)
		snprintf(dst + j, n - j, "%02x", p[i]);
}

/* The rank of an LU designator type as a stable name: NAA first, then
 * EUI-64, the SCSI name string, the T10 vendor id; 0 = not a name. */
static int
designator_rank(unsigned type)
{
	switch (type) {
	case 3: return 4;	/* NAA */
	case 2: return 3;	/* EUI-64 */
	case 8: return 2;	/* SCSI name string */
	case 1: return 1;	/* T10 vendor identification */
	default: return 0;
	}
}

/* Device Identification (0x83): the best designator of the logical unit
 * (association 0), and the protocol of the target port designators that
 * carry one (PIV set, association 1 or 2). */
static int
vpd83(const uint8_t *p, size_t n, struct scsi_info *out)
{
	size_t end = 4 + (size_t)sg_get_unaligned_be16(p + 2);
	if (end > n)
		end = n;
	int best = 0;
	for (size_t off = 4; off + 4 <= end;) {
		const uint8_t *d = p + off;
		size_t len = d[3];
		if (off + 4 + len > end)
			break;		/* truncated: what came before stands */
		unsigned proto = d[0] >> 4, code_set = d[0] & 0xf;
		unsigned piv = d[1] >> 7, assoc = (d[1] >> 4) & 3, type = d[1] & 0xf;
		const uint8_t *v = d + 4;
		if (piv && (assoc == 1 || assoc == 2) && !out->protocol[0])
			snprintf(out->protocol, sizeof out->protocol, "%s", scsi_protocol_name(proto));
		int r = assoc == 0 ? designator_rank(type) : 0;
		if (r > best && len) {
			best = r;
			if (type == 3 || type == 2)
				hex_into(out->designator, sizeof out->designator,
					 type == 3 ? "naa." : "eui.", v, len);
			else if (code_set == 2 || code_set == 3) {	/* ASCII, UTF-8 */
				size_t k = type == 1 ? 4 : 0;
				memcpy(out->designator, "t10.", k);
				ascii_field(out->designator + k, sizeof out->designator - k, v, len);
			} else {
				best = 0;	/* a binary vendor id: not a name */
			}
		}
		off += 4 + len;
	}
	return 0;
}

int
scsi_decode_vpd(const uint8_t *p, size_t n, struct scsi_info *out)
{
	if (n < 4 || (p[0] >> 5))
		return -EINVAL;
	size_t len = (size_t)sg_get_unaligned_be16(p + 2);
	size_t have = n - 4 < len ? n - 4 : len;	/* bytes of the page present */
	switch (p[1]) {
	case 0x80:
		ascii_field(out->serial, sizeof out->serial, p + 4, have);
		return 0;
	case 0x83:
		return vpd83(p, n, out);
	case 0x89:		/* ATA Information: SAT vendor, bytes 8..15 */
		out->sat = known_bool_of(true);
		if (have >= 12)
			ascii_field(out->sat_vendor, sizeof out->sat_vendor, p + 8, 8);
		return 0;
	case 0xb0:		/* Block Limits: 0 = not reported */
		if (have < 12)
			return -EINVAL;
		KNOWN_CLEAR(out->max_transfer_blocks);
		KNOWN_CLEAR(out->opt_transfer_blocks);
		if (be32(p + 8))
			KNOWN_SET(out->max_transfer_blocks, be32(p + 8));
		if (be32(p + 12))
			KNOWN_SET(out->opt_transfer_blocks, be32(p + 12));
		return 0;
	case 0xb1: {		/* Block Device Characteristics */
		if (have < 4)
			return -EINVAL;
		unsigned rate = sg_get_unaligned_be16(p + 4);
		KNOWN_CLEAR(out->rotation_rpm);
		if (rate == 1)
			KNOWN_SET(out->rotation_rpm, 0);	/* non-rotating */
		else if (rate >= 0x0401 && rate <= 0xfffe)
			KNOWN_SET(out->rotation_rpm, rate);
		KNOWN_CLEAR(out->form_factor);
		if (p[7] & 0xf)		/* 0 = not reported */
			KNOWN_SET(out->form_factor, p[7] & 0xf);
		return 0;
	}
	case 0xb2:		/* Logical Block Provisioning: LBPU byte 5 bit 7 */
		if (have < 2)
			return -EINVAL;
		out->lbp_unmap = known_bool_of(p[5] & 0x80);
		return 0;
	default:
		return -ENOTSUP;
	}
}

int
scsi_decode_readcap16(const uint8_t *p, size_t n, struct scsi_info *out)
{
	if (n < 14)
		return -EINVAL;
	uint64_t last = be64(p);
	uint32_t block = be32(p + 8);
	if (!block || last == UINT64_MAX)
		return -EINVAL;
	out->lba_count = known_u64_of(last + 1);
	out->logical_bytes = known_u64_of(block);
	bool prot = p[12] & 1;
	out->protection = known_bool_of(prot);
	KNOWN_CLEAR(out->protection_type);
	if (prot)
		KNOWN_SET(out->protection_type, ((p[12] >> 1) & 7) + 1);
	out->physical_exp = known_u64_of(p[13] & 0xf);
	if (n >= 16) {
		out->lowest_aligned = known_u64_of(sg_get_unaligned_be16(p + 14) & 0x3fff);
		out->lbp_enabled = known_bool_of(p[14] & 0x80);
	}
	out->format = scsi_format_of(&out->logical_bytes, &out->protection);
	return 0;
}

/* ---- LOG SENSE ---- */

/* A parameter's value as an unsigned big-endian number: up to 8 bytes. */
static struct known_u64
param_u64(const uint8_t *v, size_t len)
{
	struct known_u64 r = { 0 };
	if (!len || len > 8)
		return r;
	KNOWN_SET(r, sg_get_unaligned_be(len, v));
	return r;
}

/* Calls fn for each parameter of the page: code, value, value length. */
typedef void (*param_fn)(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
			 struct known_u64 *pair[2]);

static void
each_param(const uint8_t *p, size_t end, param_fn fn, struct scsi_health *h,
	   struct known_u64 *pair[2])
{
	for (size_t off = 4; off + 4 <= end;) {
		unsigned code = sg_get_unaligned_be16(p + off);
		size_t len = p[off + 3];
		if (off + 4 + len > end)
			break;		/* a truncated parameter is not read */
		fn(code, p + off + 4, len, h, pair);
		off += 4 + len;
	}
}

/* An error counter page: pair is where its corrected and uncorrected
 * totals land. */
static void
p_counter(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	  struct known_u64 *pair[2])
{
	(void)h;
	if (code == 3)
		*pair[0] = param_u64(v, len);
	else if (code == 6)
		*pair[1] = param_u64(v, len);
}

static void
p_nonmedium(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	    struct known_u64 *pair[2])
{
	(void)pair;
	if (code == 0)
		h->non_medium_errors = param_u64(v, len);
}

static void
p_temperature(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	    struct known_u64 *pair[2])
{
	(void)pair;
	/* byte 1 of the value, degrees Celsius; 0xFF = no valid reading */
	if (len < 2 || v[1] == 0xff)
		return;
	if (code == 0)
		h->temperature_c = known_i64_of(v[1]);
	else if (code == 1)
		h->trip_temperature_c = known_i64_of(v[1]);
}

static void
p_startstop(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	    struct known_u64 *pair[2])
{
	(void)pair;
	struct known_u64 x = param_u64(v, len);
	switch (code) {
	case 3: h->start_stop_cycles_limit = x; break;
	case 4: h->start_stop_cycles = x; break;
	case 5: h->load_unload_cycles_limit = x; break;
	case 6: h->load_unload_cycles = x; break;
	default: break;
	}
}

static void
p_bgscan(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	    struct known_u64 *pair[2])
{
	(void)pair;
	if (code != 0 || len < 12)
		return;		/* 0x0001.. are the medium scan results */
	h->power_on_minutes = known_u64_of(be32(v));
	h->bg_scan_status = known_u64_of(v[5]);
	h->bg_medium_scans = known_u64_of(sg_get_unaligned_be16(v + 10));
}

static void
p_ie(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	    struct known_u64 *pair[2])
{
	(void)pair;
	if (code != 0 || len < 2)
		return;
	h->ie_asc = known_u64_of(v[0]);
	h->ie_ascq = known_u64_of(v[1]);
	h->ie_text[0] = 0;
	if (v[0])
		sg_get_asc_ascq_str(v[0], v[1], (int)sizeof h->ie_text, h->ie_text);
	KNOWN_CLEAR(h->ie_temperature_c);
	if (len >= 3 && v[2] != 0xff)
		KNOWN_SET(h->ie_temperature_c, v[2]);
}

/* Self-test results: parameters 1..20, 1 the newest; an entry that never
 * ran is all zero (no code, no result, no time stamp).  pair[0]'s value is
 * the set of codes seen: a code given twice counts once. */
static void
p_selftest(unsigned code, const uint8_t *v, size_t len, struct scsi_health *h,
	    struct known_u64 *pair[2])
{
	if (code < 1 || code > 20 || len < 16 || (pair[0]->v >> code & 1))
		return;
	pair[0]->v |= 1ull << code;
	unsigned st_code = v[0] >> 5, result = v[0] & 0xf;
	unsigned hours = sg_get_unaligned_be16(v + 2);
	if (!st_code && !result && !hours && !v[1])
		return;
	h->selftest_entries.v++;
	if (result >= 3 && result <= 7)
		h->selftest_failed.v++;
	if (code != 1)
		return;
	h->selftest_last_code = known_u64_of(st_code);
	h->selftest_last_result = known_u64_of(result);
	h->selftest_last_hours = known_u64_of(hours);
	uint64_t lba = be64(v + 4);
	KNOWN_CLEAR(h->selftest_last_lba);
	if (result >= 3 && result <= 7 && lba != UINT64_MAX)
		KNOWN_SET(h->selftest_last_lba, lba);
}

static void
supported(const uint8_t *p, size_t end, struct scsi_health *h)
{
	size_t j = 0;
	h->pages[0] = 0;
	for (size_t i = 4; i < end && j + 4 < sizeof h->pages; i++)
		j += (size_t)snprintf(h->pages + j, sizeof h->pages - j, "%s%02x", j ? " " : "",
				      p[i] & 0x3f);
}

int
scsi_decode_log(const uint8_t *p, size_t n, struct scsi_health *out)
{
	if (n < 4)
		return -EINVAL;
	size_t end = 4 + (size_t)sg_get_unaligned_be16(p + 2);
	if (end > n)
		end = n;
	unsigned pc = p[0] & 0x3f;
	struct known_u64 *pair[2] = { NULL, NULL };
	if (p[1] && pc != 0)
		return -ENOTSUP;	/* a subpage: none of ours */
	switch (pc) {
	case 0x00:
		supported(p, end, out);
		return 0;
	case 0x02:
		pair[0] = &out->write_corrected, pair[1] = &out->write_uncorrected;
		each_param(p, end, p_counter, out, pair);
		break;
	case 0x03:
		pair[0] = &out->read_corrected, pair[1] = &out->read_uncorrected;
		each_param(p, end, p_counter, out, pair);
		break;
	case 0x05:
		pair[0] = &out->verify_corrected, pair[1] = &out->verify_uncorrected;
		each_param(p, end, p_counter, out, pair);
		break;
	case 0x06:
		each_param(p, end, p_nonmedium, out, pair);
		break;
	case 0x0d:
		each_param(p, end, p_temperature, out, pair);
		break;
	case 0x0e:
		each_param(p, end, p_startstop, out, pair);
		break;
	case 0x10:
		out->selftest_entries = known_u64_of(0);
		out->selftest_failed = known_u64_of(0);
		KNOWN_CLEAR(out->selftest_last_code);
		KNOWN_CLEAR(out->selftest_last_result);
		KNOWN_CLEAR(out->selftest_last_hours);
		KNOWN_CLEAR(out->selftest_last_lba);
		struct known_u64 seen = { 0 };
		pair[0] = &seen;
		each_param(p, end, p_selftest, out, pair);
		break;
	case 0x15:
		each_param(p, end, p_bgscan, out, pair);
		break;
	case 0x2f:
		each_param(p, end, p_ie, out, pair);
		break;
	default:
		return -ENOTSUP;
	}
	out->known = true;
	return 0;
}

bool
scsi_health_has_page(const struct scsi_health *h, unsigned pc)
{
	char want[4];
	snprintf(want, sizeof want, "%02x", pc & 0x3f);
	for (const char *s = h->pages; *s; s += s[2] ? 3 : 2)
		if (strncmp(s, want, 2) == 0)
			return true;
	return false;
}

int
scsi_decode_defects(const uint8_t *p, size_t n, bool is12, struct scsi_health *out)
{
	if (n < (is12 ? 8u : 4u))
		return -EINVAL;
	/* byte 1: PLISTV bit 4, GLISTV bit 3, the list format bits 2:0 */
	if (!(p[1] & 0x08))
		return -ENODATA;	/* no grown list in the answer */
	uint64_t len = is12 ? be32(p + 4) : sg_get_unaligned_be16(p + 2);
	unsigned fmt = p[1] & 7;
	unsigned each = fmt == 0 ? 4 : (fmt == 3 || fmt == 4 || fmt == 5) ? 8 : 0;
	if (!each)
		return -EINVAL;	/* a vendor or reserved format: no count */
	out->grown_defects = known_u64_of(len / each);
	out->known = true;
	return 0;
}

static const char *const st_results[16] = {
	"completed", "aborted (SEND DIAGNOSTIC)", "aborted", "failed (unknown error)",
	"failed (segment unknown)", "failed in segment 1", "failed in segment 2",
	"failed in another segment", [15] = "in progress",
};

const char *
scsi_selftest_result_text(uint64_t r)
{
	return r < 16 && st_results[r] ? st_results[r] : "reserved result";
}

bool
scsi_is_sat(const struct scsi_info *s)
{
	return s->sat.known && s->sat.v && strcmp(s->vendor, "ATA") == 0;
}
