/* inventory-json.c - the "inventory" section of the schema-1 document.
 * Every unknown fact is null (or {"known": false, "reason": ...}). */
#include <stdio.h>
#include <string.h>
#include "inventory/wear.h"
#include "report/doc.h"

#define ADD(o, k, v) json_object_object_add((o), (k), (v))

static struct json_object *
bool_or_null(const struct known_u64 *v)
{
	return v->known ? json_object_new_boolean(v->v != 0) : NULL;
}

static struct json_object *
strlist_json(const struct strlist *l)
{
	struct json_object *a = json_object_new_array();
	for (size_t i = 0; i < l->n; i++)
		json_object_array_add(a, json_object_new_string(l->v[i]));
	return a;
}

static const char *
zoned_name(uint64_t z)
{
	static const char *const names[] = { "none", "host-aware", "device-managed", "reserved" };
	return z < 4 ? names[z] : "reserved";
}

static const char *
ata_state_name(enum ata_state s)
{
	switch (s) {
	case ATA_NOT_ATA: return "not ata";
	case ATA_PENDING: return "pending";
	case ATA_OK: return "ok";
	case ATA_NO_ANSWER: return "no answer";
	case ATA_FAILED: return "failed";
	}
	return "unknown";
}

/* "ok", "no access (EPERM)", "unchecked", "gone". */
void
access_text(const struct drive *d, char *buf, size_t n)
{
	switch (d->access) {
	case ACC_OK: snprintf(buf, n, "ok"); break;
	case ACC_UNCHECKED: snprintf(buf, n, "unchecked"); break;
	case ACC_GONE: snprintf(buf, n, "gone"); break;
	case ACC_DENIED: {
		char eb[16];
		snprintf(buf, n, "no access (%s)", errno_name(d->access_errno, eb, sizeof eb));
		break;
	}
	}
}

static struct json_object *
identify_json(const struct ata_identify *id)
{
	struct json_object *o = json_object_new_object();
	ADD(o, "model", doc_str(id->model));
	ADD(o, "serial", doc_str(id->serial));
	ADD(o, "firmware", doc_str(id->firmware));
	ADD(o, "capacity_bytes", doc_known_u64(&id->capacity_bytes));
	ADD(o, "sectors", doc_known_u64(&id->sectors));
	ADD(o, "lba48", json_object_new_boolean(id->lba48));
	ADD(o, "sector_size_reported", json_object_new_boolean(id->sector_size_reported));
	ADD(o, "logical", doc_known_u64(&id->logical));
	ADD(o, "physical", doc_known_u64(&id->physical));
	ADD(o, "alignment_offset", doc_known_u64(&id->alignment_offset));
	ADD(o, "rotation_rpm", id->rotation_rpm.known && !id->ssd ? doc_known_u64(&id->rotation_rpm) : NULL);
	ADD(o, "ssd", id->rotation_rpm.known ? json_object_new_boolean(id->ssd) : NULL);
	ADD(o, "trim", bool_or_null(&id->trim));
	ADD(o, "trim_deterministic", bool_or_null(&id->trim_deterministic));
	ADD(o, "trim_zeroed", bool_or_null(&id->trim_zeroed));
	ADD(o, "zoned", id->zoned.known ? json_object_new_string(zoned_name(id->zoned.v)) : NULL);
	ADD(o, "ncq_depth", doc_known_u64(&id->ncq_depth));
	ADD(o, "sata_max_gbps", doc_known_dbl(&id->sata_max_gbps));
	ADD(o, "sata_cur_gbps", doc_known_dbl(&id->sata_cur_gbps));
	ADD(o, "smart_supported", bool_or_null(&id->smart_supported));
	return o;
}

