/* What the download commands (tftp, http) share. */
#ifndef SHELL_CMD_NET_FILE_H
#define SHELL_CMD_NET_FILE_H

#include "../internal.h"

/* s as a new ASCII string (app_free), or NULL when it has other characters. */
char *net_ascii(const CHAR16 *s);
/* The last part of a remote name or URL path (after / or \), or fallback when empty. */
const CHAR16 *net_local_name(const CHAR16 *remote, const CHAR16 *fallback);
/* Ends a download that took ticks: prints its size and rate, writes it to local (in the
 * current directory when relative) and says so; reports failures. */
EFI_STATUS net_save(struct shell *sh, const char *cmd, const CHAR16 *local, const void *data,
		    UINT64 size, UINT64 ticks);

#endif
