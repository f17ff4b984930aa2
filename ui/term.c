/* term.c - the terminal while the dashboard owns it: locale before initscr,
 * short ESC delay, colours, mouse; stderr captured (libraries write there and
 * would scribble over the screen) and printed after; SIGINT/SIGTERM turned
 * into a clean exit; every exit path restores the terminal.  SIGWINCH and
 * Ctrl-Z (SIGTSTP/SIGCONT) are ncurses' own: it leaves curses mode on suspend,
 * restores it on resume and reports KEY_RESIZE on a size change. */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

static SCREEN *screen;
static FILE *captured;		/* stderr while curses is active */
static int saved_stderr = -1;
static volatile sig_atomic_t got_signal;
static struct sigaction old_int, old_term;
static bool atexit_done;

static void
on_signal(int sig)
{
	got_signal = sig;
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_UNDEFINED__)
/* A crash must not leave the terminal in raw mode.  (Not under sanitizers:
 * their reports matter more.) */
static void
on_fatal(int sig)
{
	if (screen)
		endwin();
	if (saved_stderr >= 0)
		dup2(saved_stderr, 2);
	signal(sig, SIG_DFL);
	raise(sig);
}
#endif

static void
capture_stderr(void)
{
	fflush(stderr);
	captured = tmpfile();
	if (!captured)
		return;		/* then stderr goes to the screen; not fatal */
	saved_stderr = dup(2);
	if (saved_stderr < 0 || dup2(fileno(captured), 2) < 0) {
		if (saved_stderr >= 0)
			close(saved_stderr);
		saved_stderr = -1;
		fclose(captured);
		captured = NULL;
	}
}

void
term_flush_stderr(void)
{
	char buf[4096];
	size_t n;

	if (saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
	if (captured) {
		rewind(captured);
		while ((n = fread(buf, 1, sizeof(buf), captured)) > 0)
			if (write(2, buf, n) < 0)
				break;
		fclose(captured);
		captured = NULL;
	}
}

void
term_stop(void)
{
	if (screen) {
		endwin();
		delscreen(screen);
		screen = NULL;
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	term_flush_stderr();
}

static void
at_exit(void)
{
	term_stop();
}

int
term_signal_exit(void)
{
	return got_signal == SIGINT ? 130 : got_signal == SIGTERM ? 143 : 0;
}

int
term_start(struct ui *u)
{
	struct sigaction sa;
	const char *nc = getenv("NO_COLOR");

	setlocale(LC_ALL, "");
	u->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!isatty(1) || !isatty(0)) {
		snprintf(u->msg, sizeof(u->msg), "the dashboard needs a terminal "
			 "(use `diskscope list` or `diskscope run` in scripts)");
		return -ENOTTY;
	}
	if (!u->o || !u->o->glyphs || glyphs_parse(u->o->glyphs, &u->gl) < 0)
		u->gl = glyphs_auto(nl_langinfo(CODESET), getenv("TERM"));
	if (!u->utf8)
		u->gl = GL_ASCII;	/* braille bytes would be garbage */
	u->utf8 = u->utf8 && u->gl != GL_ASCII;

	capture_stderr();
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		term_flush_stderr();
		snprintf(u->msg, sizeof(u->msg), "cannot set up terminal '%s'",
			 getenv("TERM") ? getenv("TERM") : "(TERM unset)");
		return -ENOTTY;
	}
	set_term(screen);
	if (!atexit_done) {
		atexit(at_exit);
		atexit_done = true;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_UNDEFINED__)
	signal(SIGSEGV, on_fatal);
	signal(SIGBUS, on_fatal);
	signal(SIGFPE, on_fatal);
	signal(SIGABRT, on_fatal);
#endif
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	u->nocolor = (nc && *nc) || !has_colors();
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
	mouseinterval(0);
	getmaxyx(stdscr, u->rows, u->cols);
	return 0;
}
