/* What tftp and http share: names as ASCII, the local name from the remote one, and the
 * download written to a file. */
#include "net_file.h"
#include "../../lib/tsc.h"

char *net_ascii(const CHAR16 *s)
{
	UINTN n = 0;
	char *out;

	while (s[n]) {
		if (s[n] < 0x20 || s[n] > 0x7e)
			return NULL;
		n++;
	}
	out = app_alloc(n + 1);
	if (!out)
		return NULL;
	for (UINTN i = 0; i <= n; i++)
		out[i] = (char)s[i];
	return out;
}

const CHAR16 *net_local_name(const CHAR16 *remote, const CHAR16 *fallback)
{
	const CHAR16 *last = remote;

	for (const CHAR16 *p = remote; *p; p++)
		if (*p == '/' || *p == '\\')
			last = p + 1;
	return *last ? last : fallback;
}

EFI_STATUS net_save(struct shell *sh, const char *cmd, const CHAR16 *local, const void *data,
		    UINT64 size, UINT64 ticks)
{
	UINT64 hz = app_tsc_hz(), ms = ticks * 1000 / (hz ? hz : 1);
	EFI_STATUS status;

	sh_print(sh, "%s: %llu bytes in %llu ms (%llu KiB/s)\n", cmd, (unsigned long long)size,
		 (unsigned long long)ms,
		 (unsigned long long)(ticks ? size * hz / ticks / 1024 : 0));
	status =
	    size > (UINTN)-1 ? EFI_BAD_BUFFER_SIZE : sh_write_file(sh, local, data, (UINTN)size);
	if (EFI_ERROR(status))
		sh_error(sh, "%s: writing %ls: %s\n", cmd, local, sh_status_text(status));
	else
		sh_print(sh, "%s: %ls written\n", cmd, local);
	return status;
}
