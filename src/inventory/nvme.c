/* nvme.c - the NVMe drive class through libnvme: identify controller and
 * namespace, the SMART / health log (02h), the error log (01h), the
 * self-test log (06h).  The admin commands are libnvme's; the decoding of
 * its raw structs is ours, in pure functions a unit test feeds. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <libnvme.h>
#include "inventory/nvme.h"
#include "util/util.h"

#define KELVIN 273

_Static_assert(NVME_ST_LOG_ENTRIES == NVME_LOG_ST_MAX_RESULTS, "self-test log entries");

static const char *const crit_names[] = {
	"spare below threshold", "temperature threshold", "reliability degraded",
	"read-only", "volatile memory backup failed", "persistent memory read-only",
};

const char *
nvme_crit_text(uint64_t w, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = 0;
	for (size_t i = 0; i < sizeof crit_names / sizeof crit_names[0]; i++) {
		if (!(w & (1u << i)) || len >= n)
			continue;
		int k = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", crit_names[i]);
		len += k > 0 ? (size_t)k : 0;
	}
	return buf;
}

/* A fixed-width identify string: printable characters, trailing blanks cut. */
static void
id_str(char *dst, size_t n, const char *src, size_t len)
{
	size_t j = 0;
	for (size_t i = 0; i < len && j + 1 < n; i++)
		dst[j++] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : ' ';
	while (j && dst[j - 1] == ' ')
		j--;
	dst[j] = 0;
	size_t lead = strspn(dst, " ");
	memmove(dst, dst + lead, j - lead + 1);
}

/* A temperature threshold in kelvin, 0 = not reported. */
static struct known_i64
kelvin_c(uint16_t k)
{
	struct known_i64 r = { 0 };
	if (k)
		KNOWN_SET(r, (int64_t)k - KELVIN);
	return r;
}

void
nvme_health_from_ctrl(const struct nvme_id_ctrl *c, struct nvme_info *out)
{
	id_str(out->model, sizeof out->model, c->mn, sizeof c->mn);
	id_str(out->serial, sizeof out->serial, c->sn, sizeof c->sn);
	id_str(out->firmware, sizeof out->firmware, c->fr, sizeof c->fr);
	out->warning_temp_c = kelvin_c(le16toh(c->wctemp));
	out->critical_temp_c = kelvin_c(le16toh(c->cctemp));
	out->selftest_supported = known_bool_of(le16toh(c->oacs) & NVME_CTRL_OACS_SELF_TEST);
	out->error_log_capacity = known_u64_of((uint64_t)c->elpe + 1);
	out->known = true;
}

static bool
all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void
hex_id(char *dst, size_t n, const char *tag, const uint8_t *p, size_t len)
{
	size_t j = (size_t)snprintf(dst, n, "%s:", tag);
	for (size_t i = 0; i < len && j + 2 < n; i++, j += 2)
		snprintf(dst + j, n - j, "%02x", p[i]);
}

void
nvme_health_from_ns(const struct nvme_id_ns *ns, struct nvme_info *out)
{
	/* NGUID (16 bytes) outranks EUI64 (8); all zero means not given */
	out->ns_id[0] = 0;
	if (!all_zero(ns->nguid, sizeof ns->nguid))
		hex_id(out->ns_id, sizeof out->ns_id, "nguid", ns->nguid, sizeof ns->nguid);
	else if (!all_zero(ns->eui64, sizeof ns->eui64))
		hex_id(out->ns_id, sizeof out->ns_id, "eui64", ns->eui64, sizeof ns->eui64);
	out->ns_size_lba = known_u64_of(le64toh(ns->nsze));
	/* NLBAF is zero-based */
	out->n_lbaf = (unsigned)ns->nlbaf + 1;
	if (out->n_lbaf > NVME_HEALTH_LBAF_MAX)
		out->n_lbaf = NVME_HEALTH_LBAF_MAX;
	for (unsigned i = 0; i < out->n_lbaf; i++) {
		const struct nvme_lbaf *f = &ns->lbaf[i];
		out->lbaf[i].data_bytes = f->ds < 64 ? (uint64_t)1 << f->ds : 0;
		out->lbaf[i].meta_bytes = le16toh(f->ms);
		out->lbaf[i].rel_perf = f->rp & 3;
	}
	/* FLBAS bits 3:0, and 6:5 above them once there are more than 16 */
	unsigned idx = ns->flbas & NVME_NS_FLBAS_LOWER_MASK;
	if (out->n_lbaf > 16)
		idx |= (unsigned)((ns->flbas & NVME_NS_FLBAS_HIGHER_MASK) >> 5) << 4;
	KNOWN_CLEAR(out->lbaf_in_use);
	if (idx < out->n_lbaf && out->lbaf[idx].data_bytes)
		KNOWN_SET(out->lbaf_in_use, idx);
}

