/* keys.c - every key as data: the key, the views it works in, the action and
 * its help text.  The help overlay and the footer hints are made from this. */
#include <curses.h>
#include "internal.h"

#define V(v) (1u << (v))
#define ALL 0u
#define KEY_ESC 27
#define KEY_TAB '\t'
#define CTRL(c) ((c) & 0x1f)

const struct key_binding key_table[] = {
	{ KEY_F(1), ALL, ACT_HELP, "F1 ?", "this help", "Help" },
	{ '?', ALL, ACT_HELP, "?", NULL, NULL },
	{ KEY_F(10), ALL, ACT_QUIT, "F10 q", "quit (asks while a test runs)", "Quit" },
	{ 'q', ALL, ACT_QUIT, "q", NULL, NULL },
	{ KEY_UP, ALL, ACT_UP, "Up k", "move up", NULL },
	{ 'k', ALL, ACT_UP, "k", NULL, NULL },
	{ KEY_DOWN, ALL, ACT_DOWN, "Down j", "move down", NULL },
	{ 'j', ALL, ACT_DOWN, "j", NULL, NULL },
	{ KEY_LEFT, V(VIEW_PICKER), ACT_LEFT, "Left h", "previous value of a parameter", NULL },
	{ 'h', V(VIEW_PICKER), ACT_LEFT, "h", NULL, NULL },
	{ KEY_RIGHT, V(VIEW_PICKER), ACT_RIGHT, "Right l", "next value of a parameter", NULL },
	{ 'l', V(VIEW_PICKER), ACT_RIGHT, "l", NULL, NULL },
	{ KEY_PPAGE, ALL, ACT_PGUP, "PgUp", "page up", NULL },
	{ KEY_NPAGE, ALL, ACT_PGDN, "PgDn", "page down", NULL },
	{ KEY_HOME, ALL, ACT_HOME, "Home g", "first line", NULL },
	{ 'g', ALL, ACT_HOME, "g", NULL, NULL },
	{ KEY_END, ALL, ACT_END, "End G", "last line", NULL },
	{ 'G', ALL, ACT_END, "G", NULL, NULL },
	{ '\n', ALL, ACT_ENTER, "Enter", "open / choose / start the test", NULL },
	{ '\r', ALL, ACT_ENTER, "Enter", NULL, NULL },
	{ KEY_ENTER, ALL, ACT_ENTER, "Enter", NULL, NULL },
	{ ' ', V(VIEW_PICKER), ACT_SPACE, "Space", "select a target drive (or a whole controller)", "Select" },
	{ KEY_TAB, ALL, ACT_TAB, "Tab", "next panel", "Panel" },
	{ KEY_BTAB, ALL, ACT_BTAB, "S-Tab", "previous panel", NULL },
	{ 't', V(VIEW_HOME) | V(VIEW_RESULT) | V(VIEW_LIVE), ACT_PICKER, "t", "test picker", "Test" },
	{ '/', V(VIEW_HOME), ACT_FILTER, "/", "filter the inventory", "Filter" },
	{ 'c', V(VIEW_PICKER), ACT_CTRL, "c", "select every drive of the controller", NULL },
	{ 'T', ALL, ACT_THEME, "T", "next colour theme", "Theme" },
	{ 'o', V(VIEW_LIVE) | V(VIEW_RESULT), ACT_SORT, "o", "board: order by verdict (FAIL first) or by slot", NULL },
	{ 's', V(VIEW_LIVE), ACT_STOP, "s Esc", "stop the test (Esc closes an open board detail first)", "Stop" },
	{ KEY_ESC, V(VIEW_LIVE), ACT_STOP, "Esc", NULL, NULL },
	{ KEY_ESC, V(VIEW_PICKER) | V(VIEW_RESULT) | V(VIEW_HOME), ACT_BACK, "Esc",
	  "back (picker, results) / clear the filter", "Back" },
	{ 'e', V(VIEW_RESULT), ACT_EXPORT, "e", "export the result as JSON and CSV", "Export" },
	{ CTRL('l'), ALL, ACT_REDRAW, "C-l", "redraw the screen", NULL },
};
const size_t n_key_table = sizeof(key_table) / sizeof(key_table[0]);

enum action
keys_lookup(int ch, enum view v)
{
	for (size_t i = 0; i < n_key_table; i++)
		if (key_table[i].key == ch && (key_table[i].views == ALL || key_table[i].views & V(v)))
			return key_table[i].act;
	return ACT_NONE;
}
