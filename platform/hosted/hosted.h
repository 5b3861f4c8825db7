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

/* ---- Owned by the runner itself (main.c, platform.c, crash.c) ---- */

/* The options that outlive argument parsing. */
struct hosted_options {
	const char *app;	/* the EFI program */
	const char *screenshot; /* --screenshot FILE.png, or NULL */
	bool trace;		/* --trace */
};
extern struct hosted_options hosted_options;

/* Ends the process the way every path out of ember-run does: terminal restored,
 * screenshot written, then exit(code). */
_Noreturn void hosted_exit(int code);

/* Starts and stops the periodic SIGALRM that stands in for the timer interrupt. */
void hosted_timer_start(void);
void hosted_timer_stop(void);

/* Installs the handlers that turn a fault in an EFI program into a report and exit 3. */
void hosted_crash_handlers_install(void);

#endif
