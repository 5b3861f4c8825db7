/* QEMU's ramfb display (drivers/ramfb; -device ramfb) over virt's fw_cfg: the only display
 * Ember drives on AArch64 until PCIe (virtio-gpu) is ported. */
#include <ember/core/init.h>
#include <ember/drivers/ramfb.h>
#include "aarch64.h"

static EFI_STATUS ramfb_start(void)
{
	static const struct ramfb_fw_cfg fw_cfg = {fw_cfg_find, fw_cfg_write};

	return ramfb_publish(&fw_cfg);
}
EMBER_INIT(INIT_CONSOLE, ramfb_start);
