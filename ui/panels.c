/* panels.c - the panel registry: which file draws which area, and who takes
 * keys and clicks.  Tab walks this table in order. */
#include <stddef.h>
#include "internal.h"

const struct panel panels[] = {
	{ AR_INVENTORY, "Inventory", panel_inventory_draw, panel_inventory_key, panel_inventory_click },
	{ AR_DETAILS, "Details", panel_details_draw, panel_details_key, NULL },
	{ AR_PICKER, "Test picker", panel_picker_draw, panel_picker_key, panel_picker_click },
	{ AR_THROUGHPUT, "Throughput", panel_throughput_draw, NULL, NULL },
	{ AR_POSITION, "Surface", panel_surface_draw, NULL, NULL },
	{ AR_SCALING, "Per drive", panel_scaling_draw, NULL, NULL },
	{ AR_SATURATION, "Controller saturation", panel_saturation_draw, NULL, NULL },
	{ AR_LATENCY, "Latency", panel_latency_draw, NULL, NULL },
	{ AR_STATS, "Stats", panel_stats_draw, NULL, NULL },
	{ AR_TABLE, "Table", panel_table_draw, NULL, NULL },
	{ AR_BOARD, "Board", panel_board_draw, panel_board_key, panel_board_click },
	{ AR_RESULTS, "Results", panel_results_draw, panel_results_key, NULL },
	{ AR_RESULTS2, "Results (2)", panel_results2_draw, panel_results_key, NULL },
};
const size_t n_panels = sizeof(panels) / sizeof(panels[0]);

const struct panel *
panel_for(enum area a)
{
	for (size_t i = 0; i < n_panels; i++)
		if (panels[i].area == a)
			return &panels[i];
	return NULL;
}
