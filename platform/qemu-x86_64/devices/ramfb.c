/* QEMU's ramfb display (drivers/ramfb) over the x86-64 fw_cfg. */
#include <ember/core/init.h>
#include <ember/drivers/ramfb.h>
#include "tables/fw_cfg.h"

static EFI_STATUS ramfb_start(void)
{
	static const struct ramfb_fw_cfg fw_cfg = {fw_cfg_find, fw_cfg_write};

	return ramfb_publish(&fw_cfg);
}
EMBER_INIT(INIT_CONSOLE, ramfb_start);
