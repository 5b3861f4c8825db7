/* The consoles, and what to boot, in order:
 *  1. A program handed in through fw_cfg as "opt/ember/app" (with "opt/ember/args" as its
 *     command line), as on x86-64 (bds/fw_cfg_app.c).
 *  2. The boot manager (bds/): the setup screen the image carries (shell_blob.S) when the OS
 *     asked for it (BOOT_TO_FW_UI), QEMU's -kernel (platform/common/kernel.c), BootNext,
 *     BootOrder, removable media (\EFI\BOOT\BOOTAA64.EFI), then the shell the image carries;
 *     the setup screen again when the shell exits. */
#define LOG_PREFIX "boot: "
#include <ember/core/bds.h>
#include <ember/core/core.h>
#include <ember/core/init.h>
#include <ember/core/log.h>
#include <ember/drivers/console_splitter.h>
#include "../common/bootorder.h"
#include "aarch64.h"
#include "../common/kernel.h"

/* ConIn, ConOut and StdErr in the system table before anything can print; the PL011's
 * terminal joins them when its driver starts. */
static EFI_STATUS consoles_start(void)
{
	return console_splitter_start(CONSOLE_SPLITTER_ALL);
}
EMBER_INIT(INIT_EARLY, consoles_start);

static const struct bds_fw_cfg fw_cfg = {fw_cfg_find, fw_cfg_read, panic_printf};

/* The shell, stored as it is (the image is not packed on AArch64). */
extern const UINT8 ember_shell[], ember_shell_end[];
/* The setup screen ("Ember settings", apps/setup), stored after it the same way. */
extern const UINT8 ember_setup[], ember_setup_end[];

static const void *embedded_setup(UINTN *size)
{
	*size = (UINTN)(ember_setup_end - ember_setup);
	return ember_setup;
}

void boot_something(void)
{
	EFI_STATUS status;
	struct bds_platform platform = {
	    .boot_rank = qemu_boot_rank, /* QEMU's bootindex= (fw_cfg "bootorder") */
	    .fallback_image = ember_shell,
	    .fallback_size = (UINTN)(ember_shell_end - ember_shell),
	    .fallback_name = u"Ember shell",
	    .direct_boot = kernel_boot,
	    .setup_make = embedded_setup,
	};

	if (bds_fw_cfg_app(&fw_cfg, &status)) {
		panic_printf("Ember: opt/ember/app returned %r\n", status);
		return;
	}
	bds_run(&platform);
}
