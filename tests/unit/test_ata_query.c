/* test_ata_query.c - every drive queried in parallel under one deadline: a
 * stuck drive shows "no answer" and holds back nobody; the dashboard's
 * start/collect path; --ata-blob and --save-blobs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "inventory/ata.h"
#include "inventory/inventory.h"
#include "ata_words.h"

/* ---- ata_query_all: parallel, bounded, a stuck drive abandoned ---- */

static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hook_cv = PTHREAD_COND_INITIALIZER;
static bool stuck_release, stuck_returned;

/* "/dev/stuck" blocks until the test releases it (no clock involved);
 * every other path answers at once with the synthetic drive. */
static int
fake_query(const char *devpath, unsigned timeout_ms, struct ata_info *out,
	   void **blob, size_t *blob_len)
{
	(void)timeout_ms;
	if (strcmp(devpath, "/dev/stuck") == 0) {
		pthread_mutex_lock(&hook_mu);
		while (!stuck_release)
			pthread_cond_wait(&hook_cv, &hook_mu);
		pthread_mutex_unlock(&hook_mu);
	}
	/* the synthetic page is one shared buffer: the query threads take turns */
	static pthread_mutex_t page_mu = PTHREAD_MUTEX_INITIALIZER;
	void *b;
	size_t n;
	pthread_mutex_lock(&page_mu);
	words_to_bytes();
	int built = ata_blob_build(idbytes, known_bool_of(true), NULL, NULL, &b, &n);
	pthread_mutex_unlock(&page_mu);
	if (built < 0)
		return -ENOMEM;
	int rc = ata_from_blob(b, n, out);
	snprintf(out->via, sizeof out->via, "sg_io");
	*blob = b;
	*blob_len = n;
	if (strcmp(devpath, "/dev/stuck") == 0) {
		pthread_mutex_lock(&hook_mu);
		stuck_returned = true;
		pthread_cond_broadcast(&hook_cv);
		pthread_mutex_unlock(&hook_mu);
	}
	return rc;
}

static struct drive *
add(struct inventory *inv, const char *name, const char *path, enum ds_transport t)
{
	struct drive *d = inventory_add_drive(inv);
	assert_non_null(d);
	snprintf(d->name, sizeof d->name, "%s", name);
	snprintf(d->path, sizeof d->path, "%s", path);
	snprintf(d->model, sizeof d->model, "WDC WD20EFRX-68A");	/* sysfs: 16 chars */
	d->transport = t;
	return d;
}

/* The dashboard's way: start, show the drives at once, fold answers in as
 * they arrive; a slow drive holds back nobody (no clock involved: the stuck
 * drive answers when the test says so). */
static void
test_query_async(void **state)
{
	(void)state;
	struct inventory inv;
	struct inventory_opts o;
	memset(&inv, 0, sizeof inv);
	inventory_opts_default(&o);
	o.ata_timeout_ms = 600000;	/* never reached: the test releases it */
	add(&inv, "sda", "/dev/fake-a", TR_SATA);
	add(&inv, "sdb", "/dev/stuck", TR_SATA);
	stuck_release = stuck_returned = false;
	ata_query_set_hook(fake_query);
	assert_int_equal(ata_query_start(&inv, &o, &inv.ata_pending), 0);
	assert_non_null(inv.ata_pending);
	assert_int_equal(inv.drv[1].ata.state, ATA_PENDING);

	/* sda answers on its own; sdb stays pending */
	for (int i = 0; i < 100000 && inv.drv[0].ata.state == ATA_PENDING; i++) {
		inventory_poll(&inv);
		usleep(1000);
	}
	assert_int_equal(inv.drv[0].ata.state, ATA_OK);
	assert_string_equal(inv.drv[0].model, "WDC WD20EFRX-68AX9N0");	/* folded in */
	assert_int_not_equal(inv.drv[0].smr.evidence.n, 0);		/* assessed again */
	assert_int_equal(inv.drv[1].ata.state, ATA_PENDING);
	assert_non_null(inv.ata_pending);

	pthread_mutex_lock(&hook_mu);
	stuck_release = true;
	pthread_cond_broadcast(&hook_cv);
	pthread_mutex_unlock(&hook_mu);
	for (int i = 0; i < 100000 && inv.ata_pending; i++) {
		inventory_poll(&inv);
		usleep(1000);
	}
	assert_null(inv.ata_pending);		/* done and released */
	assert_int_equal(inv.drv[1].ata.state, ATA_OK);
	assert_int_equal(inventory_poll(&inv), 0);
	ata_query_set_hook(NULL);
	inventory_free(&inv);
}

