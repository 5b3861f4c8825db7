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
	/* A disk on a SCSI controller (virtio-scsi, lsi, megasas): channel@, then target,LUN. */
	EXPECT(ofw_gives("/pci@i0cf8/scsi@3/channel@0/disk@1,3",
			 u"PciRoot(0x0)/Pci(0x3,0x0)/Scsi(0x1,0x3)"));
	EXPECT(ofw_gives("/pci@i0cf8/scsi@3/channel@1/disk@0,0", u"PciRoot(0x0)/Pci(0x3,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/scsi@3/channel@0/disk@10000,0", u"PciRoot(0x0)/Pci(0x3,0x0)"));
	EXPECT(ofw_gives("/pci@i0cf8/scsi@3/channel@0/tape@0,0", u"PciRoot(0x0)/Pci(0x3,0x0)"));
	/* NVMe: the namespace's EUI-64 is not in the path; its controller is the prefix. */
	EXPECT(ofw_gives("/pci@i0cf8/pci1b36,0010@4/namespace@1,0", u"PciRoot(0x0)/Pci(0x4,0x0)"));
}

/* What QEMU 7.2 writes on AArch64's virt (qemu-system-aarch64 -machine virt, each device
 * with bootindex=, the lines read back from fw_cfg): the generic PCIe host bridge is
 * "/pci@ffffffffffffffff", PciRoot(0x0) as Ember's AArch64 root bridge publishes it. */
TEST(ofw_paths_of_virt_devices)
{
	EXPECT(ofw_gives("/pci@ffffffffffffffff/scsi@1/disk@0,0", u"PciRoot(0x0)/Pci(0x1,0x0)"));
	EXPECT(ofw_gives("/pci@ffffffffffffffff/scsi@2/channel@0/disk@0,0",
			 u"PciRoot(0x0)/Pci(0x2,0x0)/Scsi(0x0,0x0)"));
	EXPECT(ofw_gives("/pci@ffffffffffffffff/pci1b36,0010@3/namespace@1,0",
			 u"PciRoot(0x0)/Pci(0x3,0x0)"));
	EXPECT(ofw_gives("/pci@ffffffffffffffff/ethernet@4/ethernet-phy@0",
			 u"PciRoot(0x0)/Pci(0x4,0x0)"));
	EXPECT(ofw_gives("/pci@ffffffffffffffff/usb@5/storage@1/channel@0/disk@0,0",
			 u"PciRoot(0x0)/Pci(0x5,0x0)/USB(0x0,0x0)"));
	/* A device behind a pcie-root-port: QEMU names the port pci-bridge. */
	EXPECT(ofw_gives("/pci@ffffffffffffffff/pci-bridge@6/scsi@0/disk@0,0",
			 u"PciRoot(0x0)/Pci(0x6,0x0)/Pci(0x0,0x0)"));
}

TEST(ofw_paths_ember_does_not_boot_from)
{
	EXPECT(ofw_gives("/rom@genroms/linuxboot_dma.bin", NULL));
	EXPECT(ofw_gives("/pci@i0cf8", NULL));
	EXPECT(ofw_gives("/pci@i0cf8/ethernet@3,1f", NULL)); /* function 0x1f > 7 */
	EXPECT(ofw_gives("/pci@i0cf8/scsi@zz", NULL));
	EXPECT(ofw_gives("", NULL));
	EXPECT(ofw_gives("HALT", NULL));
	/* Other roots, or a root node that goes on past its address. */
	EXPECT(ofw_gives("/pci@ffffffffffffffff", NULL));
	EXPECT(ofw_gives("/pcie@10000000/scsi@1/disk@0,0", NULL));
	EXPECT(ofw_gives("/pci@ffffffffffffffff0/scsi@1/disk@0,0", NULL));
	EXPECT(ofw_gives("/pci@i0cf80/scsi@1/disk@0,0", NULL));
	EXPECT(ofw_gives("/pci@fffffff/scsi@1/disk@0,0", NULL));
	EXPECT(ofw_gives("/virtio-mmio@000000000a003e00/disk@0,0", NULL));
}
