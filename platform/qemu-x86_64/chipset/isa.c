/* Device paths of the legacy devices behind the LPC/ISA bridge (see isa.h). */
#include "chipset/isa.h"
#include "qemu.h"

#define PNP_PCI_ROOT 0x0a03
#define Q35_LPC_DEVICE 0x1f
#define PIIX3_ISA_DEVICE 0x01

static void set_node(EFI_DEVICE_PATH_PROTOCOL *node, UINT8 type, UINT8 subtype, UINT16 length)
{
	node->Type = type;
	node->SubType = subtype;
	node->Length[0] = (UINT8)length;
	node->Length[1] = (UINT8)(length >> 8);
}

void isa_device_path_init(struct isa_device_path *path, UINT16 pnp_id, UINT32 uid)
{
	set_node(&path->root.Header, ACPI_DEVICE_PATH, ACPI_DP, sizeof(path->root));
	path->root.HID = EISA_PNP_ID(PNP_PCI_ROOT);
	path->root.UID = 0;
	set_node(&path->bridge.Header, HARDWARE_DEVICE_PATH, HW_PCI_DP, sizeof(path->bridge));
	path->bridge.Device = chipset_machine == MACHINE_Q35 ? Q35_LPC_DEVICE : PIIX3_ISA_DEVICE;
	path->bridge.Function = 0;
	set_node(&path->device.Header, ACPI_DEVICE_PATH, ACPI_DP, sizeof(path->device));
	path->device.HID = EISA_PNP_ID(pnp_id);
	path->device.UID = uid;
	set_node(&path->end, END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE,
		 sizeof(path->end));
}
