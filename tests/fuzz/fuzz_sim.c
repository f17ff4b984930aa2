/* fuzz_sim.c - sim data files: the first byte picks the parser (drive
 * model, controller model, rig), the rest is the file.  A drive model that
 * parses is also driven through a few simulated I/Os. */
#include "fuzz.h"
#include "sim/model.h"
#include "sim/drive.h"

/* A few I/Os over the model: service time always positive and bounded. */
static void
drive_io(const struct sim_drive_model *m)
{
	struct sim_drive *d;
	if (m->capacity > (1ull << 40) || sim_drive_new(m, NULL, "fuzz", 1, &d))
		return;	/* SMR bookkeeping is per MiB: keep memory small */
	const uint32_t len = 1u << 20;
	uint64_t at[] = { 0, m->capacity / 2, m->capacity - len, m->bad[0].start,
			  m->slow[0].start };
	for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
		int res;
		uint64_t off = at[i] / m->logical * m->logical;
		if (off + len > m->capacity)
			continue;
		for (int w = 0; w < 2; w++) {
			uint64_t ns = sim_drive_service(d, off, len, w, i & 1, &res);
			if (ns == 0 || ns > (uint64_t)(SIM_MAX_IO_S * 1e9) + 1)
				abort();
		}
	}
	sim_drive_trim(d, 0, len);
	sim_drive_idle(d, 1000000000ull);
	sim_drive_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = fuzz_text(data + 1, size - 1), err[512];
	if (!text)
		return 0;
	switch (data[0] % 3) {
	case 0: {
		struct sim_drive_model *m = malloc(sizeof *m);
		if (m && sim_drive_parse(text, "fuzz.drive", m, err, sizeof err) == 0)
			drive_io(m);
		free(m);
		break;
	}
	case 1: {
		struct sim_hba_model *h = malloc(sizeof *h);
		if (h)
			sim_hba_parse(text, "fuzz.hba", h, err, sizeof err);
		free(h);
		break;
	}
	default: {
		struct sim_rig *r = malloc(sizeof *r);
		if (r)
			sim_rig_parse(text, "fuzz.rig", r, err, sizeof err);
		free(r);
		break;
	}
	}
	free(text);
	return 0;
}
