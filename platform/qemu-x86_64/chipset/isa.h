/* Legacy (ISA) devices behind the LPC/ISA bridge: their device paths, as OVMF gives them,
 * so boot options and console variables that name them keep working. */
#ifndef QEMU_ISA_H
#define QEMU_ISA_H

#include <efi/protocol/device_path.h>

/* PciRoot(0x0)/Pci(bridge,0x0)/Acpi(hid,uid), with End. The bridge is the ICH9 LPC
 * function 00:1f.0 on q35 and the PIIX3 function 00:01.0 on pc. */
#pragma pack(push, 1)
struct isa_device_path {
	ACPI_HID_DEVICE_PATH root;
	PCI_DEVICE_PATH bridge;
	ACPI_HID_DEVICE_PATH device;
	EFI_DEVICE_PATH_PROTOCOL end;
};
#pragma pack(pop)

/* Fills path for the ISA device with that PNP id (e.g. 0x0501 for a 16550) and UID. */
void isa_device_path_init(struct isa_device_path *path, UINT16 pnp_id, UINT32 uid);

#endif