static struct json_object *
smart_json(const struct smart_info *s)
{
	struct json_object *o = json_object_new_object();
	ADD(o, "known", json_object_new_boolean(s->known));
	if (!s->known) {
		ADD(o, "reason", doc_str(s->reason[0] ? s->reason : "not read"));
		return o;
	}
	ADD(o, "overall", doc_str(s->overall));
	ADD(o, "status_good", bool_or_null(&s->status_good));
	ADD(o, "temperature_c", doc_known_dbl(&s->temperature_c));
	ADD(o, "power_on_hours", doc_known_u64(&s->power_on_hours));
	ADD(o, "reallocated", doc_known_u64(&s->reallocated));
	ADD(o, "pending", doc_known_u64(&s->pending));
	ADD(o, "offline_uncorrectable", doc_known_u64(&s->offline_uncorrectable));
	struct json_object *a = json_object_new_array();
	for (size_t i = 0; i < s->n_attrs; i++) {
		const struct smart_attr *t = &s->attrs[i];
		struct json_object *x = json_object_new_object();
		ADD(x, "id", json_object_new_int(t->id));
		ADD(x, "name", doc_str(t->name));
		ADD(x, "value", doc_known_u64(&t->value));
		ADD(x, "worst", doc_known_u64(&t->worst));
		ADD(x, "threshold", doc_known_u64(&t->threshold));
		ADD(x, "raw", json_object_new_int64((int64_t)t->raw));
		ADD(x, "pretty", doc_str(t->pretty));
		ADD(x, "prefailure", json_object_new_boolean(t->prefailure));
		ADD(x, "failing_now", json_object_new_boolean(t->failing_now));
		ADD(x, "failed_past", json_object_new_boolean(t->failed_past));
		json_object_array_add(a, x);
	}
	ADD(o, "attributes", a);
	return o;
}

/* The NVMe class: identity, namespace, health, logs; null when unknown. */
static struct json_object *
nvme_health_json(const struct nvme_health *h)
{
	struct json_object *o = json_object_new_object();
	char cw[160];
	ADD(o, "known", json_object_new_boolean(h->known));
	ADD(o, "reason", h->known ? NULL : doc_str(h->reason));
	ADD(o, "critical_warning", doc_known_u64(&h->critical_warning));
	ADD(o, "critical_warning_text", h->critical_warning.known ?
	    json_object_new_string(nvme_crit_text(h->critical_warning.v, cw, sizeof cw)) : NULL);
	ADD(o, "temperature_c", doc_known_i64(&h->temperature_c));
	ADD(o, "available_spare", doc_known_u64(&h->available_spare));
	ADD(o, "spare_threshold", doc_known_u64(&h->spare_threshold));
	ADD(o, "percent_used", doc_known_u64(&h->percent_used));
	ADD(o, "data_units_read", doc_known_u64(&h->data_units_read));
	ADD(o, "data_units_written", doc_known_u64(&h->data_units_written));
	ADD(o, "power_on_hours", doc_known_u64(&h->power_on_hours));
	ADD(o, "power_cycles", doc_known_u64(&h->power_cycles));
	ADD(o, "unsafe_shutdowns", doc_known_u64(&h->unsafe_shutdowns));
	ADD(o, "media_errors", doc_known_u64(&h->media_errors));
	ADD(o, "error_log_entries", doc_known_u64(&h->error_log_entries));
	ADD(o, "warning_temp_minutes", doc_known_u64(&h->warning_temp_minutes));
	ADD(o, "critical_temp_minutes", doc_known_u64(&h->critical_temp_minutes));
	return o;
}

/* One self-test log result (the VDI bits say which fields are valid). */
static struct json_object *
nvme_st_json(const struct nvme_st_entry *e)
{
	struct json_object *j = json_object_new_object();
	ADD(j, "result", json_object_new_int((int)e->result));
	ADD(j, "result_text", json_object_new_string(nvme_st_result_text(e->result)));
	ADD(j, "code", json_object_new_int((int)e->code));
	ADD(j, "segment", json_object_new_int((int)e->segment));
	ADD(j, "valid_bits", json_object_new_int((int)e->valid));
	ADD(j, "power_on_hours", json_object_new_int64((int64_t)e->power_on_hours));
	ADD(j, "nsid", doc_known_u64(&e->nsid));
	ADD(j, "failing_lba", doc_known_u64(&e->failing_lba));
	ADD(j, "status_code_type", doc_known_u64(&e->sct));
	ADD(j, "status_code", doc_known_u64(&e->sc));
	return j;
}

