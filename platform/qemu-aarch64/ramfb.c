/* QEMU's ramfb display (drivers/ramfb; -device ramfb) over virt's fw_cfg; virtio-gpu-pci is
 * the other display (PCIe). */
#define LOG_PREFIX "ramfb: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/ramfb.h>
#include "aarch64.h"

void ramfb_from_fw_cfg(void)
{
	static const struct ramfb_fw_cfg fw_cfg = {fw_cfg_find, fw_cfg_write};
	EFI_STATUS status = ramfb_publish(&fw_cfg);

	if (EFI_ERROR(status))
		log_warn("no display on ramfb: %r\n", status);
}
