/* signals.c - the signals a headless run takes over while it runs. */
#include <signal.h>
#include <stddef.h>
#include "cli/internal.h"
#include "util/util.h"

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

/* Signals that end a run alike: the workers stop, the partial result is
 * written (marked interrupted), the scratch file removed, exit 128+sig. */
static const int stop_sigs[3] = { SIGINT, SIGTERM, SIGHUP };
/* Ignored during a run: SIGPIPE, because a closed stdout must become an
 * EPIPE output error after the cleanup, not a death before it; SIGUSR1 and
 * SIGUSR2, which mean nothing here and would otherwise kill the run. */
static const int quiet_sigs[3] = { SIGPIPE, SIGUSR1, SIGUSR2 };

void
signals_take(struct sig_saved *sv)
{
	struct sigaction sa = { .sa_handler = on_signal }, ign = { .sa_handler = SIG_IGN };
	sigemptyset(&sa.sa_mask);
	sigemptyset(&ign.sa_mask);
	got_signal = 0;
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &sa, &sv->stop[i]);
	for (size_t i = 0; i < ARRAY_SIZE(quiet_sigs); i++)
		sigaction(quiet_sigs[i], &ign, &sv->quiet[i]);
}

void
signals_restore(const struct sig_saved *sv)
{
	for (size_t i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &sv->stop[i], NULL);
	for (size_t i = 0; i < ARRAY_SIZE(quiet_sigs); i++)
		sigaction(quiet_sigs[i], &sv->quiet[i], NULL);
}

int
signals_caught(void)
{
	return got_signal;
}
