/* smr.h - drive-managed SMR assessment and Advanced Format hints. */
#ifndef DS_SMR_H
#define DS_SMR_H
#include "inventory/inventory.h"

struct smr_model_hit {
	const char *kind;	/* "SMR", "CMR", "AF" */
	const char *family;	/* e.g. "WD Red (SMR)" */
	const char *source;	/* where the listing comes from */
};

/* Look a model string up in the shipped model list (src/inventory/smr-models.csv,
 * embedded).  0 and *hit filled, or -ENOENT. */
int smr_lookup_model(const char *model, const char *kind, struct smr_model_hit *hit);

/* Fill d->smr (verdict + evidence) from zoned bits, TRIM on rotating media,
 * known model families; add the "AF drive that hides its 4K sectors"
 * warning to d->warnings where it applies. */
void smr_assess(struct drive *d);
#endif
