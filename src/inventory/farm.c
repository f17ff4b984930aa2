/* farm.c - Seagate's FARM log, decoded from its raw bytes (ATA log 0xA6,
 * SCSI log page 0x3D/0x03), and its comparison with SMART.  Pure: the
 * readers (ata-sgio.c, farm-scsi.c) hand it the bytes they got. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "inventory/farm.h"

/* field indices (8 bytes each) in the ATA pages and SCSI parameters */
enum { H_SIG = 0, H_MAJOR = 1, H_MINOR = 2 };
enum { D_SERIAL = 2, D_SERIAL2 = 3, D_HEADS = 11, D_FW = 14, D_FW2 = 15, D_POH = 19,
       D_SPOH = 20, D_HFH = 21, D_CYCLES = 23, D_MODEL = 32, D_MODEL_N = 10, D_ASSEMBLY = 45,
       D_FIELDS = 47 };
/* SCSI drive information: same start, then its own places */
enum { S_CYCLES = 23, S_ASSEMBLY = 30, S_FIELDS = 31 };
/* ATA page 5: write power-on time by head */
enum { R_HEAD_HOURS = 770 };
/* SCSI drive information continued (parameter 6): product id */
enum { S2_PRODUCT = 3, S2_PRODUCT_N = 4 };

static uint64_t
le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t
be64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* A field: known when its top byte says supported and valid. */
static struct known_u64
field(uint64_t raw)
{
	if (raw >> 56 != 0xC0)
		return (struct known_u64){ 0 };
	return known_u64_of(raw & 0x00FFFFFFFFFFFFFFull);
}

/* Four characters of an ID field, ATA-string order (each 16-bit word holds
 * two characters, the first in its high byte), appended to dst. */
static void
id_chars(uint64_t raw, char *dst, size_t n)
{
	struct known_u64 f = field(raw);
	if (!f.known)
		return;
	uint32_t v = (uint32_t)f.v;
	char c[4] = { (char)(v >> 8), (char)v, (char)(v >> 24), (char)(v >> 16) };
	size_t o = strlen(dst);
	for (int i = 0; i < 4 && o + 1 < n; i++)
		if (c[i] >= 32 && c[i] < 127)
			dst[o++] = c[i];
	dst[o] = '\0';
}

static void
trim(char *s)
{
	size_t n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	size_t k = 0;
	while (s[k] == ' ')
		k++;
	memmove(s, s + k, n - k + 1);
}

/* The drive information fields both logs share (f: field getter over the
 * page or parameter), then their own. */
typedef uint64_t (*get_fn)(const uint8_t *base, unsigned idx);

static uint64_t get_le(const uint8_t *b, unsigned i) { return le64(b + 8 * (size_t)i); }
static uint64_t get_be(const uint8_t *b, unsigned i) { return be64(b + 8 * (size_t)i); }

static void
drive_info(const uint8_t *d, get_fn g, bool scsi, struct farm_info *out)
{
	id_chars(g(d, D_SERIAL), out->serial, sizeof out->serial);
	id_chars(g(d, D_SERIAL2), out->serial, sizeof out->serial);
	id_chars(g(d, D_FW), out->firmware, sizeof out->firmware);
	id_chars(g(d, D_FW2), out->firmware, sizeof out->firmware);
	out->heads = field(g(d, D_HEADS));
	out->power_on_hours = field(g(d, D_POH));
	out->power_cycles = field(g(d, scsi ? S_CYCLES : D_CYCLES));
	if (!scsi) {
		out->spindle_hours = field(g(d, D_SPOH));
		out->head_flight_hours = field(g(d, D_HFH));
		for (unsigned i = 0; i < D_MODEL_N; i++)
			id_chars(g(d, D_MODEL + i), out->model, sizeof out->model);
	}
	id_chars(g(d, scsi ? S_ASSEMBLY : D_ASSEMBLY), out->assembly, sizeof out->assembly);
	trim(out->serial);
	trim(out->firmware);
	trim(out->model);
}

static void
reset(struct farm_info *out, const char *src)
{
	memset(out, 0, sizeof *out);
	snprintf(out->source, sizeof out->source, "%s", src);
}

int
farm_ata_decode(const uint8_t *log, size_t len, struct farm_info *out)
{
	reset(out, "ATA log 0xA6");
	if (!log || len < 2 * FARM_ATA_PAGE) {
		snprintf(out->reason, sizeof out->reason, "FARM log too short (%zu bytes, its header and "
			 "drive information need %u)", log ? len : 0, 2 * FARM_ATA_PAGE);
		return -EINVAL;
	}
	struct known_u64 sig = field(le64(log));
	if (!sig.known || sig.v != FARM_SIGNATURE) {
		snprintf(out->reason, sizeof out->reason, "no FARM signature in log 0xA6 (0x%016" PRIx64 ")",
			 le64(log));
		return -EINVAL;
	}
	out->major = field(le64(log + 8 * H_MAJOR));
	out->minor = field(le64(log + 8 * H_MINOR));
	drive_info(log + FARM_ATA_PAGE, get_le, false, out);
	const uint8_t *rel = log + 5 * (size_t)FARM_ATA_PAGE;
	if (len >= FARM_ATA_SIZE && out->heads.known) {
		unsigned nh = out->heads.v > FARM_MAX_HEADS ? FARM_MAX_HEADS : (unsigned)out->heads.v;
		for (unsigned h = 0; h < nh; h++) {
			out->head_hours[h] = field(le64(rel + 8 * (size_t)(R_HEAD_HOURS + h)));
			if (out->head_hours[h].known)
				out->n_head_hours = h + 1;
		}
	}
	out->known = true;
	return 0;
}