static struct json_object *
nvme_json(const struct nvme_info *n)
{
	struct json_object *o = json_object_new_object(), *x;
	ADD(o, "known", json_object_new_boolean(n->known));
	ADD(o, "reason", n->known ? NULL : doc_str(n->reason));
	ADD(o, "model", doc_str(n->model));
	ADD(o, "serial", doc_str(n->serial));
	ADD(o, "firmware", doc_str(n->firmware));
	ADD(o, "warning_temp_c", doc_known_i64(&n->warning_temp_c));
	ADD(o, "critical_temp_c", doc_known_i64(&n->critical_temp_c));
	ADD(o, "error_log_capacity", doc_known_u64(&n->error_log_capacity));

	x = json_object_new_object();
	ADD(x, "nsid", doc_known_u64(&n->nsid));
	ADD(x, "id", doc_str(n->ns_id));
	ADD(x, "size_lba", doc_known_u64(&n->ns_size_lba));
	struct json_object *fs = json_object_new_array();
	for (unsigned i = 0; i < n->n_lbaf; i++) {
		struct json_object *f = json_object_new_object();
		ADD(f, "index", json_object_new_int((int)i));
		ADD(f, "data_bytes", json_object_new_int64((int64_t)n->lbaf[i].data_bytes));
		ADD(f, "metadata_bytes", json_object_new_int64((int64_t)n->lbaf[i].meta_bytes));
		ADD(f, "relative_performance", json_object_new_int((int)n->lbaf[i].rel_perf));
		ADD(f, "in_use", json_object_new_boolean(n->lbaf_in_use.known &&
							 n->lbaf_in_use.v == i));
		json_object_array_add(fs, f);
	}
	ADD(x, "lba_formats", fs);
	ADD(x, "lba_format_in_use", doc_known_u64(&n->lbaf_in_use));
	ADD(o, "namespace", x);

	ADD(o, "health", nvme_health_json(&n->health));

	x = json_object_new_object();
	ADD(x, "valid_entries", doc_known_u64(&n->error_log_valid));
	ADD(x, "latest_error_count", doc_known_u64(&n->latest_error_count));
	ADD(x, "latest_status", doc_known_u64(&n->latest_error_status));
	struct json_object *es = json_object_new_array();
	for (unsigned i = 0; i < n->n_latest; i++) {
		const struct nvme_err_entry *e = &n->latest[i];
		struct json_object *j = json_object_new_object();
		ADD(j, "error_count", json_object_new_int64((int64_t)e->error_count));
		ADD(j, "sqid", json_object_new_int((int)e->sqid));
		ADD(j, "cmdid", json_object_new_int((int)e->cmdid));
		ADD(j, "status", json_object_new_int((int)e->status));
		ADD(j, "lba", json_object_new_int64((int64_t)e->lba));
		ADD(j, "nsid", doc_known_u64(&e->nsid));
		json_object_array_add(es, j);
	}
	ADD(x, "latest", es);
	ADD(o, "error_log", x);

	x = json_object_new_object();
	ADD(x, "supported", doc_known_bool(&n->selftest_supported));
	ADD(x, "reason", doc_str(n->selftest_reason));
	ADD(x, "current_operation", doc_known_u64(&n->selftest_current));
	ADD(x, "percent_done", doc_known_u64(&n->selftest_percent));
	ADD(x, "last_result", doc_known_u64(&n->selftest_last_result));
	ADD(x, "last_code", doc_known_u64(&n->selftest_last_code));
	struct json_object *sl = json_object_new_array();
	for (unsigned i = 0; i < n->n_selftest; i++)
		json_object_array_add(sl, nvme_st_json(&n->selftest_log[i]));
	ADD(x, "log", sl);
	const struct nvme_st_entry *bad = nvme_st_failed(n);
	ADD(x, "newest_failed", bad ? nvme_st_json(bad) : NULL);
	ADD(o, "self_test", x);
	return o;
}