static void
test_query_all_stuck_drive(void **state)
{
	(void)state;
	struct inventory inv;
	struct inventory_opts o;
	memset(&inv, 0, sizeof inv);
	inventory_opts_default(&o);
	o.ata_timeout_ms = 300;
	add(&inv, "sda", "/dev/fake-a", TR_SATA);
	add(&inv, "sdb", "/dev/stuck", TR_SATA);
	add(&inv, "sdc", "/dev/fake-c", TR_USB);
	add(&inv, "nvme0n1", "/dev/nvme0n1", TR_NVME);
	add(&inv, "vda", "/dev/vda", TR_VIRTIO);
	struct drive *den = add(&inv, "sdd", "/dev/fake-d", TR_SATA);
	den->access = ACC_DENIED;
	den->access_errno = EPERM;

	char dir[] = "/tmp/ds-blobs-XXXXXX";
	assert_non_null(mkdtemp(dir));
	o.save_blobs = dir;
	stuck_release = stuck_returned = false;
	ata_query_set_hook(fake_query);
	assert_int_equal(ata_query_all(&inv, &o), 0);

	assert_int_equal(inv.drv[0].ata.state, ATA_OK);
	assert_int_equal(inv.drv[2].ata.state, ATA_OK);
	assert_int_equal(inv.drv[1].ata.state, ATA_NO_ANSWER);
	assert_string_equal(inv.drv[1].ata.reason, "no answer within 1 s");
	assert_int_equal(inv.drv[3].ata.state, ATA_NOT_ATA);
	assert_int_equal(inv.drv[4].ata.state, ATA_NOT_ATA);
	assert_int_equal(inv.drv[5].ata.state, ATA_FAILED);
	assert_non_null(strstr(inv.drv[5].ata.reason, "not queried"));
	assert_true(inv.incomplete);
	/* IDENTIFY folded in: the whole model, 512e from word 106 */
	assert_string_equal(inv.drv[0].model, "WDC WD20EFRX-68AX9N0");
	assert_string_equal(inv.drv[0].sector_source, "identify");
	assert_int_equal(inv.drv[0].physical.v, 4096);
	assert_int_equal(inv.drv[0].rotation_rpm.v, 7200);
	assert_false(inv.drv[1].physical.known);	/* the stuck one: nothing invented */

	/* --save-blobs: MODEL--SERIAL like skdump, one file per answering drive
	 * (both answering fakes share model and serial: one file) */
	char path[256];
	snprintf(path, sizeof path, "%s/WDC_WD20EFRX-68AX9N0--WD-WCC4M1234567", dir);
	struct ata_info a;
	assert_int_equal(ata_from_blob_file(path, &a), 0);
	assert_string_equal(a.id.serial, "WD-WCC4M1234567");
	ata_info_free(&a);

	/* Let the abandoned thread finish: it must drop its results without
	 * touching the inventory (run under ASan/valgrind to see it). */
	inventory_free(&inv);
	pthread_mutex_lock(&hook_mu);
	stuck_release = true;
	pthread_cond_broadcast(&hook_cv);
	while (!stuck_returned)
		pthread_cond_wait(&hook_cv, &hook_mu);
	pthread_mutex_unlock(&hook_mu);
	usleep(100000);	/* not an assertion: lets the detached thread exit */
	ata_query_set_hook(NULL);

	unlink(path);
	DIR *dd = opendir(dir);
	struct dirent *e;
	int left = 0;
	while ((e = readdir(dd)))
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			left++;
	closedir(dd);
	rmdir(dir);
	assert_int_equal(left, 0);	/* no stray temporaries */
}

/* --ata-blob NAME=FILE: an existing drive takes the blob; an unknown name
 * becomes a drive of its own; a corrupt file is a note, not a crash. */
static void
test_query_all_blob_args(void **state)
{
	(void)state;
	const char *fx = "tests/fixtures/ata/synthetic-512e.blob";
	if (access(fx, R_OK) != 0)
		fail_msg("fixture %s missing (run from the repo top)", fx);
	char bad[] = "/tmp/ds-badblob-XXXXXX";
	int fd = mkstemp(bad);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "IDFY\0\0\x02\0short", 13), 13);
	close(fd);

	struct inventory inv;
	struct inventory_opts o;
	memset(&inv, 0, sizeof inv);
	inventory_opts_default(&o);
	o.sysfs_root = "/tmp/some-fixture-tree";	/* offline: no live queries */
	add(&inv, "sda", "/dev/sda", TR_SATA);
	add(&inv, "sdb", "/dev/sdb", TR_SATA);
	struct blob_arg args[3];
	memset(args, 0, sizeof args);
	snprintf(args[0].name, sizeof args[0].name, "sda");
	snprintf(args[0].file, sizeof args[0].file, "%s", fx);
	snprintf(args[1].name, sizeof args[1].name, "saved1");
	snprintf(args[1].file, sizeof args[1].file, "%s", fx);
	snprintf(args[2].name, sizeof args[2].name, "broken");
	snprintf(args[2].file, sizeof args[2].file, "%s", bad);
	o.blobs = args;
	o.n_blobs = 3;
	assert_int_equal(ata_query_all(&inv, &o), 0);
	unlink(bad);

	assert_int_equal(inv.n_drv, 4);
	assert_int_equal(inv.drv[0].ata.state, ATA_OK);
	assert_string_equal(inv.drv[0].ata.via, "blob");
	assert_string_equal(inv.drv[0].model, "WDC WD20EFRX-68AX9N0");
	assert_int_equal(inv.drv[1].ata.state, ATA_FAILED);	/* offline: not queried */
	assert_non_null(strstr(inv.drv[1].ata.reason, "offline"));
	assert_string_equal(inv.drv[2].name, "saved1");
	assert_int_equal(inv.drv[2].ata.state, ATA_OK);
	assert_string_equal(inv.drv[2].serial, "WD-WCC4M1234567");
	assert_int_equal(inv.drv[3].ata.state, ATA_FAILED);
	bool noted = false;
	for (size_t i = 0; i < inv.notes.n; i++)
		if (strstr(inv.notes.v[i], "broken") && strstr(inv.notes.v[i], "claims"))
			noted = true;
	assert_true(noted);
	inventory_free(&inv);
}

#define T(f) cmocka_unit_test_setup(f, setup_words)
int
main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_query_all_stuck_drive), T(test_query_async), T(test_query_all_blob_args),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
