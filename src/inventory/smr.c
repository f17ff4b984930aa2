/* smr.c - drive-managed SMR assessment with its evidence, and the hidden
 * Advanced Format warning.  The model lists live in smr-models.csv (embedded),
 * parsed once at run time. */
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "inventory/smr.h"
#include "util/embedded.h"

#define MODELS_CSV "src/inventory/smr-models.csv"
#define NFIELDS 6	/* kind,match,pattern,family,listed_by,reference */

struct model_row {
	char *kind, *pattern, *family, *listed_by;
	bool is_regex;
	regex_t re;
};

static struct model_row *rows;
static size_t n_rows;
static pthread_once_t rows_once = PTHREAD_ONCE_INIT;

const char *
smr_verdict_name(enum smr_verdict v)
{
	switch (v) {
	case SMR_UNLIKELY: return "unlikely";
	case SMR_POSSIBLE: return "possible";
	case SMR_LIKELY: return "likely";
	case SMR_ZONED: return "zoned";
	case SMR_UNKNOWN:
	default: return "unknown";
	}
}

/* One CSV record from *p (RFC 4180 quoting: "a ""b"", c"); advances *p past
 * the line.  Returns the number of fields, fields point into buf. */
static int
csv_record(const char **p, char *buf, size_t bn, char **fld, int maxf)
{
	const char *s = *p;
	size_t k = 0;
	int nf = 0;
	bool quoted = false, start = true;
	if (!*s)
		return -1;
	fld[nf++] = buf;
	for (; *s; s++) {
		char c = *s;
		if (quoted) {
			if (c == '"' && s[1] == '"') {
				s++;
			} else if (c == '"') {
				quoted = false;
				continue;
			}
		} else if (c == '"' && start) {
			quoted = true;
			start = false;
			continue;
		} else if (c == ',') {
			if (k + 1 >= bn)
				break;
			buf[k++] = '\0';
			if (nf < maxf)
				fld[nf++] = buf + k;
			start = true;
			continue;
		} else if (c == '\n') {
			s++;
			break;
		} else if (c == '\r') {
			continue;
		}
		start = false;
		if (k + 1 < bn)
			buf[k++] = c;
	}
	buf[k] = '\0';
	*p = s;
	return nf;
}

