/* ui-placeholder.c - removed once ui/loop.c lands. */
#include "ui.h"
