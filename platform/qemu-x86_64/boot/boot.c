/* What to boot, in order.
 *  1. A program handed in through fw_cfg as "opt/ember/app" (with "opt/ember/args" as its
 *     command line), for tests and development: -fw_cfg name=opt/ember/app,file=x.efi
 *     (bds/fw_cfg_app.c)
 *  2. The boot manager (bds/): the setup screen when the OS asked for it (BOOT_TO_FW_UI) or
 *     the boot menu when a key asked for it, QEMU's -kernel (platform/common/kernel.c),
 *     then BootNext, BootOrder, removable media, then the shell. */
#define LOG_PREFIX "boot: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/protocol/simple_file_system.h>
#include <ember/core/bds.h>
#include "tables/fw_cfg.h"
#include "qemu.h"
#include "../common/kernel.h"
#include "reset/layout.h"
#include <ember/lib/guids.h>
#include <ember/lib/call_filter.h>
#include <ember/lib/inflate.h>

#define BOOT_MENU_WAIT_MS 2500 /* -boot menu=on: time to press Esc/F2/F12 */

static const struct bds_fw_cfg fw_cfg = {fw_cfg_find, fw_cfg_read, panic_printf};

static const void *embedded_shell(UINTN *size);
static const void *embedded_setup(UINTN *size);

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
	EFI_STATUS status;
	struct bds_platform platform = {
	    .boot_rank = qemu_boot_rank,
	    .menu_wait_ms = fw_cfg_read16(FW_CFG_BOOT_MENU) ? BOOT_MENU_WAIT_MS : 0,
	};

	log_time();
	if (bds_fw_cfg_app(&fw_cfg, &status))
		return;
	platform.direct_boot = kernel_boot; /* QEMU's -kernel: as OVMF, before the options */
	platform.fallback_make = embedded_shell;
	platform.fallback_name = u"Ember shell";
	platform.setup_make = embedded_setup;
	bds_run(&platform);
}

/* The shell and the setup screen, carried packed in the firmware image (shell_blob.S: for
 * each its size, then raw DEFLATE of it with the call filter applied) right below the reset
 * blob, the setup screen last; each unpacked the first time the boot manager needs it and
 * kept. */
extern const UINT64 ember_shell_packed_size, ember_setup_packed_size;

struct blob {
	const char *name;
	UINT8 *image;
	UINTN size;
};

/* Unpacks a blob of packed bytes at at, once. */
static const void *unpack(struct blob *b, const UINT8 *at, UINTN packed, UINTN *size)
{
	UINT64 want = 0;
	size_t produced = 0;
	UINT8 *buffer;

	if (!b->image && packed > sizeof(want)) {
		for (unsigned i = 0; i < sizeof(want); i++)
			want |= (UINT64)at[i] << (8 * i);
		buffer = pool_alloc_typed(EfiBootServicesData, (UINTN)want);
		if (!buffer) {
			log_warn("no memory to unpack the %s (%llu bytes)\n", b->name,
				 (unsigned long long)want);
			return NULL;
		}
		if (!inflate_raw(at + sizeof(want), packed - sizeof(want), buffer, (size_t)want,
				 &produced) ||
		    produced != want) {
			log_warn("the %s in the firmware image does not unpack\n", b->name);
			pool_free(buffer);
			return NULL;
		}
		call_filter_decode(buffer, (size_t)want);
		b->image = buffer;
		b->size = (UINTN)want;
	}
	*size = b->size;
	return b->image;
}

static const void *embedded_shell(UINTN *size)
{
	static struct blob shell = {"shell"};
	UINTN all = (UINTN)ember_shell_packed_size, setup = (UINTN)ember_setup_packed_size;

	return unpack(&shell, (const UINT8 *)(uintptr_t)(RESET_BLOB_BASE - all), all - setup, size);
}

static const void *embedded_setup(UINTN *size)
{
	static struct blob setup = {"setup screen"};
	UINTN packed = (UINTN)ember_setup_packed_size;

	return unpack(&setup, (const UINT8 *)(uintptr_t)(RESET_BLOB_BASE - packed), packed, size);
}