/* The drive's SSD wear (inventory/wear.c): percent used with its source,
 * or null with the reason; bytes written beside it. */
static struct json_object *
wear_json(const struct drive *d)
{
	struct drive_wear w;
	wear_of_drive(d, &w);
	struct json_object *o = json_object_new_object();
	ADD(o, "percent_used", doc_known_u64(&w.percent_used));
	ADD(o, "source", w.percent_used.known ? doc_str(w.source) : NULL);
	ADD(o, "reason", w.percent_used.known ? NULL : doc_str(w.reason));
	ADD(o, "bytes_written", doc_known_u64(&w.bytes_written));
	ADD(o, "written_source", w.bytes_written.known ? doc_str(w.written_source) : NULL);
	return o;
}

static struct json_object *
scsi_health_json(const struct scsi_health *h)
{
	struct json_object *o = json_object_new_object(), *x;
	ADD(o, "known", json_object_new_boolean(h->known));
	ADD(o, "reason", h->known ? NULL : doc_str(h->reason));
	ADD(o, "log_pages", doc_str(h->pages));
	ADD(o, "missing_pages", doc_str(h->missing));
	ADD(o, "temperature_c", doc_known_i64(&h->temperature_c));
	ADD(o, "trip_temperature_c", doc_known_i64(&h->trip_temperature_c));
	static const char *const names[3] = { "write", "read", "verify" };
	const struct known_u64 *cnt[3][2] = {
		{ &h->write_corrected, &h->write_uncorrected },
		{ &h->read_corrected, &h->read_uncorrected },
		{ &h->verify_corrected, &h->verify_uncorrected },
	};
	for (int i = 0; i < 3; i++) {
		x = json_object_new_object();
		ADD(x, "corrected", doc_known_u64(cnt[i][0]));
		ADD(x, "uncorrected", doc_known_u64(cnt[i][1]));
		ADD(o, names[i], x);
	}
	ADD(o, "non_medium_errors", doc_known_u64(&h->non_medium_errors));
	ADD(o, "grown_defects", doc_known_u64(&h->grown_defects));
	ADD(o, "start_stop_cycles", doc_known_u64(&h->start_stop_cycles));
	ADD(o, "start_stop_cycles_limit", doc_known_u64(&h->start_stop_cycles_limit));
	ADD(o, "load_unload_cycles", doc_known_u64(&h->load_unload_cycles));
	ADD(o, "load_unload_cycles_limit", doc_known_u64(&h->load_unload_cycles_limit));
	ADD(o, "power_on_minutes", doc_known_u64(&h->power_on_minutes));
	ADD(o, "background_scan_status", doc_known_u64(&h->bg_scan_status));
	ADD(o, "background_medium_scans", doc_known_u64(&h->bg_medium_scans));
	x = json_object_new_object();
	ADD(x, "asc", doc_known_u64(&h->ie_asc));
	ADD(x, "ascq", doc_known_u64(&h->ie_ascq));
	ADD(x, "text", doc_str(h->ie_text));
	ADD(x, "temperature_c", doc_known_i64(&h->ie_temperature_c));
	ADD(o, "informational_exception", x);
	x = json_object_new_object();
	ADD(x, "entries", doc_known_u64(&h->selftest_entries));
	ADD(x, "failed", doc_known_u64(&h->selftest_failed));
	ADD(x, "last_code", doc_known_u64(&h->selftest_last_code));
	ADD(x, "last_result", doc_known_u64(&h->selftest_last_result));
	ADD(x, "last_result_text", h->selftest_last_result.known ?
	    json_object_new_string(scsi_selftest_result_text(h->selftest_last_result.v)) : NULL);
	ADD(x, "last_hours", doc_known_u64(&h->selftest_last_hours));
	ADD(x, "last_failing_lba", doc_known_u64(&h->selftest_last_lba));
	ADD(o, "self_test", x);
	return o;
}