static void
rows_load(void)
{
	const struct embedded_file *f = embedded_find(MODELS_CSV);
	if (!f)
		return;
	const char *p = f->data;
	char buf[1024], *fld[NFIELDS];
	bool header = true;
	int nf;
	while ((nf = csv_record(&p, buf, sizeof buf, fld, NFIELDS)) >= 0) {
		if (buf[0] == '#' || (nf == 1 && !buf[0]))
			continue;
		if (header) {
			header = false;
			continue;
		}
		if (nf != NFIELDS)
			continue;	/* a malformed row is skipped, the rest still works */
		struct model_row *v = realloc(rows, (n_rows + 1) * sizeof *v);
		if (!v)
			return;
		rows = v;
		struct model_row *r = &rows[n_rows];
		memset(r, 0, sizeof *r);
		r->is_regex = strcmp(fld[1], "regex") == 0;
		if (r->is_regex) {
			char pat[600];
			snprintf(pat, sizeof pat, "^(%s)$", fld[2]);
			if (regcomp(&r->re, pat, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
				continue;
		}
		r->kind = strdup(fld[0]);
		r->pattern = strdup(fld[2]);
		r->family = strdup(fld[3]);
		r->listed_by = strdup(fld[4]);
		if (!r->kind || !r->pattern || !r->family || !r->listed_by) {
			if (r->is_regex)
				regfree(&r->re);
			free(r->kind), free(r->pattern), free(r->family), free(r->listed_by);
			continue;
		}
		n_rows++;
	}
}

/* Prefix rows name a model number ("WD20EFAX"): match the model or the model
 * after its vendor word ("WDC WD20EFAX-68FB5N0", "TOSHIBA HDWD240"). */
static bool
row_matches(const struct model_row *r, const char *model)
{
	if (r->is_regex)
		return regexec(&r->re, model, 0, NULL, 0) == 0;
	size_t n = strlen(r->pattern);
	if (strncasecmp(model, r->pattern, n) == 0)
		return true;
	const char *sp = strchr(model, ' ');
	return sp && strncasecmp(sp + 1, r->pattern, n) == 0;
}

/* Every matching row of `kind`, from index *from on; -1 at the end. */
static ssize_t
next_match(const char *model, const char *kind, size_t from)
{
	for (size_t i = from; i < n_rows; i++)
		if ((!kind || strcasecmp(rows[i].kind, kind) == 0) && row_matches(&rows[i], model))
			return (ssize_t)i;
	return -1;
}

int
smr_lookup_model(const char *model, const char *kind, struct smr_model_hit *hit)
{
	pthread_once(&rows_once, rows_load);
	if (!model || !*model)
		return -ENOENT;
	ssize_t i = next_match(model, kind, 0);
	if (i < 0)
		return -ENOENT;
	if (hit) {
		hit->kind = rows[i].kind;
		hit->family = rows[i].family;
		hit->source = rows[i].listed_by;
	}
	return 0;
}

/* Up to two listings of one kind as evidence (distinct sources). */
static int
list_evidence(struct drive *d, const char *model, const char *kind)
{
	int found = 0;
	const char *first_src = NULL;
	for (ssize_t i = next_match(model, kind, 0); i >= 0 && found < 2;
	     i = next_match(model, kind, (size_t)i + 1)) {
		if (first_src && strcmp(first_src, rows[i].listed_by) == 0)
			continue;
		if (!first_src)
			first_src = rows[i].listed_by;
		strlist_addf(&d->smr.evidence, "model family %s listed %s by %s",
			     rows[i].family, kind, rows[i].listed_by);
		found++;
	}
	return found;
}

static const char *
drive_model(const struct drive *d)
{
	if (d->ata.state == ATA_OK && d->ata.id.model[0])
		return d->ata.id.model;
	return d->model;
}

/* The AF warning: a known 4K-physical family that reports 512 physical. */
static void
af_check(struct drive *d, const char *model)
{
	struct smr_model_hit hit;
	if (smr_lookup_model(model, "AF", &hit) < 0)
		return;
	bool hides;
	if (d->ata.state == ATA_OK)
		hides = !d->ata.id.sector_size_reported ||
			(d->ata.id.physical.known && d->ata.id.physical.v == 512);
	else
		hides = d->physical.known && d->physical.v == 512;
	if (!hides)
		return;
	char w[256];
	snprintf(w, sizeof w, "AF drive that hides its 4K sectors: %s has 4096-byte physical "
		 "sectors but reports 512; align to 4 KiB", hit.family);
	if (!strlist_has(&d->warnings, w))
		strlist_add(&d->warnings, w);
}

void
smr_assess(struct drive *d)
{
	pthread_once(&rows_once, rows_load);
	strlist_free(&d->smr.evidence);
	d->smr.verdict = SMR_UNKNOWN;

	if (d->transport == TR_LOOP || d->transport == TR_ZRAM) {
		strlist_add(&d->smr.evidence, "virtual device");
		return;
	}
	const struct ata_identify *id = d->ata.state == ATA_OK ? &d->ata.id : NULL;
	const char *model = drive_model(d);
	bool zoned = false, smr_hint = false, cmr_listed = false, ssd = false;

	if (strcmp(d->zoned, "host-managed") == 0) {
		strlist_add(&d->smr.evidence, "kernel reports host-managed zones");
		zoned = true;
	} else if (strcmp(d->zoned, "host-aware") == 0 ||
		   (id && id->zoned.known && id->zoned.v == ZONED_HOST_AWARE)) {
		strlist_add(&d->smr.evidence, "host-aware zoned bits");
		zoned = true;
	}
	if (id && id->zoned.known) {
		if (id->zoned.v == ZONED_DEVICE_MANAGED) {
			strlist_add(&d->smr.evidence, "device-managed zoned bits");
			smr_hint = true;
		} else if (id->zoned.v == ZONED_NONE) {
			strlist_add(&d->smr.evidence, "no zoned bits");
		}
	}

	/* Rotating: IDENTIFY word 217 first, sysfs queue/rotational otherwise. */
	int rotating = -1;
	if (id && id->rotation_rpm.known)
		rotating = id->rotation_rpm.v > 0;
	else if (d->rotation_rpm.known)
		rotating = d->rotation_rpm.v > 0;
	else if (d->rotational.known)
		rotating = d->rotational.v != 0;
	if (rotating == 0) {
		ssd = true;
		strlist_add(&d->smr.evidence, "solid-state (no shingled media)");
	} else if (rotating == 1 && id && id->trim.known) {
		if (id->trim.v) {
			strlist_add(&d->smr.evidence, "TRIM on rotating media");
			smr_hint = true;
		} else {
			strlist_add(&d->smr.evidence, "no TRIM on rotating media (proves nothing)");
		}
	}

	if (model && *model) {
		bool smr_listed = list_evidence(d, model, "SMR") > 0;
		cmr_listed = list_evidence(d, model, "CMR") > 0;
		smr_hint = smr_hint || smr_listed;
		if (!smr_listed && !cmr_listed && !ssd)
			strlist_add(&d->smr.evidence, "model not in the shipped SMR/CMR lists");
		af_check(d, model);
	}
	if (!id && d->ata.state != ATA_NOT_ATA && !ssd)
		strlist_add(&d->smr.evidence, "no IDENTIFY data");

	if (d->smr.evidence.n == 0)	/* never a bare verdict */
		strlist_add(&d->smr.evidence, d->transport == TR_VIRTIO ?
			    "virtio disk: the host's media is not visible" :
			    "no zoned, TRIM, rotation or model facts");

	if (zoned)
		d->smr.verdict = SMR_ZONED;
	else if (smr_hint && (cmr_listed || ssd))
		d->smr.verdict = SMR_POSSIBLE;	/* the signals disagree: say so */
	else if (smr_hint)
		d->smr.verdict = SMR_LIKELY;
	else if (cmr_listed || ssd)
		d->smr.verdict = SMR_UNLIKELY;
	else
		d->smr.verdict = SMR_UNKNOWN;
}