int
farm_scsi_decode(const uint8_t *p, size_t len, struct farm_info *out)
{
	reset(out, "SCSI log 0x3D/0x03");
	if (!p || len < 4 || (p[0] & 0x3F) != FARM_SCSI_PAGE || p[1] != FARM_SCSI_SUBPAGE) {
		snprintf(out->reason, sizeof out->reason, "not a FARM log page (page 0x%02x/0x%02x)",
			 p && len >= 2 ? p[0] & 0x3F : 0, p && len >= 2 ? p[1] : 0);
		return -EINVAL;
	}
	size_t end = 4 + ((size_t)p[2] << 8 | p[3]);
	if (end > len)
		end = len;	/* decode what arrived */
	bool sig = false;
	for (size_t off = 4; off + 4 <= end;) {
		unsigned code = (unsigned)p[off] << 8 | p[off + 1];
		size_t plen = p[off + 3];
		const uint8_t *d = p + off + 4;
		if (off + 4 + plen > end)
			break;		/* a truncated parameter: the rest is not there */
		unsigned nf = (unsigned)(plen / 8);
		if (code == 0 && nf > H_MINOR) {
			struct known_u64 s = field(be64(d));
			sig = s.known && s.v == FARM_SIGNATURE;
			out->major = field(be64(d + 8 * H_MAJOR));
			out->minor = field(be64(d + 8 * H_MINOR));
		} else if (code == 1 && sig && nf >= S_FIELDS) {
			drive_info(d, get_be, true, out);
		} else if (code == 6 && sig && nf >= S2_PRODUCT + S2_PRODUCT_N) {
			out->model[0] = '\0';
			for (unsigned i = 0; i < S2_PRODUCT_N; i++)
				id_chars(be64(d + 8 * (size_t)(S2_PRODUCT + i)), out->model, sizeof out->model);
			trim(out->model);
		}
		off += 4 + plen;
	}
	if (!sig) {
		snprintf(out->reason, sizeof out->reason, "no FARM signature in its log header parameter");
		return -EINVAL;
	}
	out->known = true;
	return 0;
}

const char *
farm_thousands(uint64_t v, char *buf, size_t n)
{
	char d[24];
	int len = snprintf(d, sizeof d, "%" PRIu64, v);
	size_t o = 0;
	for (int i = 0; i < len && o + 1 < n; i++) {
		if (i && (len - i) % 3 == 0 && o + 2 < n)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	if (n)
		buf[o < n ? o : n - 1] = '\0';
	return buf;
}

/* serials equal, blanks and case aside; FARM keeps 8 characters, so a
 * longer drive serial (a SAS drive's VPD 0x80) that starts with it is the
 * same */
static bool
serial_same(const char *a, const char *farm)
{
	const char *b = farm;
	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (!*a || !*b)
			return !*b && (!*a || strlen(farm) >= 8);
		if (toupper((unsigned char)*a) != toupper((unsigned char)*b))
			return false;
		a++;
		b++;
	}
}

int
farm_compare(const struct farm_info *f, const struct known_u64 *smart_hours, const char *smart_name,
	     const char *serial, char *msg, size_t n)
{
	int found = 0;
	if (n)
		msg[0] = '\0';
	if (!f || !f->known)
		return 0;
	if (smart_hours && smart_hours->known && f->power_on_hours.known) {
		uint64_t a = smart_hours->v, b = f->power_on_hours.v;
		uint64_t gap = a > b ? a - b : b - a, big = a > b ? a : b;
		uint64_t limit = big / 50 > 48 ? big / 50 : 48;	/* max(48 h, 2 %) */
		if (gap > limit) {
			char x[32], y[32];
			size_t o = strlen(msg);
			snprintf(msg + o, n - o, "%s%s says %s h, FARM says %s h", o ? "; " : "",
				 smart_name ? smart_name : "SMART 9", farm_thousands(a, x, sizeof x),
				 farm_thousands(b, y, sizeof y));
			found++;
		}
	}
	if (serial && serial[0] && f->serial[0] && !serial_same(serial, f->serial)) {
		size_t o = strlen(msg);
		if (o < n)
			snprintf(msg + o, n - o, "%sserial %s, FARM's serial %s", o ? "; " : "", serial,
				 f->serial);
		found++;
	}
	return found;
}

int
farm_text(const struct farm_info *f, const struct known_u64 *smart_hours, const char *serial, char *buf,
	  size_t n)
{
	if (!f->known) {
		snprintf(buf, n, "FARM: unknown (%s)", f->reason[0] ? f->reason : "not read");
		return 0;
	}
	char msg[256], h[40] = "unknown", th[32];
	int c = farm_compare(f, smart_hours, "SMART 9", serial, msg, sizeof msg);
	if (f->power_on_hours.known)
		snprintf(h, sizeof h, "%s h", farm_thousands(f->power_on_hours.v, th, sizeof th));
	if (c)
		snprintf(buf, n, "FARM %s (%s), mismatch: %s", h, f->source, msg);
	else
		snprintf(buf, n, "FARM %s (%s)%s", h, f->source, smart_hours && smart_hours->known &&
			 f->power_on_hours.known ? ", agrees with SMART 9" : "");
	return c;
}
