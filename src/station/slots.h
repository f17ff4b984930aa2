/* slots.h (station) - the bays of a bench: one slot per port, named by the
 * technician's slots.ini (label -> port, by-path name or loop backing-file
 * pattern), and a drive's place among them. */
#ifndef DS_STATION_SLOTS_H
#define DS_STATION_SLOTS_H
#include <stdbool.h>
#include <stddef.h>

enum slot_by {
	SLOT_BY_PORT,		/* [CTRL-ADDRESS] PORT: "0000:00:1f.2 ata3", or "ata3" */
	SLOT_BY_PATH,		/* a /dev/disk/by-path name: "pci-0000:00:1f.2-ata-3" */
	SLOT_BY_PATTERN,	/* a loop device's backing file, a glob: "/srv/bench/disk*" */
};

struct slot_def {
	char label[48];		/* the bay's name on the board and in the events */
	enum slot_by by;
	char ctrl[32];		/* SLOT_BY_PORT: the controller's PCI address, "" any */
	char value[256];	/* the port, by-path name or pattern */
	bool learned;		/* not from slots.ini: a drive at a port no slot names */
};

struct slot_table {
	struct slot_def *v;
	size_t n;
};

/* What is known of where a drive sits (any field may be "" or NULL). */
struct slot_key {
	const char *name;	/* loop3 */
	const char *ctrl;	/* its controller's PCI address */
	const char *port;	/* ata3, host2, nvme0 */
	const char *by_path;	/* the by-path link's name, when /dev/disk/by-path has one */
	const char *backing;	/* a loop device's backing file */
};

/* slots.ini: one section per bay, its label, with one of port =, by-path =,
 * pattern =.  Sections in file order are the slots' order.  0, or -EINVAL
 * with "FILE:LINE: reason" in err; -errno when the file cannot be read. */
int slots_load(const char *path, struct slot_table *t, char *err, size_t errlen);
int slots_parse(const char *text, const char *origin, struct slot_table *t, char *err, size_t errlen);
/* The slot a drive belongs in: its index, or -ENOENT.  A port slot with a
 * controller address wants both; by-path and pattern match exactly / by
 * glob. */
int slots_match(const struct slot_table *t, const struct slot_key *k);
/* Add a slot for a drive no slot names (by its port, else its name): its
 * index, or -errno. */
int slots_learn(struct slot_table *t, const struct slot_key *k);
void slots_free(struct slot_table *t);
#endif
