/* faultdev.h - the test fault device: disks, their behaviours, the commands
 * that change them.  The FUSE side (ds-faultdev.c) only moves bytes; every
 * drive behaviour lives in behave.c as one small function in a table, so a
 * new one is a struct field, a command and a hook. */
#ifndef FAULTDEV_H
#define FAULTDEV_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FD_MAX_DISKS	8
#define FD_MAX_RULES	64
#define FD_MAX_POINTS	16
#define FD_SECTOR	512ULL

enum fd_op { FD_READ = 1, FD_WRITE = 2 };

/* An LBA range rule: EIO or a delay for the I/Os that touch it. */
struct fd_range {
	uint64_t lba0, lba1;		/* inclusive, 512-byte sectors */
	unsigned ops;			/* FD_READ | FD_WRITE */
	double ms;			/* delay rules */
	uint64_t failed_reads;		/* eio rules: reads it failed (shown by .ctl) */
};

/* rate curve point: MB/s (10^6) at a position fraction 0..1 */
struct fd_point { double pos, mbps; };

struct fd_disk {
	char name[16];
	uint64_t size;			/* bytes */
	unsigned char *mem;		/* backing store (anonymous, sparse) */

	/* behaviour state, under fd_dev.lock */
	bool vanished;
	struct fd_range eio[FD_MAX_RULES];
	size_t n_eio;
	struct fd_range delay[FD_MAX_RULES];
	size_t n_delay;
	struct fd_range drop[FD_MAX_RULES];	/* writes acknowledged, these sectors not stored */
	size_t n_drop;
	double delay_all_ms;
	struct fd_point rate[FD_MAX_POINTS];
	size_t n_rate;
	uint32_t rmw_phys;		/* 0: off */
	double rmw_ms;
	uint64_t mc_size;		/* media cache: 0 = off */
	double mc_stall_s, mc_period_s;
	uint64_t mc_used, mc_next_off;	/* bytes taken by random writes; where a seq write would go */
	double mc_full_at;		/* monotonic s when it filled; 0 = not full */
	double mc_last_write;
	double busy_until;		/* one head: rate/RMW time is served in turn */

	/* counters, shown by reading .ctl */
	uint64_t n_reads, n_writes, n_failed, n_delayed;
};

struct fd_dev {
	pthread_mutex_t lock;
	pthread_cond_t wake;		/* vanish and "clear" wake sleeping I/O */
	struct fd_disk disk[FD_MAX_DISKS];
	size_t n_disks;
	double stall_until;		/* every disk: I/O waits until then */
	unsigned gen;			/* bumped by clear/vanish: sleepers re-check */
	bool unmount;			/* "vanish unmount": the FUSE side ends the mount */
	int verbose;
};

/* monotonic seconds */
double fd_now(void);

/* Apply one command line ("eio 100 200", "disk1 vanish", ...).  Returns 0 or
 * -errno with a reason in err. */
int fd_command(struct fd_dev *d, const char *line, char *err, size_t errlen);

/* Apply every line of a command file ('#' comments). */
int fd_command_file(struct fd_dev *d, const char *path, char *err, size_t errlen);

/* Run the behaviours for one I/O on disk k: may sleep; returns 0 to go on
 * or -errno to fail the I/O. */
int fd_behave(struct fd_dev *d, size_t k, enum fd_op op, uint64_t off, size_t len);

/* Store a write that fd_behave let through: size bytes at off of disk k,
 * less the sectors a "drop" rule covers (the write still succeeds). */
void fd_store(struct fd_dev *d, size_t k, uint64_t off, const char *buf, size_t size);

/* The state as text (what reading MOUNT/.ctl shows); malloc'd. */
char *fd_describe(struct fd_dev *d);

/* The command summary (--help and the README). */
extern const char fd_command_help[];

#endif
