/* platform/qemu-x86_64/pure/acpi_bgrt.c: the BGRT's fields and checksum, and an RSDT of 32-bit
 * entries with the OEM fields of the table it replaces. */
#include <string.h>

#include "support/test.h"
#include "../../platform/qemu-x86_64/pure/acpi_bgrt.h"
#include "../../platform/common/acpi_tables.h"

static EFI_ACPI_DESCRIPTION_HEADER like(void)
{
	EFI_ACPI_DESCRIPTION_HEADER h;

	memset(&h, 0, sizeof(h));
	memcpy(h.Signature, "RSDT", 4);
	memcpy(h.OemId, "BOCHS ", 6);
	memcpy(h.OemTableId, "BXPC    ", 8);
	h.OemRevision = 1;
	h.CreatorId = 0x43505842;
	h.Length = 99;
	h.Checksum = 0x55;
	return h;
}

TEST(acpi_bgrt_fields_and_checksum)
{
	EFI_ACPI_DESCRIPTION_HEADER oem = like();
	EFI_ACPI_BOOT_GRAPHICS_RESOURCE_TABLE t;

	acpi_build_bgrt(&t, &oem, 0x12345678abcULL, 448, 312);
	EXPECT(!memcmp(t.Header.Signature, "BGRT", 4));
	EXPECT_EQ(t.Header.Length, 56);
	EXPECT_EQ(t.Header.Revision, 1);
	EXPECT(!memcmp(t.Header.OemId, "BOCHS ", 6));
	EXPECT_EQ(t.Version, 1);
	EXPECT_EQ(t.Status, 1);
	EXPECT_EQ(t.ImageType, 0);
	EXPECT_EQ(t.ImageAddress, 0x12345678abcULL);
	EXPECT_EQ(t.ImageOffsetX, 448);
	EXPECT_EQ(t.ImageOffsetY, 312);
	EXPECT_EQ(acpi_checksum(&t, sizeof(t)), 0);
	/* The byte layout an OS reads (ACPI: Version at 36, Status 38, Type 39, Address 40). */
	EXPECT_EQ(((const UINT8 *)&t)[38], 1);
	EXPECT_EQ(*(const UINT32 *)((const UINT8 *)&t + 48), 448);
}

TEST(acpi_rsdt_lists_32_bit_entries)
{
	EFI_ACPI_DESCRIPTION_HEADER oem = like();
	const UINT64 tables[3] = {0xfdbf0c8, 0xfdbf1bc, 0xfd98000};
	UINT8 rsdt[ACPI_RSDT_SIZE(3)];
	UINT32 entry;

	acpi_build_rsdt(rsdt, &oem, tables, 3);
	EXPECT(!memcmp(rsdt, "RSDT", 4));
	EXPECT_EQ(((EFI_ACPI_DESCRIPTION_HEADER *)rsdt)->Length, 36 + 12);
	EXPECT(!memcmp(((EFI_ACPI_DESCRIPTION_HEADER *)rsdt)->OemTableId, "BXPC    ", 8));
	for (int i = 0; i < 3; i++) {
		memcpy(&entry, rsdt + 36 + 4 * i, 4);
		EXPECT_EQ(entry, tables[i]);
	}
	EXPECT_EQ(acpi_checksum(rsdt, sizeof(rsdt)), 0);
}
