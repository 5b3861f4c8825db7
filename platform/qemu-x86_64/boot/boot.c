/* What to boot, in order.
 *  1. A program handed in through fw_cfg as "opt/ember/app" (with "opt/ember/args" as its
 *     command line), for tests and development: -fw_cfg name=opt/ember/app,file=x.efi
 *  2. QEMU's -kernel (kernel.c).
 *  3. The boot manager (bds/): BootNext, BootOrder, removable media, then the shell. */
#define LOG_PREFIX "boot: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/drivers/measure_boot.h>
#include <ember/lib/str.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/core/bds.h>
#include "tables/fw_cfg.h"
#include "qemu.h"
#include "reset/layout.h"
#include <ember/lib/guids.h>
#include <ember/lib/call_filter.h>
#include <ember/lib/inflate.h>

#define WATCHDOG_SECONDS 300   /* the spec's five minutes for a boot option */
#define BOOT_MENU_WAIT_MS 2500 /* -boot menu=on: time to press Esc/F2/F12 */

/* Gives an image its command line (UCS-2 LoadOptions) from UTF-8 text. */
static void set_load_options(EFI_HANDLE image, const char *text, size_t len)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	CHAR16 *units;

	if (EFI_ERROR(protocol_get(image, &efi_loaded_image_protocol_guid, (void **)&li)))
		return;
	units = pool_alloc_typed(EfiLoaderData, (len + 1) * sizeof(CHAR16));
	if (!units) {
		log_debug("no memory for a command line of %llu bytes\n", (unsigned long long)len);
		return;
	}
	li->LoadOptionsSize = (UINT32)((utf8_to_ucs2(units, len + 1, text, len) + 1) * 2);
	li->LoadOptions = units;
}

static EFI_STATUS start(EFI_HANDLE image, const char *what)
{
	EFI_STATUS status;

	log_info("starting %s\n", what);
	core_watchdog_set(WATCHDOG_SECONDS);
	status = image_start(image, NULL, NULL);
	core_watchdog_set(0);
	log_info("%s returned %r\n", what, status);
	return status;
}

static bool boot_fw_cfg_app(void)
{
	uint16_t select, args_select;
	uint32_t size, args_size = 0;
	char args[1024];
	void *file;
	EFI_HANDLE image;
	const char *reason = NULL;
	EFI_STATUS status;

	if (!fw_cfg_find("opt/ember/app", &select, &size))
		return false;
	file = pool_alloc_typed(EfiBootServicesData, size);
	if (!file) {
		log_debug("no memory for opt/ember/app (%u bytes)\n", size);
		return false;
	}
	fw_cfg_read(select, file, size);
	measure_boot_attempt(); /* as a boot option's: the separators precede the app */
	status = image_load(false, core_image_handle, NULL, file, size, &image, &reason);
	pool_free(file);
	if (EFI_ERROR(status)) {
		panic_printf("Ember: opt/ember/app: %s\n", reason ? reason : "cannot load it");
		return true;
	}
	image_set_name(image, "app.efi");
	if (fw_cfg_find("opt/ember/args", &args_select, &args_size)) {
		args_size = MIN(args_size, (uint32_t)sizeof(args));
		fw_cfg_read(args_select, args, args_size);
		while (args_size && (args[args_size - 1] == '\n' || !args[args_size - 1]))
			args_size--;
	}
	if (!args_size) {
		mem_copy(args, "app.efi", 7);
		args_size = 7;
	}
	set_load_options(image, args, args_size);
	start(image, "opt/ember/app");
	return true;
}

static const void *embedded_shell(UINTN *size);

/* The time GetTime reports, in the log (tests compare it with what the OS reads). */
static void log_time(void)
{
	EFI_TIME t;

	if (!EFI_ERROR(core_get_time(&t)))
		log_info("time %04u-%02u-%02u %02u:%02u:%02u (GetTime)\n", t.Year, t.Month, t.Day,
			 t.Hour, t.Minute, t.Second);
}

void boot_something(void)
{
	EFI_HANDLE kernel;
	struct bds_platform platform = {
	    .boot_rank = qemu_boot_rank,
	    .menu_wait_ms = fw_cfg_read16(FW_CFG_BOOT_MENU) ? BOOT_MENU_WAIT_MS : 0,
	};

	log_time();
	if (boot_fw_cfg_app())
		return;
	kernel = kernel_load();
	if (kernel) {
		start(kernel, "-kernel");
		return;
	}
	platform.fallback_make = embedded_shell;
	platform.fallback_name = u"Ember shell";
	bds_run(&platform);
}

/* The shell, carried packed in the firmware image (shell_blob.S: its size, then raw
 * DEFLATE of it with the call filter applied) right below the reset blob, unpacked the
 * first time the boot manager falls back to it and kept. */
extern const UINT64 ember_shell_packed_size;

static const void *embedded_shell(UINTN *size)
{
	static UINT8 *shell;
	static UINTN shell_size;
	UINTN packed = (UINTN)ember_shell_packed_size;
	const UINT8 *ember_shell_packed = (const UINT8 *)(uintptr_t)(RESET_BLOB_BASE - packed);
	UINT64 want = 0;
	size_t produced = 0;
	UINT8 *buffer;

	if (!shell && packed > sizeof(want)) {
		for (unsigned i = 0; i < sizeof(want); i++)
			want |= (UINT64)ember_shell_packed[i] << (8 * i);
		buffer = pool_alloc_typed(EfiBootServicesData, (UINTN)want);
		if (!buffer) {
			log_warn("no memory to unpack the shell (%llu bytes)\n",
				 (unsigned long long)want);
			return NULL;
		}
		if (!inflate_raw(ember_shell_packed + sizeof(want), packed - sizeof(want), buffer,
				 (size_t)want, &produced) ||
		    produced != want) {
			log_warn("the shell in the firmware image does not unpack\n");
			pool_free(buffer);
			return NULL;
		}
		call_filter_decode(buffer, (size_t)want);
		shell = buffer;
		shell_size = (UINTN)want;
	}
	*size = shell_size;
	return shell;
}
