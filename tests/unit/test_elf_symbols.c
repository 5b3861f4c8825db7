/* elf_function_at (lib/elf_symbols.c): the STT_FUNC symbol whose range holds an address,
 * from a hand-built ELF64 file; files cut short or with offsets outside them are refused. */
#include <string.h>

#include "support/test.h"
#include <ember/lib/elf_symbols.h>

#define SHOFF 64
#define SYMOFF (SHOFF + 3 * 64)
#define STROFF (SYMOFF + 4 * 24)
#define FILE_SIZE (STROFF + 32)

static uint8_t elf[FILE_SIZE];

static void put(unsigned offset, uint64_t value, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		elf[offset + i] = (uint8_t)(value >> (8 * i));
}

static void symbol(unsigned index, uint32_t name, uint8_t type, uint64_t value, uint64_t size)
{
	unsigned at = SYMOFF + index * 24;

	put(at, name, 4);
	elf[at + 4] = type;
	put(at + 6, 1, 2); /* defined in section 1 */
	put(at + 8, value, 8);
	put(at + 16, size, 8);
}

/* .symtab: the null symbol, efi_main [0x2030, 0x2070), data "table" (an object), and
 * helper [0x2070, 0x2080); .strtab holds their names. */
static void build(void)
{
	static const char names[] = "\0efi_main\0table\0helper";

	memset(elf, 0, sizeof(elf));
	memcpy(elf, "\177ELF", 4);
	elf[4] = 2; /* 64-bit */
	elf[5] = 1; /* little-endian */
	put(0x28, SHOFF, 8);
	put(0x3a, 64, 2);
	put(0x3c, 3, 2);
	put(SHOFF + 64 + 4, 2, 4); /* section 1: SHT_SYMTAB */
	put(SHOFF + 64 + 24, SYMOFF, 8);
	put(SHOFF + 64 + 32, 4 * 24, 8);
	put(SHOFF + 64 + 40, 2, 4); /* its names in section 2 */
	put(SHOFF + 64 + 56, 24, 8);
	put(SHOFF + 128 + 4, 3, 4); /* section 2: SHT_STRTAB */
	put(SHOFF + 128 + 24, STROFF, 8);
	put(SHOFF + 128 + 32, sizeof(names), 8);
	memcpy(elf + STROFF, names, sizeof(names));
	symbol(1, 1, 2, 0x2030, 0x40);
	symbol(2, 10, 1, 0x4000, 0x100);
	symbol(3, 16, 0x12, 0x2070, 0x10); /* global function */
}

static bool named(uint64_t address, const char *want, uint64_t start)
{
	struct elf_symbol s;

	return elf_function_at(elf, sizeof(elf), address, &s) && s.name_len == strlen(want) &&
	       !memcmp(s.name, want, s.name_len) && s.start == start;
}

TEST(elf_function_at_finds_the_function)
{
	struct elf_symbol s;

	build();
	EXPECT(named(0x2030, "efi_main", 0x2030));
	EXPECT(named(0x206f, "efi_main", 0x2030));
	EXPECT(named(0x2070, "helper", 0x2070));
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2080, &s)); /* past helper */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x4010, &s)); /* an object, not a function */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x1000, &s));
}

TEST(elf_function_at_refuses_broken_files)
{
	struct elf_symbol s;

	build();
	for (size_t n = 0; n < STROFF; n++) /* cut anywhere before the names */
		EXPECT(!elf_function_at(elf, n, 0x2030, &s));
	put(SHOFF + 128 + 32, 0x1000, 8); /* string table past the end */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2030, &s));
	build();
	put(SHOFF + 64 + 40, 7, 4); /* sh_link to no section */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2030, &s));
	build();
	put(SYMOFF + 24, 0xffffff00u, 4); /* a name outside the string table */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2030, &s));
	build();
	put(SHOFF + 128 + 32, 5, 8); /* "efi_main" cut by the table's end: no terminator */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2030, &s));
	build();
	put(0x28, UINT64_MAX - 10, 8); /* section headers at an offset that wraps */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2030, &s));
	build();
	elf[4] = 1; /* 32-bit */
	EXPECT(!elf_function_at(elf, sizeof(elf), 0x2030, &s));
}