/* The SCSI class (inventory/scsi.c): identity, READ CAPACITY(16), health. */
static struct json_object *
scsi_json(const struct scsi_info *s)
{
	struct json_object *o = json_object_new_object();
	ADD(o, "known", json_object_new_boolean(s->known));
	ADD(o, "reason", s->known ? NULL : doc_str(s->reason));
	ADD(o, "vendor", doc_str(s->vendor));
	ADD(o, "product", doc_str(s->product));
	ADD(o, "revision", doc_str(s->revision));
	ADD(o, "peripheral_type", doc_known_u64(&s->peripheral_type));
	ADD(o, "transport", doc_str(s->transport));
	ADD(o, "transport_from", doc_str(s->transport_from));
	ADD(o, "protocol", doc_str(s->protocol));
	ADD(o, "sat", doc_known_bool(&s->sat));
	ADD(o, "sat_vendor", doc_str(s->sat_vendor));
	ADD(o, "serial", doc_str(s->serial));
	ADD(o, "designator", doc_str(s->designator));
	ADD(o, "sg_node", doc_str(s->sg_node));
	ADD(o, "rotation_rpm", doc_known_u64(&s->rotation_rpm));
	ADD(o, "form_factor", doc_known_u64(&s->form_factor));
	ADD(o, "max_transfer_blocks", doc_known_u64(&s->max_transfer_blocks));
	ADD(o, "opt_transfer_blocks", doc_known_u64(&s->opt_transfer_blocks));
	ADD(o, "lbp_unmap", doc_known_bool(&s->lbp_unmap));
	ADD(o, "lbp_enabled", doc_known_bool(&s->lbp_enabled));
	ADD(o, "lba_count", doc_known_u64(&s->lba_count));
	ADD(o, "logical_bytes", doc_known_u64(&s->logical_bytes));
	ADD(o, "physical_exponent", doc_known_u64(&s->physical_exp));
	ADD(o, "lowest_aligned_lba", doc_known_u64(&s->lowest_aligned));
	ADD(o, "protection", doc_known_bool(&s->protection));
	ADD(o, "protection_type", doc_known_u64(&s->protection_type));
	ADD(o, "format", s->format == SCSI_FMT_UNKNOWN ? NULL :
	    json_object_new_string(scsi_format_text(s->format)));
	ADD(o, "health", scsi_health_json(&s->health));
	return o;
}