/* A 128-bit little-endian counter; past 64 bits it is not representable:
 * unknown (no drive is near that). */
static struct known_u64
le128(const uint8_t p[16])
{
	struct known_u64 r = { 0 };
	if (!all_zero(p + 8, 8))
		return r;
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	KNOWN_SET(r, v);
	return r;
}

void
nvme_health_from_smart(const struct nvme_smart_log *s, struct nvme_health *out)
{
	memset(out, 0, sizeof *out);
	out->known = true;
	out->critical_warning = known_u64_of(s->critical_warning);
	uint16_t k = (uint16_t)(s->temperature[0] | s->temperature[1] << 8);
	/* mandatory field; 0 K would be no sensor at all */
	out->temperature_c = kelvin_c(k);
	out->available_spare = known_u64_of(s->avail_spare);
	out->spare_threshold = known_u64_of(s->spare_thresh);
	out->percent_used = known_u64_of(s->percent_used);	/* may pass 100 */
	out->data_units_read = le128(s->data_units_read);
	out->data_units_written = le128(s->data_units_written);
	out->power_on_hours = le128(s->power_on_hours);
	out->power_cycles = le128(s->power_cycles);
	out->unsafe_shutdowns = le128(s->unsafe_shutdowns);
	out->media_errors = le128(s->media_errors);
	out->error_log_entries = le128(s->num_err_log_entries);
	out->warning_temp_minutes = known_u64_of(le32toh(s->warning_temp_time));
	out->critical_temp_minutes = known_u64_of(le32toh(s->critical_comp_time));
}

/* Keep entry e among the newest ones in out->latest (by error count). */
static void
keep_latest(const struct nvme_error_log_page *e, struct nvme_info *out)
{
	const unsigned cap = sizeof out->latest / sizeof out->latest[0];
	struct nvme_err_entry x = {
		.error_count = le64toh(e->error_count), .sqid = le16toh(e->sqid),
		.cmdid = le16toh(e->cmdid), .status = le16toh(e->status_field) >> 1,
		.lba = le64toh(e->lba),
	};
	uint32_t ns = le32toh(e->nsid);
	if (ns && ns != 0xffffffffu)
		KNOWN_SET(x.nsid, ns);
	unsigned i = out->n_latest < cap ? out->n_latest++ : cap;
	if (i == cap) {		/* full: it replaces the oldest, if newer */
		if (x.error_count <= out->latest[cap - 1].error_count)
			return;
		i = cap - 1;
	}
	for (; i > 0 && out->latest[i - 1].error_count < x.error_count; i--)
		out->latest[i] = out->latest[i - 1];
	out->latest[i] = x;
}

void
nvme_health_from_errors(const struct nvme_error_log_page *e, size_t n, struct nvme_info *out)
{
	uint64_t valid = 0, newest = 0;
	size_t at = n;
	out->n_latest = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t c = le64toh(e[i].error_count);
		if (!c)
			continue;	/* an empty entry */
		valid++;
		keep_latest(&e[i], out);
		if (c > newest)
			newest = c, at = i;
	}
	out->error_log_valid = known_u64_of(valid);
	KNOWN_CLEAR(out->latest_error_count);
	KNOWN_CLEAR(out->latest_error_status);
	if (at < n) {
		KNOWN_SET(out->latest_error_count, newest);
		/* status field: bit 0 is the phase tag */
		KNOWN_SET(out->latest_error_status, le16toh(e[at].status_field) >> 1);
	}
}

static const char *const st_results[] = {
	"completed without error", "aborted by a self-test command", "aborted by a controller reset",
	"aborted: namespace removed", "aborted by a format", "failed: fatal or unknown error",
	"failed: segment unknown", "failed: segment", "aborted: unknown reason",
	"aborted by a sanitize",
};

const char *
nvme_st_result_text(unsigned result)
{
	return result < sizeof st_results / sizeof st_results[0] ? st_results[result] : "reserved result";
}

const struct nvme_st_entry *
nvme_st_failed(const struct nvme_info *n)
{
	if (!n->selftest_failed_at.known || n->selftest_failed_at.v >= n->n_selftest)
		return NULL;
	return &n->selftest_log[n->selftest_failed_at.v];
}

const char *
nvme_st_where(const struct nvme_st_entry *e, char *buf, size_t n)
{
	char ns[40] = "";
	if (e->nsid.known)
		snprintf(ns, sizeof ns, " (namespace %llu)", (unsigned long long)e->nsid.v);
	if (e->failing_lba.known)
		snprintf(buf, n, "LBA %llu%s", (unsigned long long)e->failing_lba.v, ns);
	else
		snprintf(buf, n, "LBA not given%s", ns);
	return buf;
}

