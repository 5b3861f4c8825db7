/* Pieces of the hosted platform (ember-run), shared between its files. */
#ifndef EMBER_HOSTED_H
#define EMBER_HOSTED_H

#include <stdbool.h>
#include <efi/system_table.h>
#include <efi/protocol/device_path.h>

/* Console: ConIn + SimpleTextInputEx from stdin, ConOut to stdout, StdErr to stderr.
 * Installs the handles and sets them in the system table. */
EFI_STATUS hosted_console_init(void);
/* Puts the terminal back the way it was (called at exit, also after a crash). */
void hosted_console_restore(void);

/* GOP over an in-memory framebuffer; the given size becomes mode 0. */
EFI_STATUS hosted_gop_init(UINT32 width, UINT32 height);
/* Writes the current framebuffer as a PNG file; returns false with errno-style reason. */
bool hosted_gop_screenshot(const char *path);

/* A host directory as a SimpleFileSystem volume on a new handle. */
EFI_STATUS hosted_fs_mount(const char *directory, EFI_HANDLE *handle,
			   EFI_DEVICE_PATH_PROTOCOL **device_path);

#endif
