/* term.c - the terminal while the dashboard owns it: locale before initscr,
 * short ESC delay, colours, mouse; stderr captured (libraries write there and
 * would scribble over the screen) and printed after; SIGINT, SIGTERM, SIGHUP
 * and SIGQUIT turned into a clean exit (a running test stopped, exit
 * 128+sig); every exit path restores the terminal, a crash too.  SIGWINCH and
 * Ctrl-Z (SIGTSTP/SIGCONT) are ncurses' own: it leaves curses mode on suspend,
 * restores it on resume and reports KEY_RESIZE on a size change. */
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <termios.h>
#include <term.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

static SCREEN *screen;
static FILE *captured;		/* stderr while curses is active */
static int saved_stderr = -1;
static int captured_fd = -1;	/* fileno(captured), for the crash handler */
static volatile sig_atomic_t got_signal;
static bool atexit_done;

/* Signals that end the dashboard cleanly, through the main loop. */
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
/* Meaningless here, and fatal by default: ignored (as during `run`). */
static const int quiet_sigs[] = { SIGUSR1, SIGUSR2, SIGPIPE };
/* Fatal: the terminal is restored in the handler, then the process dies of
 * the same signal (a sanitizer's own handler, when there is one, still runs). */
static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGSYS, SIGTRAP,
				  SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ };
static struct sigaction old_stop[ARRAY_SIZE(stop_sigs)], old_quiet[ARRAY_SIZE(quiet_sigs)],
			old_fatal[ARRAY_SIZE(fatal_sigs)];
static bool sigs_taken;

/* What the crash handler needs, prepared while it is safe to: the saved
 * terminal modes and the bytes that leave curses mode (rmcup, cnorm, sgr0,
 * mouse reporting off). */
static struct termios tio_saved;
static bool tio_have;
static char reset_seq[256];
static size_t reset_len;

static void
on_signal(int sig)
{
	got_signal = sig;
}

static void
put_seq(const char *cap)
{
	char *v = tigetstr((char *)cap);
	size_t n = v && v != (char *)-1 ? strlen(v) : 0;
	if (n && reset_len + n < sizeof reset_seq) {
		memcpy(reset_seq + reset_len, v, n);
		reset_len += n;
	}
}

static void
prepare_reset(void)
{
	reset_len = 0;
	put_seq("sgr0");
	put_seq("cnorm");
	put_seq("rmkx");
	if (tigetstr("kmous") && tigetstr("kmous") != (char *)-1) {
		static const char mouse_off[] = "\033[?1000l\033[?1002l\033[?1006l";
		if (reset_len + sizeof mouse_off - 1 < sizeof reset_seq) {
			memcpy(reset_seq + reset_len, mouse_off, sizeof mouse_off - 1);
			reset_len += sizeof mouse_off - 1;
		}
	}
	put_seq("rmcup");
}

/* Async-signal-safe: write(2), tcsetattr(3), dup2, lseek, read, sigaction,
 * raise only. */
static void
on_fatal(int sig, siginfo_t *si, void *uc)
{
	int saved_errno = errno;
	(void)uc;
	if (screen) {
		if (reset_len && write(1, reset_seq, reset_len) < 0) {
			/* nothing more to do: the terminal may be gone */
		}
		if (tio_have)
			tcsetattr(0, TCSANOW, &tio_saved);
	}
	if (saved_stderr >= 0) {	/* what went to stderr, then the crash */
		char buf[1024];
		ssize_t n;
		int cap = captured_fd;
		dup2(saved_stderr, 2);
		if (cap >= 0 && lseek(cap, 0, SEEK_SET) == 0)
			while ((n = read(cap, buf, sizeof buf)) > 0 && write(2, buf, (size_t)n) == n)
				;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		if (fatal_sigs[i] == sig)
			sigaction(sig, &old_fatal[i], NULL);
	/* A hardware fault re-executes the faulting instruction on return and
	 * meets the old action; anything else (kill, abort, a trap, seccomp)
	 * is sent again, to the old action, once this handler returns. */
	bool fault = (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL) &&
		     si->si_code > 0;
	if (!fault)
		raise(sig);
	errno = saved_errno;
}

static void
signals_take(void)
{
	struct sigaction sa, ign, fat;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	ign = sa;
	ign.sa_handler = SIG_IGN;
	memset(&fat, 0, sizeof fat);
	fat.sa_sigaction = on_fatal;
	fat.sa_flags = SA_SIGINFO;
	sigemptyset(&fat.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &sa, &old_stop[i]);
	for (size_t i = 0; i < ARRAY_SIZE(quiet_sigs); i++)
		sigaction(quiet_sigs[i], &ign, &old_quiet[i]);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &fat, &old_fatal[i]);
	sigs_taken = true;
}

static void
signals_restore(void)
{
	if (!sigs_taken)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &old_stop[i], NULL);
	for (size_t i = 0; i < ARRAY_SIZE(quiet_sigs); i++)
		sigaction(quiet_sigs[i], &old_quiet[i], NULL);
	for (size_t i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &old_fatal[i], NULL);
	sigs_taken = false;
}

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
		return;
	}
	captured_fd = fileno(captured);
}

void
term_flush_stderr(void)
{
	char buf[4096];
	size_t n;

	if (saved_stderr < 0)
		return;
	fflush(stderr);
	captured_fd = -1;
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
		signals_restore();
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
	return got_signal ? 128 + got_signal : 0;
}

int
term_start(struct ui *u)
{
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

	tio_have = tcgetattr(0, &tio_saved) == 0;
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
	got_signal = 0;
	signals_take();
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
	prepare_reset();
	return 0;
}
