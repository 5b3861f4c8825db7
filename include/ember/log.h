/* Ember's debug log: a line-oriented channel to the platform's log output (stderr on
 * the hosted runner, the debug console or serial port on firmware). */
#ifndef EMBER_LOG_H
#define EMBER_LOG_H

#include <ember/format.h>

enum log_level { LOG_LEVEL_ERROR, LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };

/* Messages above this level are dropped; platforms set it from their options. */
extern enum log_level log_threshold;

void log_printf(enum log_level level, const char *fmt, ...);
void log_vprintf(enum log_level level, const char *fmt, va_list ap);

#define log_error(...) log_printf(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warn(...) log_printf(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_info(...) log_printf(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(...) log_printf(LOG_LEVEL_DEBUG, __VA_ARGS__)

#endif
