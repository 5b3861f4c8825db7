/* Support library for Ember's own EFI applications (conformance tests, the shell). An
 * application calls app_init() from efi_main and then uses the system table through the
 * app_* globals, prints with app_print(), and finds small helpers in the other headers
 * of this directory. Everything here uses only the UEFI API it was given. */
#ifndef APP_LIB_APP_H
#define APP_LIB_APP_H

#include <stdarg.h>
#include <efi/efi.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>

/* The image handle and tables handed to efi_main. app_bs is NULL after ExitBootServices
 * once the application calls app_forget_boot_services(). */
extern EFI_HANDLE app_image;
extern EFI_SYSTEM_TABLE *app_st;
extern EFI_BOOT_SERVICES *app_bs;
extern EFI_RUNTIME_SERVICES *app_rt;

/* Records the image handle and the system table; call it first in efi_main. */
void app_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

/* Drops every reference to boot services and the consoles (after ExitBootServices). */
void app_forget_boot_services(void);

/* Stops the processor for good (after a ResetSystem that returned, past ExitBootServices). */
_Noreturn void app_halt(void);

/* Output goes to ConOut unless redirected; each sink receives UTF-8 text. */
typedef void (*app_output_fn)(void *ctx, const char *text, size_t len);

/* Redirects all app_print output to fn (NULL restores ConOut). */
void app_set_output(app_output_fn fn, void *ctx);

/* printf-style output (see ember/lib/format.h: %ls, %pG, %r); '\n' becomes CR LF on ConOut. */
void app_print(const char *fmt, ...);
void app_vprint(const char *fmt, va_list ap);

/* Pool allocation of EfiLoaderData; NULL on failure. */
void *app_alloc(size_t size);
void *app_zalloc(size_t size);
void app_free(void *p);

/* The application's command line (its LoadOptions, UCS-2) as UTF-8 in line[0..size);
 * empty when there is none. */
void app_command_line(char *line, size_t size);

/* Whether the image's load options (its command line) contain the ASCII text word. */
bool app_has_arg(const char *word);

/* Whether the firmware vendor string contains the ASCII text `name`. */
bool app_firmware_is(const char *name);

#endif
