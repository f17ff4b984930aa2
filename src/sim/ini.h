/* ini.h - table-driven INI reading for the sim data files, on top of inih:
 * every key is declared once (section, name, type, range, required), so an
 * unknown key, a duplicate, a bad number or a missing key becomes one
 * "file:line: message".  Line numbers come from our own line reader. */
#ifndef DS_SIM_INI_H
#define DS_SIM_INI_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum sim_key_type {
	SK_STR,		/* char[size] */
	SK_U32, SK_U64,	/* integers in [min, max] */
	SK_DBL,		/* double in [min, max] */
	SK_BOOL,	/* yes/no/true/false/1/0 */
	SK_HEX16,	/* uint16_t, hex without 0x */
	SK_HEX32,	/* uint32_t, hex with or without 0x */
	SK_CUSTOM,	/* parsed by the table's custom callback */
};

struct sim_key {
	const char *section, *name;
	enum sim_key_type type;
	size_t off, size;	/* offset in the target struct; string size */
	double min, max;
	bool required, repeat;	/* repeat: may appear more than once */
};

struct sim_ini;
/* Custom values (curves, regions, lists): 0, or -EINVAL with msg filled. */
typedef int (*sim_custom_fn)(struct sim_ini *p, const struct sim_key *k, const char *value,
			     char *msg, size_t msglen);

struct sim_ini {
	const char *file;
	const struct sim_key *keys;
	size_t n_keys;
	void *obj;
	sim_custom_fn custom;
	/* per key: line it was last seen on (0 = not seen) */
	int seen[96];
	/* sections: how many headers so far, the current one's name and line */
	int n_sections;
	int section_line;
	char section[64];
	/* the reader */
	const char *pos;
	int line;
	bool too_long;
	/* the first error */
	bool failed;
	char err[320];
	void *user;		/* for the caller's custom callback */
	/* sections seen (a repeat is an error, except repeat_section) */
	const char *repeat_section;
	struct {
		char name[64];
		int line;
	} seen_section[16];
	size_t n_seen_sections;
};

/* Parse text into p->obj. 0 or -EINVAL (p->err "file:line: message"). */
int sim_ini_run(struct sim_ini *p, const char *text);
/* Record an error at a line (the first one wins). */
void sim_ini_fail(struct sim_ini *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Line a key was seen on (by name), or the section's line / 1. */
int sim_ini_line(const struct sim_ini *p, const char *name);
bool sim_ini_seen(const struct sim_ini *p, const char *name);
/* Parse a double / unsigned with nothing after it. */
int sim_parse_dbl(const char *s, double *v);
int sim_parse_u64(const char *s, uint64_t *v);
#endif