/* One self-test result; dsts 0xf in bits 3:0 is an unused entry (false). */
static bool
selftest_entry(const struct nvme_st_result *r, struct nvme_st_entry *e)
{
	memset(e, 0, sizeof *e);
	if ((r->dsts & 0xf) == 0xf)
		return false;
	e->result = r->dsts & 0xf;
	e->code = r->dsts >> 4;
	e->segment = r->seg;
	e->valid = r->vdi;
	e->power_on_hours = le64toh(r->poh);
	/* VDI: bit 0 NSID, 1 FLBA, 2 SCT, 3 SC valid */
	if (r->vdi & NVME_ST_VALID_DIAG_INFO_NSID)
		KNOWN_SET(e->nsid, le32toh(r->nsid));
	if (r->vdi & NVME_ST_VALID_DIAG_INFO_FLBA)
		KNOWN_SET(e->failing_lba, le64toh(r->flba));
	if (r->vdi & NVME_ST_VALID_DIAG_INFO_SCT)
		KNOWN_SET(e->sct, r->sct & 7);
	if (r->vdi & NVME_ST_VALID_DIAG_INFO_SC)
		KNOWN_SET(e->sc, r->sc);
	return true;
}

void
nvme_health_from_selftest(const struct nvme_self_test_log *l, struct nvme_info *out)
{
	out->selftest_current = known_u64_of(l->current_operation & 0xf);
	KNOWN_CLEAR(out->selftest_percent);
	if (l->current_operation & 0xf)
		KNOWN_SET(out->selftest_percent, l->completion & 0x7f);
	KNOWN_CLEAR(out->selftest_last_result);
	KNOWN_CLEAR(out->selftest_last_code);
	/* result 0 is the newest; 0xf in bits 3:0 marks an unused entry */
	uint8_t dsts = l->result[0].dsts;
	if ((dsts & 0xf) != 0xf) {
		KNOWN_SET(out->selftest_last_result, dsts & 0xf);
		KNOWN_SET(out->selftest_last_code, dsts >> 4);
	}
	/* the whole log, newest first; the newest failed one (results 5..7:
	 * a segment, an unknown segment or the namespace failed it) */
	out->n_selftest = 0;
	KNOWN_CLEAR(out->selftest_failed_at);
	for (unsigned i = 0; i < NVME_ST_LOG_ENTRIES; i++) {
		struct nvme_st_entry *e = &out->selftest_log[out->n_selftest];
		if (!selftest_entry(&l->result[i], e))
			continue;
		if (!out->selftest_failed_at.known && e->result >= 5 && e->result <= 7)
			KNOWN_SET(out->selftest_failed_at, out->n_selftest);
		out->n_selftest++;
	}
}

/* Every admin command here is bounded: a hung drive costs NVME_ADMIN_TIMEOUT_MS,
 * not the kernel's default of 60 s per command (0 in libnvme's args). */
static int
identify_cns(int fd, enum nvme_identify_cns cns, __u32 nsid, void *data)
{
	struct nvme_identify_args a = {
		.data = data, .args_size = sizeof a, .fd = fd, .timeout = NVME_ADMIN_TIMEOUT_MS,
		.cns = cns, .csi = NVME_CSI_NVM, .nsid = nsid, .cntid = NVME_CNTLID_NONE,
		.cns_specific_id = NVME_CNSSPECID_NONE, .uuidx = NVME_UUID_NONE,
	};
	return nvme_identify(&a);
}

static int
get_log(int fd, enum nvme_cmd_get_log_lid lid, bool rae, __u32 len, void *log)
{
	struct nvme_get_log_args a = {
		.log = log, .args_size = sizeof a, .fd = fd, .timeout = NVME_ADMIN_TIMEOUT_MS,
		.lid = lid, .len = len, .nsid = NVME_NSID_ALL, .csi = NVME_CSI_NVM,
		.lsi = NVME_LOG_LSI_NONE, .lsp = NVME_LOG_LSP_NONE, .uuidx = NVME_UUID_NONE,
		.rae = rae,
	};
	return nvme_get_log_page(fd, NVME_LOG_PAGE_PDU_SIZE, &a);
}

/* libnvme answers the NVMe status (> 0), or -1 with errno. */
static int
nvme_rc(int rc, const char *what, char *reason, size_t n)
{
	if (rc == 0)
		return 0;
	if (rc > 0) {
		snprintf(reason, n, "%s: NVMe status 0x%x", what, (unsigned)rc);
		return -EIO;
	}
	int e = errno ? errno : EIO;
	snprintf(reason, n, "%s: %s", what, strerror(e));
	return -e;
}

