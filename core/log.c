/* The debug log, formatted here and written through the platform. */
#include <ember/core/log.h>
#include <ember/core/platform.h>

enum log_level log_threshold = LOG_LEVEL_WARN;

static void log_sink(void *ctx, const char *s, size_t n)
{
	plat_log_write(s, n);
}

void log_vprintf(enum log_level level, const char *fmt, va_list ap)
{
	if (level > log_threshold)
		return;
	format_v(log_sink, NULL, fmt, ap);
}

void log_printf(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprintf(level, fmt, ap);
	va_end(ap);
}
