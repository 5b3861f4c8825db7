/* QEMU's boot order (fw_cfg "bootorder") for the boot manager, on both QEMU platforms. */
#ifndef EMBER_QEMU_BOOTORDER_H
#define EMBER_QEMU_BOOTORDER_H

#include <efi/protocol/device_path.h>

/* The rank of a device path in QEMU's bootorder (0 first), or -1 when no entry names it. */
int qemu_boot_rank(const EFI_DEVICE_PATH_PROTOCOL *path);

#endif
