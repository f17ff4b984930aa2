/* test_sim_inventory.c - the demo rig in the inventory looks like hardware:
 * controllers with links and ceilings, resolvable as ctrl:N and by address;
 * drives whose IDENTIFY words decode (with the real decoder) to the model's
 * facts, with SMART values and SMR/AF hints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include "inventory/inventory.h"
#include "sim/model.h"
#include "test_sim_harness.h"

static struct drive *
by_model(struct inventory *inv, const char *prefix)
{
	for (size_t i = 0; i < inv->n_drv; i++)
		if (strncmp(inv->drv[i].model, prefix, strlen(prefix)) == 0)
			return &inv->drv[i];
	fail_msg("no drive %s", prefix);
	return NULL;
}

static bool
has_evidence(const struct drive *d, const char *s)
{
	for (size_t i = 0; i < d->smr.evidence.n; i++)
		if (strstr(d->smr.evidence.v[i], s))
			return true;
	return false;
}

static void
test_rig_inventory(void **state)
{
	(void)state;
	struct inventory inv = { 0 };
	char err[512];
	int r = sim_inventory_add(&inv, NULL, NULL, 0, err, sizeof err);
	if (r)
		fprintf(stderr, "%s\n", err);
	assert_int_equal(r, 0);
	assert_int_equal(inv.n_ctrl, 7);	/* 9485, 9211-8i, AHCI, 9215, 9230, the NVMe's AHCI,
						   the SAS pulls' 9211-8i */
	assert_int_equal(inv.n_drv, 30);	/* sim24: the worn NVMe SSD; sim25..27: SAS; sim28: used,
						   sim29: its self-test fails */

	/* the 88SE9485: x8 5 GT/s, 4000 MB/s of link, eight drives */
	const struct controller *c = &inv.ctrl[0];
	assert_true(c->simulated);
	assert_int_equal(c->vendor_id, 0x1b4b);
	assert_int_equal(c->device_id, 0x9485);
	assert_true(c->link.known);
	assert_int_equal(c->link.sta_width, 8);
	assert_true(c->link.ceiling_mbps > 3999 && c->link.ceiling_mbps < 4001);
	assert_int_equal(c->drives.n, 8);
	assert_int_equal(inventory_find_controller(&inv, "ctrl:0"), 0);
	assert_int_equal(inventory_find_controller(&inv, c->address), 0);
	char spec[40];
	snprintf(spec, sizeof spec, "ctrl:%s", inv.ctrl[3].address);
	assert_int_equal(inventory_find_controller(&inv, spec), 3);
	/* onboard AHCI: no link, said so */
	assert_false(inv.ctrl[2].link.known);
	assert_true(inv.ctrl[2].link.reason[0] != '\0');
	/* the x1 9215: 500 MB/s */
	assert_true(inv.ctrl[3].link.ceiling_mbps > 499 && inv.ctrl[3].link.ceiling_mbps < 501);

	/* drives: decoded from IDENTIFY like a real one */
	struct drive *d = &inv.drv[0];
	assert_string_equal(d->name, "sim0");
	assert_string_equal(d->path, "sim:sim0");
	assert_int_equal(d->transport, TR_SIM);
	assert_true(d->virtual_dev);
	assert_int_equal(d->ata.state, ATA_OK);
	assert_string_equal(d->ata.via, "sim");
	assert_string_equal(d->model, "WDC WD40EZRX-00SPEB0");
	assert_int_equal(d->capacity_bytes.v, 4000787030016ull);
	assert_true(d->physical.known);
	assert_int_equal(d->physical.v, 4096);
	assert_string_equal(d->sector_source, "identify");
	assert_int_equal(d->rotation_rpm.v, 5400);
	assert_true(d->ata.id.sata_max_gbps.known);
	assert_int_equal(d->controller, 0);
	/* eight drives of one model, eight identities */
	for (size_t i = 1; i < 8; i++)
		assert_string_not_equal(inv.drv[i].id, d->id);

	/* SMR: TRIM on a rotating drive and the model list */
	struct drive *efax = by_model(&inv, "WDC WD20EFAX");
	assert_true(efax->ata.id.trim.known && efax->ata.id.trim.v);
	assert_int_equal(efax->smr.verdict, SMR_LIKELY);
	assert_true(has_evidence(efax, "TRIM on rotating media"));
	/* the CMR control */
	assert_int_not_equal(by_model(&inv, "ST2000DM001")->smr.verdict, SMR_LIKELY);
	/* the Samsung reports 512 physical: what the kernel would see */
	struct drive *sam = by_model(&inv, "SAMSUNG HD204UI");
	assert_int_equal(sam->physical.v, 512);
	/* the SSD */
	struct drive *ssd = by_model(&inv, "Samsung SSD 860");
	assert_true(ssd->ata.id.ssd);
	assert_int_equal(ssd->rotational.v, 0);
	assert_true(ssd->ata.id.trim_zeroed.known && ssd->ata.id.trim_zeroed.v);
	/* SMART of the flawed drive */
	struct drive *fl = by_model(&inv, "Hitachi HDS722525VLSA80");
	assert_true(fl->ata.smart.known);
	assert_int_equal(fl->ata.smart.pending.v, 8);
	assert_int_equal(fl->ata.smart.reallocated.v, 24);
	assert_string_equal(fl->ata.smart.overall, "bad_sector");
	assert_true(fl->ata.smart.temperature_c.known);

	/* a rig drive opened as a target knows its inventory controller */
	struct target t;
	assert_int_equal(h_open(&t, "sim:sim17"), 0);
	assert_true(t.facts.controller.known);
	assert_int_equal(t.facts.controller.v, 3);
	assert_int_equal(t.kind, TGT_SIM);
	sim_target_close(&t);
	inventory_free(&inv);
}

static void
test_bad_rig(void **state)
{
	(void)state;
	struct inventory inv = { 0 };
	char err[512];
	assert_int_equal(sim_inventory_add(&inv, "tests/fixtures/sim/bad-too-many.rig", NULL, 0, err,
					   sizeof err), -EINVAL);
	assert_non_null(strstr(err, "bad-too-many.rig:9:"));
	assert_int_equal(inv.n_ctrl, 0);	/* nothing added */
	const char *models[] = { "tests/fixtures/sim/bad-syntax.drive" };
	assert_int_equal(sim_inventory_add(&inv, NULL, models, 1, err, sizeof err), -EINVAL);
	assert_int_equal(inv.n_drv, 0);
	inventory_free(&inv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rig_inventory),
		cmocka_unit_test(test_bad_rig),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
