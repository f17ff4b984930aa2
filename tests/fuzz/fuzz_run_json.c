/* fuzz_run_json.c - the saved-result loader behind `diskscope show`: JSON
 * text -> json-c -> run_json_from_object (the same steps run_json_load
 * takes after reading the file), then the text report of what was loaded. */
#include <json-c/json.h>
#include <stdio.h>
#include "fuzz.h"
#include "report/run.h"
#include "run/result.h"

static FILE *devnull;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	struct json_tokener *tok = json_tokener_new();
	if (!tok)
		return 0;
	struct json_object *doc = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!doc)
		return 0;
	struct json_object *run = NULL;
	if (!json_object_object_get_ex(doc, "run", &run))
		run = doc;
	struct run_result r;
	char err[256];
	if (run_json_from_object(run, &r, err, sizeof err) == 0) {
		run_text_print(devnull, &r);
		run_result_free(&r);
	}
	json_object_put(doc);
	return 0;
}
