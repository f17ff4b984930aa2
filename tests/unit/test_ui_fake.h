/* test_ui_fake.h - a fake bench for UI tests and the frame bench: an
 * inventory (a Marvell 88SE9485 on a downgraded link, an LSI card, drives)
 * and a backend that plays a saturate run on a virtual clock (each snapshot
 * advances it by one 100 ms sample), so every screen is deterministic. */
#ifndef TEST_UI_FAKE_H
#define TEST_UI_FAKE_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui.h"

static const double fake_marvell[8] = { 150, 273, 430, 544, 573, 593, 623, 640 };

/* Aggregate MB/s with k+1 drives active: the 88SE9485 figures, flat after. */
static double
fake_agg(unsigned k)
{
	return k < 8 ? fake_marvell[k] : 640 + 5.0 * (k - 7);
}

static const struct ui_test_info fake_tests[] = {
	{ "saturate", "controller saturation: reads on 1..N drives at once", false,
	  { .bs = 1 << 20, .qd = 8, .seconds = 10, .pattern = "seq" } },
	{ "seqread", "sequential read at a block size and queue depth", false,
	  { .bs = 1 << 20, .qd = 8, .seconds = 10, .pattern = "seq" } },
	{ "seqwrite", "sequential write at a block size and queue depth", true,
	  { .bs = 1 << 20, .qd = 8, .seconds = 10, .pattern = "seq" } },
};

struct fake_backend {
	int running;		/* 0 idle, 1 running, 2 done, 3 stopped */
	unsigned tick;		/* virtual 100 ms samples since start */
	unsigned ticks_per_step;
	unsigned n_targets;
	unsigned start_tick;	/* begin part-way (the bench holds the last step) */
	char test[24];
	int starts, stops;
	struct run_result result;
	bool have_result;
};

static void
fake_inventory(struct inventory *inv, unsigned n_drives)
{
	memset(inv, 0, sizeof(*inv));
	struct controller *c = inventory_add_controller(inv);

	snprintf(c->id, sizeof(c->id), "ctrl0");
	snprintf(c->address, sizeof(c->address), "0000:03:00.0");
	snprintf(c->name, sizeof(c->name), "Marvell 88SE9485 SAS/SATA 6Gb/s");
	snprintf(c->class_name, sizeof(c->class_name), "SATA controller");
	snprintf(c->driver, sizeof(c->driver), "mvsas");
	c->vendor_id = 0x1b4b;
	c->device_id = 0x9485;
	c->link = (struct pci_link){ .known = true, .cap_gts = 5, .sta_gts = 5, .cap_width = 8,
				     .sta_width = 4, .downgraded = true, .ceiling_mbps = 2000,
				     .cap_ceiling_mbps = { true, 4000 } };
	c->simulated = true;
	c = inventory_add_controller(inv);
	snprintf(c->id, sizeof(c->id), "ctrl1");
	snprintf(c->address, sizeof(c->address), "0000:04:00.0");
	snprintf(c->name, sizeof(c->name), "LSI SAS2008 (9211-8i)");
	c->link = (struct pci_link){ .known = true, .cap_gts = 5, .sta_gts = 5, .cap_width = 8,
				     .sta_width = 8, .ceiling_mbps = 4000, .cap_ceiling_mbps = { true, 4000 } };
	for (unsigned i = 0; i < n_drives; i++) {
		struct drive *d = inventory_add_drive(inv);
		bool smr = i % 4 == 1;

		snprintf(d->name, sizeof(d->name), "sim%u", i);
		snprintf(d->path, sizeof(d->path), "sim:sim%u", i);
		snprintf(d->model, sizeof(d->model), smr ? "WDC WD20EFAX-68FB5N0" : "WDC WD40EZRX-00SPEB0");
		snprintf(d->serial, sizeof(d->serial), "WD-SIM%04u", i);
		d->transport = TR_SIM;
		d->virtual_dev = true;
		KNOWN_SET(d->capacity_bytes, smr ? 2000398934016ULL : 4000787030016ULL);
		KNOWN_SET(d->logical, 512);
		KNOWN_SET(d->physical, 4096);
		KNOWN_SET(d->rotational, 1);
		KNOWN_SET(d->rotation_rpm, 5400);
		KNOWN_SET(d->ata.id.trim, smr ? 1 : 0);
		d->smr.verdict = smr ? SMR_LIKELY : SMR_UNLIKELY;
		strlist_add(&d->smr.evidence, smr ? "TRIM on a rotating drive" : "no zoned bits");
		d->ata.smart.known = true;
		snprintf(d->ata.smart.overall, sizeof(d->ata.smart.overall), i == 6 ? "bad_sector" : "good");
		KNOWN_SET(d->ata.smart.temperature_c, 30 + i);
		d->controller = i < 8 ? 0 : 1;
		strlist_add(&inv->ctrl[d->controller].drives, d->name);
	}
	/* One real disk, for the destroy confirmation. */
	struct drive *d = inventory_add_drive(inv);

	snprintf(d->name, sizeof(d->name), "sdz");
	snprintf(d->path, sizeof(d->path), "/dev/sdz");
	snprintf(d->model, sizeof(d->model), "ST2000DM001-1CH164");
	snprintf(d->serial, sizeof(d->serial), "Z1E0AAAA");
	d->transport = TR_SATA;
	KNOWN_SET(d->capacity_bytes, 2000398934016ULL);
	d->controller = -1;
	strlist_add(&d->partitions, "sdz1");
	strlist_add(&d->mounts, "sdz1 /mnt/data");
}

