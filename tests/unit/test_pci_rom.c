/* Option ROMs in the PCI bus driver (drivers/pci/pci_rom.c) over the simulated root
 * bridge: the ROM BAR is sized and placed in the 32-bit window, the ROM is copied while it
 * decodes and turned off again, PciIo.RomImage/RomSize hold the images, and an EFI image
 * that does not load publishes no driver override. */
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <efi/pci.h>
#include <efi/protocol/driver_override.h>
#include <efi/protocol/pci_io.h>

#include "pci_sim.h"

#define ROM_BAR_SIZE 0x2000

static UINT8 rom[ROM_BAR_SIZE];

static void put16(UINT8 *p, UINT16 v)
{
	p[0] = (UINT8)v;
	p[1] = (UINT8)(v >> 8);
}

/* units*512 bytes at rom+at, PCIR at 0x1c; code type 3 gets an x64 driver header whose
 * "PE image" is garbage. */
static void make_image(size_t at, UINT16 units, UINT8 code_type, bool last)
{
	UINT8 *img = rom + at, *p = img + 0x1c;

	img[0] = 0x55;
	img[1] = 0xaa;
	put16(img + 0x18, 0x1c);
	memcpy(p, "PCIR", 4);
	put16(p + 0xa, 0x18);
	put16(p + 0x10, units);
	p[0x14] = code_type;
	p[0x15] = last ? 0x80 : 0;
	if (code_type != 3)
		return;
	put16(img + 2, units);
	put16(img + 4, 0x0ef1);
	put16(img + 8, 11);
	put16(img + 0xa, 0x8664);
	put16(img + 0x16, 0x38);
}

TEST(pci_rom_copied_and_exposed)
{
	static const EFI_GUID bus_guid = EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL_GUID;
	EFI_PCI_IO_PROTOCOL *nic, *bridge;
	EFI_HANDLE *handles;
	UINTN count;
	UINT32 bar;

	memset(rom, 0xcc, sizeof(rom));
	make_image(0, 2, 0, false);
	make_image(1024, 4, 3, true);
	pci_sim_standard_machine();
	pci_sim_funcs[1].rom_size = ROM_BAR_SIZE; /* the NIC */
	pci_sim_funcs[1].rom = rom;
	pci_sim_install();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	nic = pci_sim_child(0, 2, 0, &count, NULL);
	ASSERT(nic != NULL);
	/* The images, not the whole BAR: 3 KiB of 8. */
	ASSERT_EQ(nic->RomSize, 3072);
	ASSERT(nic->RomImage != NULL);
	EXPECT(!memcmp(nic->RomImage, rom, 3072));
	/* Placed in the 32-bit window, aligned to its size, and no longer decoding. */
	memcpy(&bar, pci_sim_funcs[1].cfg + PCI_EXPANSION_ROM_BASE_OFFSET, 4);
	EXPECT(bar >= 0xc0000000 && bar < 0xfc000000);
	EXPECT_EQ(bar & (ROM_BAR_SIZE - 1), 0);
	/* Functions without a ROM have none. */
	bridge = pci_sim_child(0, 3, 0, &count, NULL);
	ASSERT(bridge != NULL);
	EXPECT(bridge->RomImage == NULL && bridge->RomSize == 0);
	/* The EFI image is no PE image: nothing started, so no override is published. */
	EXPECT(EFI_ERROR(handle_locate_buffer(ByProtocol, &bus_guid, NULL, &count, &handles)));
	pci_sim_remove();
}

TEST(pci_rom_without_images_is_not_exposed)
{
	EFI_PCI_IO_PROTOCOL *nic;
	UINTN count;

	memset(rom, 0xff, sizeof(rom)); /* an empty flash part */
	pci_sim_standard_machine();
	pci_sim_funcs[1].rom_size = ROM_BAR_SIZE;
	pci_sim_funcs[1].rom = rom;
	pci_sim_install();
	ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
	nic = pci_sim_child(0, 2, 0, &count, NULL);
	ASSERT(nic != NULL);
	EXPECT(nic->RomImage == NULL && nic->RomSize == 0);
	pci_sim_remove();
}
