/* QEMU's ramfb display (drivers/ramfb) over the platform's fw_cfg. */
#define LOG_PREFIX "ramfb: "
#include <efi/status.h>
#include <ember/core/log.h>
#include <ember/drivers/ramfb.h>
#include "fw_cfg.h"
#include "qemu_ramfb.h"

void qemu_ramfb_start(void)
{
	static const struct ramfb_fw_cfg fw_cfg = {fw_cfg_find, fw_cfg_write};
	EFI_STATUS status = ramfb_publish(&fw_cfg);

	if (EFI_ERROR(status))
		log_warn("no display on ramfb: %r\n", status);
}