static int
fake_start(void *ctx, const char *test, const char *const *targets, size_t n,
	   const char *words, const struct drive *const *confirmed, size_t n_confirmed,
	   char *err, size_t errlen)
{
	struct fake_backend *f = ctx;

	(void)targets;
	(void)confirmed;
	(void)words;
	(void)n_confirmed;
	f->starts++;
	snprintf(f->test, sizeof(f->test), "%s", test);
	f->running = 1;
	f->tick = f->start_tick;
	if (!f->n_targets)
		f->n_targets = 8;
	if (!f->ticks_per_step)
		f->ticks_per_step = 20;
	if (n == 0) {
		snprintf(err, errlen, "no targets");
		return -22;
	}
	return 0;
}

static void
fake_stop(void *ctx)
{
	struct fake_backend *f = ctx;

	f->stops++;
	if (f->running == 1)
		f->running = 3;
}

static void
fake_fill_result(struct fake_backend *f, unsigned steps)
{
	struct run_result *r = &f->result;

	memset(r, 0, sizeof(*r));
	snprintf(r->test, sizeof(r->test), "%s", f->test);
	strlist_add(&r->targets, "ctrl:0");
	r->seconds = steps * f->ticks_per_step / 10.0;
	r->virtual_time = true;
	r->ceiling_mbps = known_dbl_of(2000);
	snprintf(r->ceiling_text, sizeof(r->ceiling_text), "x4 5GT/s");
	r->steps = calloc(steps, sizeof(*r->steps));
	r->n_steps = steps;
	for (unsigned s = 0; s < steps; s++) {
		struct step_result *st = &r->steps[s];

		st->index = s + 1;
		st->aggregate_mbps = known_dbl_of(fake_agg(s));
		st->ideal_mbps = 150.0 * (s + 1);
		st->res = calloc(s + 1, sizeof(*st->res));
		st->n_res = s + 1;
		for (unsigned k = 0; k <= s; k++) {
			strlist_addf(&st->active, "sim%u", k);
			snprintf(st->res[k].target, sizeof(st->res[k].target), "sim%u", k);
			st->res[k].mbps = fake_agg(s) / (s + 1);
			st->res[k].lat = (struct lat_summary){ true, 900, 5000, 100, 4000, 9000, 12000, 30000, 80000 };
		}
	}
	r->verdicts = calloc(1, sizeof(*r->verdicts));
	r->n_verdicts = 1;
	snprintf(r->verdicts[0].kind, sizeof(r->verdicts[0].kind), "saturation");
	snprintf(r->verdicts[0].text, sizeof(r->verdicts[0].text),
		 "saturates at 4 drives, 544 MB/s = 27 %% of the x4 5GT/s link");
	r->verdicts[0].knee_drives = 4;
	f->have_result = true;
}

