/* fuzz_nvme - the NVMe decoders (inventory/nvme.c) on any bytes: the first
 * byte picks the page (0 identify controller, 1 identify namespace, 2 health
 * log, 3 error log entries, 4 self-test log), the rest is the page, cut or
 * zero-padded to its size; then what the writers make of the decoded
 * values (the warning bits' names, the self-test text, the wear). */
#include <libnvme.h>
#include "fuzz.h"
#include "inventory/nvme.h"
#include "inventory/wear.h"

static void
page(void *dst, size_t n, const uint8_t *data, size_t size)
{
	memset(dst, 0, n);
	memcpy(dst, data, size < n ? size : n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct nvme_info info;
	static struct nvme_id_ctrl ctrl;
	static struct nvme_id_ns ns;
	static struct nvme_smart_log smart;
	static struct nvme_error_log_page errs[16];
	static struct nvme_self_test_log st;
	char buf[256];
	if (size < 1)
		return 0;
	unsigned kind = data[0] % 5;
	data++, size--;
	memset(&info, 0, sizeof info);
	switch (kind) {
	case 0:
		page(&ctrl, sizeof ctrl, data, size);
		nvme_health_from_ctrl(&ctrl, &info);
		break;
	case 1:
		page(&ns, sizeof ns, data, size);
		nvme_health_from_ns(&ns, &info);
		if (info.lbaf_in_use.known && info.lbaf_in_use.v >= info.n_lbaf)
			abort();	/* the index a writer reads lbaf[] by */
		break;
	case 2:
		page(&smart, sizeof smart, data, size);
		nvme_health_from_smart(&smart, &info.health);
		break;
	case 3: {
		size_t n = size / sizeof errs[0];
		n = n > 16 ? 16 : n ? n : 1;
		page(errs, sizeof errs, data, size);
		nvme_health_from_errors(errs, n, &info);
		if (info.n_latest > sizeof info.latest / sizeof info.latest[0])
			abort();
		break;
	}
	default:
		page(&st, sizeof st, data, size);
		nvme_health_from_selftest(&st, &info);
		if (info.n_selftest > NVME_ST_LOG_ENTRIES)
			abort();
		break;
	}
	nvme_crit_text(info.health.critical_warning.v, buf, sizeof buf);
	const struct nvme_st_entry *e = nvme_st_failed(&info);
	if (e) {
		nvme_st_where(e, buf, sizeof buf);
		nvme_st_result_text(e->result);
	}
	struct drive_wear w;
	wear_from_nvme(&info.health, &w);
	wear_text(&w, buf, sizeof buf);
	return 0;
}