static struct json_object *
drive_json(const struct inventory *inv, const struct drive *d)
{
	struct json_object *o = json_object_new_object(), *x;
	char acc[64];

	ADD(o, "name", json_object_new_string(d->name));
	ADD(o, "path", doc_str(d->path));
	ADD(o, "id", doc_str(d->id));
	ADD(o, "id_source", doc_str(d->id_source));
	ADD(o, "model", doc_str(d->model));
	ADD(o, "vendor", doc_str(d->vendor));
	ADD(o, "serial", doc_str(d->serial));
	ADD(o, "firmware", doc_str(d->firmware));
	ADD(o, "wwn", doc_str(d->wwn));
	ADD(o, "transport", json_object_new_string(transport_name(d->transport)));
	ADD(o, "virtual", json_object_new_boolean(d->virtual_dev));
	if (d->backing[0])
		ADD(o, "backing_file", json_object_new_string(d->backing));
	ADD(o, "capacity_bytes", doc_known_u64(&d->capacity_bytes));

	x = json_object_new_object();
	ADD(x, "logical", doc_known_u64(&d->logical));
	ADD(x, "physical", doc_known_u64(&d->physical));
	bool fmt = d->transport == TR_NVME && d->nvme.lbaf_in_use.known;
	ADD(x, "metadata_bytes", fmt ?
	    json_object_new_int64((int64_t)d->nvme.lbaf[d->nvme.lbaf_in_use.v].meta_bytes)
	    : NULL);
	ADD(x, "alignment_offset", doc_known_u64(&d->alignment_offset));
	ADD(x, "min_io", doc_known_u64(&d->min_io));
	ADD(x, "opt_io", doc_known_u64(&d->opt_io));
	ADD(x, "source", doc_str(d->sector_source));
	ADD(o, "sectors", x);

	bool ssd = d->rotation_rpm.known && d->rotation_rpm.v == 0;
	ADD(o, "rotation_rpm", d->rotation_rpm.known && !ssd ? doc_known_u64(&d->rotation_rpm) : NULL);
	if (d->rotation_rpm.known)
		ADD(o, "ssd", json_object_new_boolean(ssd));
	else
		ADD(o, "ssd", d->rotational.known ? json_object_new_boolean(!d->rotational.v) : NULL);
	ADD(o, "rotational", bool_or_null(&d->rotational));

	const struct ata_identify *id = &d->ata.id;
	bool have_id = d->ata.state == ATA_OK;
	x = json_object_new_object();
	const char *trim_src;
	struct known_u64 trim = drive_trim(d, &trim_src);
	ADD(x, "supported", bool_or_null(&trim));
	ADD(x, "source", trim_src ? json_object_new_string(trim_src) : NULL);
	ADD(x, "deterministic", have_id ? bool_or_null(&id->trim_deterministic) : NULL);
	ADD(x, "zeroed", have_id ? bool_or_null(&id->trim_zeroed) : NULL);
	ADD(x, "discard_granularity", doc_known_u64(&d->discard_granularity));
	ADD(o, "trim", x);
	ADD(o, "zoned", doc_str(d->zoned));
	ADD(o, "write_cache", doc_str(d->write_cache));
	x = json_object_new_object();
	/* current: the drive's own word 77, else what the kernel negotiated */
	bool id_cur = have_id && id->sata_cur_gbps.known;
	ADD(x, "supported_gbps", have_id ? doc_known_dbl(&id->sata_max_gbps) : NULL);
	ADD(x, "current_gbps", id_cur ? doc_known_dbl(&id->sata_cur_gbps) : doc_known_dbl(&d->link_gbps));
	ADD(x, "current_source", id_cur ? json_object_new_string("identify") :
	    d->link_gbps.known ? json_object_new_string("kernel") : NULL);
	ADD(o, "sata_link", x);

	x = json_object_new_object();
	ADD(x, "state", json_object_new_string(ata_state_name(d->ata.state)));
	ADD(x, "via", doc_str(d->ata.via));
	ADD(x, "reason", doc_str(d->ata.reason));
	ADD(x, "identify", have_id ? identify_json(id) : NULL);
	ADD(o, "ata", x);

	x = json_object_new_object();
	ADD(x, "verdict", json_object_new_string(smr_verdict_name(d->smr.verdict)));
	ADD(x, "evidence", strlist_json(&d->smr.evidence));
	ADD(o, "smr", x);
	if (d->ata.state == ATA_OK || d->ata.smart.known)
		ADD(o, "smart", smart_json(&d->ata.smart));
	else {
		struct smart_info none = { 0 };
		snprintf(none.reason, sizeof none.reason, "%.120s",
			 d->transport == TR_NVME ? "an NVMe drive: its health is under \"nvme\"" :
			 drive_scsi_class(d) ?
			 "a SCSI drive: its health is under \"scsi\"" :
			 d->transport == TR_USB && d->ata.reason[0] ? d->ata.reason :
			 d->ata.state == ATA_NOT_ATA ? "not an ATA drive" :
			 d->ata.state == ATA_NO_ANSWER ? "no answer" :
			 d->ata.reason[0] ? d->ata.reason : "not read");
		ADD(o, "smart", smart_json(&none));
	}

	ADD(o, "nvme", d->transport == TR_NVME ? nvme_json(&d->nvme) : NULL);
	ADD(o, "wear", wear_json(d));
	ADD(o, "scsi", drive_scsi_class(d) || d->scsi.known ?
	    scsi_json(&d->scsi) : NULL);
	ADD(o, "provenance", doc_provenance(d));
	ADD(o, "hidden_capacity", doc_hidden_capacity(d));

	ADD(o, "removable", json_object_new_boolean(d->removable));
	ADD(o, "readonly", json_object_new_boolean(d->readonly));
	ADD(o, "partitions", strlist_json(&d->partitions));
	ADD(o, "holders", strlist_json(&d->holders));
	ADD(o, "mounts", strlist_json(&d->mounts));
	ADD(o, "controller", d->controller >= 0 && (size_t)d->controller < inv->n_ctrl ?
	    json_object_new_string(inv->ctrl[d->controller].id) : NULL);
	ADD(o, "port", doc_str(d->port));
	access_text(d, acc, sizeof acc);
	ADD(o, "access", json_object_new_string(acc));
	ADD(o, "warnings", strlist_json(&d->warnings));
	return o;
}

