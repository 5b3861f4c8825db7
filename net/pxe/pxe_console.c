/* What the PXE boot tells the user on the console (ConOut): the address, the boot file,
 * the download's progress and rate, and why it failed. */
#include <ember/core/core.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include "pxe.h"

void pxe_say(const char *fmt, ...)
{
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *out = core_st->ConOut;
	char text[256];
	CHAR16 units[256];
	va_list ap;

	va_start(ap, fmt);
	format_vsn(text, sizeof(text), fmt, ap);
	va_end(ap);
	utf8_to_ucs2(units, ARRAY_SIZE(units), text, str8_len(text));
	if (out)
		out->OutputString(out, units);
}
