/* The option ROM image walk (lib/option_rom.c): ROMs built here, shaped like QEMU's iPXE
 * ROMs (a legacy image, then an EFI driver), and broken ones the walk must refuse. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/option_rom.h>

#define ROM_SIZE 4096

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* An image of units*512 bytes at rom+at with its PCIR structure at 0x1c. */
static void make_image(uint8_t *rom, size_t at, uint16_t units, uint8_t code_type, bool last)
{
	uint8_t *img = rom + at, *p = img + 0x1c;

	img[0] = 0x55;
	img[1] = 0xaa;
	put16(img + 0x18, 0x1c);
	memcpy(p, "PCIR", 4);
	put16(p + 4, 0x1af4);
	put16(p + 6, 0x1000);
	put16(p + 0xa, 0x18);
	put16(p + 0x10, units);
	p[0x14] = code_type;
	p[0x15] = last ? 0x80 : 0;
	if (code_type != OPTION_ROM_CODE_TYPE_EFI)
		return;
	put16(img + 2, units);
	put16(img + 4, 0x0ef1);
	put16(img + 8, 11);
	put16(img + 0xa, 0x8664);
	put16(img + 0xc, 0);
	put16(img + 0x16, 0x38);
}

static uint8_t rom[ROM_SIZE];

static void make_qemu_like(void)
{
	memset(rom, 0, sizeof(rom));
	make_image(rom, 0, 2, 0, false);
	make_image(rom, 1024, 4, OPTION_ROM_CODE_TYPE_EFI, true);
}

TEST(option_rom_walks_legacy_then_efi)
{
	struct option_rom_image img;
	size_t pos = 0;

	make_qemu_like();
	ASSERT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_IMAGE);
	EXPECT_EQ(img.offset, 0);
	EXPECT_EQ(img.length, 1024);
	EXPECT_EQ(img.code_type, 0);
	EXPECT(!img.efi && !img.last);
	EXPECT_EQ(img.vendor_id, 0x1af4);
	ASSERT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_IMAGE);
	EXPECT_EQ(img.offset, 1024);
	EXPECT(img.efi && img.last);
	EXPECT_EQ(img.subsystem, 11);
	EXPECT_EQ(img.machine, 0x8664);
	EXPECT_EQ(img.compression, 0);
	EXPECT_EQ(img.efi_offset, 1024 + 0x38);
	EXPECT_EQ(img.efi_length, 2048 - 0x38);
	/* The last-image indicator ends the walk even with bytes left over. */
	EXPECT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_END);
}

TEST(option_rom_refuses_bad_headers)
{
	struct option_rom_image img;
	size_t pos;

	make_qemu_like();
	rom[1] = 0xab; /* no signature */
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_BAD);
	make_qemu_like();
	rom[0x1c] = 'X'; /* no PCIR */
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_BAD);
	make_qemu_like();
	put16(rom + 0x18, 0xfffc); /* PCIR outside the ROM */
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_BAD);
	make_qemu_like();
	put16(rom + 0x18, 0x1d); /* PCIR not DWORD-aligned */
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_BAD);
}

TEST(option_rom_refuses_truncation_and_zero_length)
{
	struct option_rom_image img;
	size_t pos = 0;

	make_qemu_like();
	/* The EFI image says 4 units but the ROM ends after 3. */
	ASSERT_EQ(option_rom_next(rom, 2560, &pos, &img), OPTION_ROM_IMAGE);
	EXPECT_EQ(option_rom_next(rom, 2560, &pos, &img), OPTION_ROM_BAD);
	/* A zero length would make the next image overlap this one: refused, no loop. */
	make_qemu_like();
	put16(rom + 0x1c + 0x10, 0);
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_BAD);
	EXPECT_EQ(pos, 0);
	/* Shorter than its own header. */
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, 0x10, &pos, &img), OPTION_ROM_BAD);
	pos = 0;
	EXPECT_EQ(option_rom_next(rom, 0, &pos, &img), OPTION_ROM_END);
}

TEST(option_rom_efi_header_checked)
{
	struct option_rom_image img;
	size_t pos = 1024;

	make_qemu_like();
	put16(rom + 1024 + 2, 5); /* initialization size beyond the image */
	ASSERT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_IMAGE);
	EXPECT(!img.efi);
	make_qemu_like();
	put16(rom + 1024 + 0x16, 2048); /* PE image offset at the end of it */
	pos = 1024;
	ASSERT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_IMAGE);
	EXPECT(!img.efi);
	make_qemu_like();
	put16(rom + 1024 + 4, 0x0ef0); /* no EFI signature */
	pos = 1024;
	ASSERT_EQ(option_rom_next(rom, sizeof(rom), &pos, &img), OPTION_ROM_IMAGE);
	EXPECT(!img.efi);
}
