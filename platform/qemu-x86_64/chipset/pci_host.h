/* The QEMU platform's PCI host bridge and firmware tables: the apertures PCI resources
 * are placed in, the root bridge protocol, interrupt routing, and QEMU's ACPI and SMBIOS
 * tables (which QEMU builds from what the firmware programmed, so they come after PCI). */
#ifndef QEMU_PCI_HOST_H
#define QEMU_PCI_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <ember/drivers/pci_root_bridge.h>
#include <efi/status.h>

/* pci_apertures.c: OVMF-like apertures for this machine and its memory (identity-maps the
 * 64-bit window when it lies above the reset code's map). */
void pci_apertures_compute(struct pci_apertures *ap);

/* pci_root_bridge.c: installs EFI_PCI_ROOT_BRIDGE_IO_PROTOCOL (drivers/pci_root_bridge) for
 * segment 0 over this machine's configuration mechanism, ports and apertures. */
EFI_STATUS qemu_pci_root_bridge_install(EFI_HANDLE *handle);

/* pci_irq.c: routes the chipset's PIRQ lines to ISA IRQs 10/11 and sets the Interrupt Line
 * register of every PCI function (from its device path, as QEMU's _PRT has it). */
void pci_irq_route(void);

/* acpi.c: QEMU's ACPI tables from fw_cfg, installed as configuration tables (the SMBIOS
 * tables: platform/common/smbios.c). */
EFI_STATUS acpi_install(void);

/* pci_platform.c: the whole sequence, called before drivers are connected: root bridge,
 * PCI bus driver (resource assignment), interrupt lines, then ACPI and SMBIOS tables. */
void pci_platform_init(void);

#endif
