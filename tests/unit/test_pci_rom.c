/* Option ROMs in the PCI bus driver (drivers/pci/pci_rom.c) over the simulated root
 * bridge: the ROM BAR is sized and placed in the 32-bit window, the ROM is copied while it
 * decodes and turned off again, PciIo.RomImage/RomSize hold the images, and an EFI image
 * that does not load publishes no driver override. A driver compressed with the UEFI
 * compression algorithm is decompressed and started; a damaged one is refused. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/driver.h>
#include <efi/pci.h>
#include <efi/protocol/driver_override.h>
#include <efi/protocol/pci_io.h>
#include <ember/tools/uefi_compress.h>

#include "pci_sim.h"
#include "pe_builder.h"
#include "support/test_platform.h"

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
	put16(img + 4, 0x0ef1); /* the EFI signature is 32 bits */
	put16(img + 6, 0);
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

/* A boot-service driver image whose entry point returns EFI_SUCCESS (xor eax, eax; ret),
 * compressed by Ember's encoder into an EFI ROM image with CompressionType 1. */
static size_t put_compressed_driver(size_t at, UINT16 units, bool damage)
{
	static const UINT8 entry[] = {0x31, 0xc0, 0xc3};
	UINT8 pe[PEB_FILE_SIZE], *packed;
	size_t size;

	peb_build(pe);
	peb_put(pe, PEB_OH_SUBSYSTEM, 11, 2);
	memcpy(pe + peb_file_offset(0x1000), entry, sizeof(entry));
	packed = uefi_compress(pe, sizeof(pe), &size);
	if (!packed || 0x38 + size > units * 512u)
		return 0;
	if (damage)
		packed[size / 2] ^= 0x5a;
	make_image(at, units, 3, true);
	put16(rom + at + 0xc, 1);
	memcpy(rom + at + 0x38, packed, size);
	free(packed);
	return size;
}

static bool override_published(void)
{
	static const EFI_GUID bus_guid = EFI_BUS_SPECIFIC_DRIVER_OVERRIDE_PROTOCOL_GUID;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;
	bool found =
	    !EFI_ERROR(handle_locate_buffer(ByProtocol, &bus_guid, NULL, &count, &handles));

	pool_free(handles);
	return found;
}

TEST(pci_rom_compressed_driver_started)
{
	UINTN count;

	for (int damage = 0; damage <= 1; damage++) {
		memset(rom, 0xff, sizeof(rom));
		make_image(0, 2, 0, false);
		ASSERT(put_compressed_driver(1024, 4, damage) > 0);
		pci_sim_standard_machine();
		pci_sim_funcs[1].rom_size = ROM_BAR_SIZE;
		pci_sim_funcs[1].rom = rom;
		pci_sim_install();
		test_log_capture(LOG_LEVEL_DEBUG);
		ASSERT_STATUS(driver_connect(pci_sim_root_handle, NULL, NULL, false), EFI_SUCCESS);
		ASSERT(pci_sim_child(0, 2, 0, &count, NULL) != NULL);
		EXPECT(strstr(test_log_text(), damage
						   ? "does not decompress: EFI_INVALID_PARAMETER"
						   : "EFI driver (image at 0x400, decompressed)"));
		test_log_stop();
		/* Decompressed, loaded and started: the function offers it as its driver. A
		 * damaged stream is refused and nothing runs. */
		EXPECT(override_published() == !damage);
		pci_sim_remove();
	}
}