static struct json_object *
link_json(const struct pci_link *l, const char *from)
{
	struct json_object *o = json_object_new_object();
	ADD(o, "known", json_object_new_boolean(l->known));
	if (!l->known) {
		ADD(o, "reason", doc_str(l->reason[0] ? l->reason : "no PCIe capability"));
		return o;
	}
	ADD(o, "cap_gts", json_object_new_double(l->cap_gts));
	ADD(o, "cap_width", json_object_new_int((int)l->cap_width));
	ADD(o, "sta_gts", json_object_new_double(l->sta_gts));
	ADD(o, "sta_width", json_object_new_int((int)l->sta_width));
	ADD(o, "cap2_max_gts", doc_known_dbl(&l->cap2_max_gts));
	ADD(o, "downgraded", json_object_new_boolean(l->downgraded));
	ADD(o, "ceiling_mbps", json_object_new_double(l->ceiling_mbps));
	ADD(o, "cap_ceiling_mbps", doc_known_dbl(&l->cap_ceiling_mbps));
	if (from)
		ADD(o, "from", doc_str(from));
	return o;
}

static struct json_object *
controller_json(const struct controller *c)
{
	struct json_object *o = json_object_new_object();
	char hex[8];

	ADD(o, "id", json_object_new_string(c->id));
	ADD(o, "address", doc_str(c->address));
	snprintf(hex, sizeof hex, "%04x", c->vendor_id);
	ADD(o, "vendor_id", json_object_new_string(hex));
	snprintf(hex, sizeof hex, "%04x", c->device_id);
	ADD(o, "device_id", json_object_new_string(hex));
	snprintf(hex, sizeof hex, "%06x", c->class_code);
	ADD(o, "class_code", json_object_new_string(hex));
	ADD(o, "name", doc_str(c->name));
	ADD(o, "class", doc_str(c->class_name));
	ADD(o, "driver", doc_str(c->driver));	/* null: none bound, or unknown (dump) */
	ADD(o, "driver_known", json_object_new_boolean(c->driver_known));
	ADD(o, "numa_node", doc_known_u64(&c->numa_node));
	ADD(o, "simulated", json_object_new_boolean(c->simulated));
	struct json_object *l = link_json(&c->link, c->link_from);
	struct json_object *nw = link_json(&c->narrowest, NULL);
	ADD(nw, "address", doc_str(c->narrowest_at));
	ADD(l, "narrowest_on_path", nw);
	ADD(o, "link", l);
	ADD(o, "drives", strlist_json(&c->drives));
	return o;
}

struct json_object *
doc_inventory(const struct inventory *inv)
{
	struct json_object *o = json_object_new_object();
	struct json_object *cs = json_object_new_array(), *ds = json_object_new_array();
	for (size_t i = 0; i < inv->n_ctrl; i++)
		json_object_array_add(cs, controller_json(&inv->ctrl[i]));
	for (size_t i = 0; i < inv->n_drv; i++)
		json_object_array_add(ds, drive_json(inv, &inv->drv[i]));
	ADD(o, "controllers", cs);
	ADD(o, "drives", ds);
	ADD(o, "notes", strlist_json(&inv->notes));
	ADD(o, "incomplete", json_object_new_boolean(inv->incomplete));
	return o;
}