static int
fake_snapshot(void *ctx, struct run_snapshot *s)
{
	struct fake_backend *f = ctx;
	unsigned N = f->n_targets;

	memset(s, 0, sizeof(*s));
	snprintf(s->test, sizeof(s->test), "%s", f->test);
	s->virtual_time = true;
	s->interval_ms = 100;
	s->n_steps = N;
	s->ceiling_mbps = known_dbl_of(2000);
	s->lat_p50_us = s->lat_p99_us = s->lat_p999_us = (struct known_dbl){ 0 };
	s->total_mbps = known_dbl_of(0);
	if (f->running == 1)
		f->tick++;
	unsigned step = f->tick / f->ticks_per_step;	/* finished steps */

	if (step >= N && f->running == 1)
		f->running = 2;
	if (step > N)
		step = N;
	s->state = f->running == 1 ? RUN_RUNNING : f->running == 2 ? RUN_DONE :
		   f->running == 3 ? RUN_STOPPED : RUN_IDLE;
	if (f->running >= 2 && !f->have_result)
		fake_fill_result(f, step ? step : 1);
	s->step = step < N ? step + 1 : N;
	s->elapsed_s = f->tick / 10.0;
	s->eta_s = known_dbl_of((N * f->ticks_per_step - (f->tick < N * f->ticks_per_step ? f->tick : 0)) / 10.0);
	s->n_steps_done = step;
	for (unsigned k = 0; k < N && k < SNAP_STEPS; k++) {
		bool done = k < step;

		s->steps[k] = (struct snap_step){ k + 1, k + 1, known_dbl_of(done || k == step ? fake_agg(k) : 0),
						  150.0 * (k + 1), done };
	}
	if (step >= 5)
		s->knee_drives = 4;
	s->n_targets = N;
	s->t = calloc(N, sizeof(*s->t));
	if (!s->t)
		return -12;
	unsigned active = step < N ? step + 1 : N;

	for (unsigned i = 0; i < N; i++) {
		struct snap_target *t = &s->t[i];

		snprintf(t->name, sizeof(t->name), "sim%u", i);
		t->controller = 0;
		t->active = i < active && f->running == 1;
		t->n = f->tick - f->start_tick < SNAP_SAMPLES ? f->tick - f->start_tick : SNAP_SAMPLES;
		for (size_t k = 0; k < t->n; k++) {
			unsigned abs = f->tick - (unsigned)t->n + (unsigned)k;
			unsigned st = abs / f->ticks_per_step;

			if (st >= N)
				st = N - 1;
			t->read_hist[k] = i <= st ? (float)(fake_agg(st) / (st + 1) *
						   (1 + 0.05 * sin(abs * 0.7 + i))) : 0;
		}
		t->mbps = t->read_mbps = t->active && t->n ? t->read_hist[t->n - 1] : 0;
		t->iops = t->mbps;
		t->pos = fmod(f->tick * 0.01, 1);
		s->total_mbps.v += t->mbps;
		s->total_iops += t->iops;
	}
	for (int k = 8; k < 20; k++)
		s->lat_hist[k] = (uint64_t)(1000 * exp(-0.5 * (k - 13) * (k - 13))) + 1;
	s->lat_p50_us = known_dbl_of(900);
	s->lat_p99_us = known_dbl_of(9000);
	s->lat_p999_us = known_dbl_of(30000);
	return 0;
}

static const struct run_result *
fake_result(void *ctx)
{
	struct fake_backend *f = ctx;

	return f->have_result ? &f->result : NULL;
}

static int
fake_export(void *ctx, const char *fmt, char *out, size_t outlen)
{
	snprintf(out, outlen, "/tmp/fake-result.%s", fmt);
	return 0;
}

static void
fake_backend_init(struct ui_backend *be, struct fake_backend *f)
{
	memset(f, 0, sizeof(*f));
	memset(be, 0, sizeof(*be));
	be->ctx = f;
	be->tests = fake_tests;
	be->n_tests = sizeof(fake_tests) / sizeof(fake_tests[0]);
	be->start = fake_start;
	be->stop = fake_stop;
	be->snapshot = fake_snapshot;
	be->result = fake_result;
	be->export_result = fake_export;
}
#endif
