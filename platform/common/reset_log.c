/* The reset and its reason on the log (QEMU's x86-64 and AArch64 machines). */
#include <ember/core/log.h>
#include <ember/core/platform_common.h>
#include <ember/lib/str.h>

void plat_reset_log(EFI_RESET_TYPE type, EFI_STATUS status, UINTN data_size, const void *data)
{
	static const char *const kinds[] = {"cold reset", "warm reset", "shutdown",
					    "platform-specific reset"};
	char why[256] = "";

	if (data && data_size >= sizeof(CHAR16))
		ucs2_to_utf8(why, sizeof(why), data, data_size / sizeof(CHAR16));
	log_printf(LOG_LEVEL_ERROR, "%s: %r%s%s\n", (UINT32)type < 4 ? kinds[type] : "reset",
		   status, why[0] ? ": " : "", why);
}
