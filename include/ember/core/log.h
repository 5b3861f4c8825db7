/* Ember's debug log: a line-oriented channel to the platform's log output (stderr on
 * the hosted runner, the debug console or serial port on firmware).
 *
 * Each file names itself by defining LOG_PREFIX before its first #include, e.g.
 *     #define LOG_PREFIX "gpt: "
 * and every line it logs starts with that. Drivers' Start functions and parsers of outside
 * data log one line at each failing step, at debug level (`ember-run --debug` shows them):
 *     log_debug("read of the header at LBA %llu: %r\n", lba, status);
 * Warnings and errors are for what the user must know (data skipped, a device that failed). */
#ifndef EMBER_LOG_H
#define EMBER_LOG_H

#include <ember/lib/format.h>

#ifndef LOG_PREFIX
#define LOG_PREFIX ""
#endif

enum log_level { LOG_LEVEL_ERROR, LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };

/* Messages above this level are dropped; platforms set it from their options. */
extern enum log_level log_threshold;

/* Formats as lib/format.h does (with its %r for statuses and %pG for GUIDs). */
void log_printf(enum log_level level, const char *fmt, ...);
void log_vprintf(enum log_level level, const char *fmt, va_list ap);

#define log_error(fmt, ...) log_printf(LOG_LEVEL_ERROR, LOG_PREFIX fmt, ##__VA_ARGS__)
#define log_warn(fmt, ...) log_printf(LOG_LEVEL_WARN, LOG_PREFIX fmt, ##__VA_ARGS__)
#define log_info(fmt, ...) log_printf(LOG_LEVEL_INFO, LOG_PREFIX fmt, ##__VA_ARGS__)
#define log_debug(fmt, ...) log_printf(LOG_LEVEL_DEBUG, LOG_PREFIX fmt, ##__VA_ARGS__)

#endif