static void
save_page(const char *dir, const char *name, const char *what, const void *p, size_t len)
{
	char path[PATH_MAX];
	if (!dir || pathf(path, sizeof path, "%s/%s.nvme-%s.bin", dir, name, what))
		return;
	FILE *f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(p, 1, len, f);
	fclose(f);
}

/* The optional logs: each failure says why in its own field. */
static void
read_logs(int fd, const char *name, const char *save_dir, struct nvme_info *out)
{
	struct nvme_error_log_page errs[16];
	size_t n = out->error_log_capacity.v < 16 ? (size_t)out->error_log_capacity.v : 16;
	memset(errs, 0, sizeof errs);
	if (n && get_log(fd, NVME_LOG_LID_ERROR, true, (__u32)(n * sizeof errs[0]), errs) == 0)
		nvme_health_from_errors(errs, n, out);

	if (!out->selftest_supported.v) {
		snprintf(out->selftest_reason, sizeof out->selftest_reason,
			 "self-test not supported (OACS)");
		return;
	}
	struct nvme_self_test_log st;
	memset(&st, 0, sizeof st);
	int rc = nvme_rc(get_log(fd, NVME_LOG_LID_DEVICE_SELF_TEST, false, sizeof st, &st), "self-test log",
			 out->selftest_reason, sizeof out->selftest_reason);
	if (rc == 0) {
		nvme_health_from_selftest(&st, out);
		save_page(save_dir, name, "selftest", &st, sizeof st);
	}
}

static int
read_ns(int fd, const char *name, const char *save_dir, struct nvme_info *out)
{
	struct nvme_id_ns ns;
	memset(&ns, 0, sizeof ns);
	errno = 0;
	int rc = nvme_rc(identify_cns(fd, NVME_IDENTIFY_CNS_NS, (__u32)out->nsid.v, &ns),
			 "identify namespace", out->reason, sizeof out->reason);
	if (rc == 0) {
		nvme_health_from_ns(&ns, out);
		save_page(save_dir, name, "ns", &ns, sizeof ns);
	}
	return rc;
}

int
nvme_ns_format_read(const char *path, struct nvme_info *out)
{
	memset(out, 0, sizeof *out);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		snprintf(out->reason, sizeof out->reason, "open %s: %s", path, strerror(e));
		return -e;
	}
	__u32 nsid = 0;
	int rc = nvme_rc(nvme_get_nsid(fd, &nsid), "namespace id", out->reason, sizeof out->reason);
	if (rc == 0) {
		out->nsid = known_u64_of(nsid);
		rc = read_ns(fd, NULL, NULL, out);
	}
	close(fd);
	return rc;
}

int
nvme_health_read(const char *path, const char *name, const char *save_dir,
		 struct nvme_info *out)
{
	memset(out, 0, sizeof *out);
	snprintf(out->health.reason, sizeof out->health.reason, "not read");
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int e = errno;
		snprintf(out->reason, sizeof out->reason, "open %s: %s", path, strerror(e));
		snprintf(out->health.reason, sizeof out->health.reason, "%s", out->reason);
		return -e;
	}
	__u32 nsid = 0;
	if (nvme_get_nsid(fd, &nsid) == 0)
		out->nsid = known_u64_of(nsid);

	struct nvme_id_ctrl ctrl;
	memset(&ctrl, 0, sizeof ctrl);
	errno = 0;
	int rc = nvme_rc(identify_cns(fd, NVME_IDENTIFY_CNS_CTRL, NVME_NSID_NONE, &ctrl), "identify controller", out->reason,
			 sizeof out->reason);
	if (rc < 0) {
		snprintf(out->health.reason, sizeof out->health.reason, "%s", out->reason);
		close(fd);
		return rc;
	}
	nvme_health_from_ctrl(&ctrl, out);
	save_page(save_dir, name, "ctrl", &ctrl, sizeof ctrl);

	if (out->nsid.known)
		read_ns(fd, name, save_dir, out);

	struct nvme_smart_log smart;
	memset(&smart, 0, sizeof smart);
	errno = 0;
	if (nvme_rc(get_log(fd, NVME_LOG_LID_SMART, true, sizeof smart, &smart), "health log",
		    out->health.reason, sizeof out->health.reason) == 0) {
		nvme_health_from_smart(&smart, &out->health);
		save_page(save_dir, name, "smart", &smart, sizeof smart);
	}
	read_logs(fd, name, save_dir, out);
	close(fd);
	return 0;
}
