/* list.c - `diskscope list`: the bench inventory as a table or JSON. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "inventory/inventory.h"
#include "report/doc.h"
#include "report/text.h"

int
cli_scan(struct inventory *inv, const struct global_opts *g)
{
	int rc = inventory_scan(inv, &g->inv);
	if (rc) {
		fprintf(stderr, "diskscope: %s\n", inv->error[0] ? inv->error : strerror(-rc));
		inventory_free(inv);
		return EXIT_USAGE;
	}
	return 0;
}

int
cli_list(int argc, char **argv, struct global_opts *g)
{
	bool json = false, strict = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (strcmp(argv[i], "--strict") == 0)
			strict = true;
		else if (strcmp(argv[i], "--help") == 0) {
			printf("usage: diskscope [GLOBAL...] list [--json] [--strict]\n");
			return 0;
		} else {
			fprintf(stderr, "diskscope: list: unknown option '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	struct inventory inv = { 0 };
	int rc = cli_scan(&inv, g);
	if (rc)
		return rc;
	if (json) {
		struct json_object *doc = doc_new();
		if (!doc) {
			inventory_free(&inv);
			return EXIT_PROBLEMS;
		}
		json_object_object_add(doc, "inventory", doc_inventory(&inv));
		rc = doc_write(doc, "-");
		json_object_put(doc);
	} else {
		inventory_print(stdout, &inv);
		rc = doc_flush(stdout);		/* > /dev/full: say so, never exit 0 */
		/* what could not be read, and why: diagnostics, not table rows */
		for (size_t i = 0; i < inv.notes.n; i++)
			fprintf(stderr, "diskscope: note: %s\n", inv.notes.v[i]);
	}
	bool incomplete = inv.incomplete;
	inventory_free(&inv);
	if (rc) {
		fprintf(stderr, "diskscope: list: writing to stdout: %s\n", strerror(-rc));
		return EXIT_OUTPUT;
	}
	return (strict && incomplete) ? EXIT_PROBLEMS : 0;
}

