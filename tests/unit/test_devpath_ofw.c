/* OpenFirmware paths of QEMU's fw_cfg "bootorder" to device path prefixes (dp_from_ofw). */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/lib/str.h>

static bool ofw_gives(const char *ofw, const CHAR16 *expected)
{
	EFI_DEVICE_PATH_PROTOCOL *path = dp_from_ofw(ofw, ofw + strlen(ofw));
	CHAR16 *text;
	bool same;

	if (!path || !expected)
		return !path && !expected;
	text = dp_to_text(path, false, false);
	same = text && str16_cmp(text, expected) == 0;
	pool_free(text);
	pool_free(path);
	return same;
}

TEST(ofw_paths_of_qemu_devices)
{
	EXPECT(ofw_gives("/pci@i0cf8/scsi@4/disk@0,0", u"PciRoot(0x0)/Pci(0x4,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/pci8086,2922@1f,2/drive@1/disk@0",
			 u"PciRoot(0x0)/Pci(0x1F,0x2)/Sata(0x1,0xFFFF,0x0)"));
	/* PIIX IDE: drive@ is the channel, disk@ the master or slave on it. */
	EXPECT(ofw_gives("/pci@i0cf8/ide@1,1/drive@0/disk@0",
			 u"PciRoot(0x0)/Pci(0x1,0x1)/Ata(Primary,Master,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/ide@1,1/drive@1/disk@1",
			 u"PciRoot(0x0)/Pci(0x1,0x1)/Ata(Secondary,Slave,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/ide@1,1/drive@1", u"PciRoot(0x0)/Pci(0x1,0x1)"));
	EXPECT(ofw_gives("/pci@i0cf8/ide@1,1/drive@2/disk@0", u"PciRoot(0x0)/Pci(0x1,0x1)"));
	EXPECT(ofw_gives("/pci@i0cf8/usb@3/storage@1/channel@0/disk@0,0",
			 u"PciRoot(0x0)/Pci(0x3,0x0)/USB(0x0,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/usb@2/storage@4", u"PciRoot(0x0)/Pci(0x2,0x0)/USB(0x3,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/usb@2/storage@0", u"PciRoot(0x0)/Pci(0x2,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/pci-bridge@1e/scsi@3/disk@0,0",
			 u"PciRoot(0x0)/Pci(0x1E,0x0)/Pci(0x3,0x0)"));
	/* A NIC (bootindex on virtio-net, e1000, rtl8139): QEMU adds its PHY, which is no PCI
	 * function; the NIC's own function is the prefix of its PXE option's path. */
	EXPECT(ofw_gives("/pci@i0cf8/ethernet@3/ethernet-phy@0", u"PciRoot(0x0)/Pci(0x3,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/pci-bridge@1e/ethernet@2,1/ethernet-phy@0",
			 u"PciRoot(0x0)/Pci(0x1E,0x0)/Pci(0x2,0x1)"));
}

TEST(ofw_paths_ember_does_not_boot_from)
{
	EXPECT(ofw_gives("/rom@genroms/linuxboot_dma.bin", NULL));
	EXPECT(ofw_gives("/pci@i0cf8", NULL));
	EXPECT(ofw_gives("/pci@i0cf8/ethernet@3,1f", NULL)); /* function 0x1f > 7 */
	EXPECT(ofw_gives("/pci@i0cf8/scsi@zz", NULL));
	EXPECT(ofw_gives("", NULL));
	EXPECT(ofw_gives("HALT", NULL));
}
