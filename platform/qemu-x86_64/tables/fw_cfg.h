/* QEMU's firmware configuration device on x86-64: ports 0x510/0x511, DMA at 0x514. The
 * interface shared with AArch64 is platform/common/fw_cfg.h. */
#ifndef QEMU_FW_CFG_H
#define QEMU_FW_CFG_H

#include "../../common/fw_cfg.h"

/* Detects the device and whether it does DMA; false when there is no fw_cfg. */
bool fw_cfg_init(void);

#endif
