/* The reference PE32+ image of the PE tests (see pe_builder.h). */
#include <string.h>

#include "pe_builder.h"

struct peb_section {
	const char *name;
	uint32_t virtual_size, rva, raw_size, raw_offset, characteristics;
};

static const struct peb_section sections[] = {
    {".text", 0x80, 0x1000, 0x200, 0x200, 0x60000020},	 /* code, execute, read */
    {".data", 0x1800, 0x2000, 0x200, 0x400, 0xc0000040}, /* initialized data, read, write */
    {".reloc", PEB_RELOC_SIZE, PEB_RELOC_RVA, 0x200, PEB_RELOC_FILE, 0x42000040},
};

void peb_put(uint8_t *buf, size_t offset, uint64_t value, int width)
{
	for (int i = 0; i < width; i++)
		buf[offset + i] = (uint8_t)(value >> (8 * i));
}

uint64_t peb_get(const uint8_t *buf, size_t offset, int width)
{
	uint64_t value = 0;

	for (int i = width - 1; i >= 0; i--)
		value = value << 8 | buf[offset + i];
	return value;
}

size_t peb_file_offset(uint32_t rva)
{
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		if (rva >= sections[i].rva && rva - sections[i].rva < sections[i].raw_size)
			return sections[i].raw_offset + (rva - sections[i].rva);
	}
	return 0;
}

static void build_headers(uint8_t *buf)
{
	buf[0] = 'M';
	buf[1] = 'Z';
	peb_put(buf, PEB_LFANEW, PEB_PE, 4);
	memcpy(buf + PEB_PE, "PE\0\0", 4);
	peb_put(buf, PEB_FH_MACHINE, 0x8664, 2);
	peb_put(buf, PEB_FH_SECTIONS, 3, 2);
	peb_put(buf, PEB_FH_OPT_SIZE, 240, 2);
	peb_put(buf, PEB_FH_CHARACTERISTICS, 0x0022, 2); /* executable, large-address aware */
	peb_put(buf, PEB_OH_MAGIC, 0x20b, 2);
	peb_put(buf, PEB_OH_ENTRY, 0x1000, 4);
	peb_put(buf, PEB_OH_IMAGE_BASE, PEB_IMAGE_BASE, 8);
	peb_put(buf, PEB_OH_SECTION_ALIGN, 0x1000, 4);
	peb_put(buf, PEB_OH_FILE_ALIGN, 0x200, 4);
	peb_put(buf, PEB_OH_SIZE_OF_IMAGE, PEB_IMAGE_SIZE, 4);
	peb_put(buf, PEB_OH_SIZE_OF_HEADERS, 0x200, 4);
	peb_put(buf, PEB_OH_SUBSYSTEM, 10, 2);
	peb_put(buf, PEB_OH_DIR_COUNT, 16, 4);
	peb_put(buf, PEB_OH_DIR(5), PEB_RELOC_RVA, 4);
	peb_put(buf, PEB_OH_DIR(5) + 4, PEB_RELOC_SIZE, 4);
	peb_put(buf, PEB_OH_DIR(6), 0x2100, 4);
	peb_put(buf, PEB_OH_DIR(6) + 4, 28, 4);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		size_t at = PEB_SECTION(i);

		memcpy(buf + at, sections[i].name, strlen(sections[i].name));
		peb_put(buf, at + PEB_SEC_VSIZE, sections[i].virtual_size, 4);
		peb_put(buf, at + PEB_SEC_VADDR, sections[i].rva, 4);
		peb_put(buf, at + PEB_SEC_RAW_SIZE, sections[i].raw_size, 4);
		peb_put(buf, at + PEB_SEC_RAW_PTR, sections[i].raw_offset, 4);
		peb_put(buf, at + 36, sections[i].characteristics, 4);
	}
}

static void build_data(uint8_t *buf)
{
	static const uint8_t guid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	size_t cv = peb_file_offset(0x2140);

	/* Recognizable bytes everywhere, so that a misplaced copy shows. */
	for (size_t i = 0x200; i < 0x600; i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	peb_put(buf, peb_file_offset(PEB_DIR64_RVA), PEB_DIR64_VALUE, 8);
	peb_put(buf, peb_file_offset(PEB_HIGHLOW_RVA), PEB_HIGHLOW_VALUE, 4);
	peb_put(buf, peb_file_offset(PEB_HIGH_RVA), PEB_HIGH_VALUE, 2);
	peb_put(buf, peb_file_offset(PEB_LOW_RVA), PEB_LOW_VALUE, 2);

	memset(buf + peb_file_offset(0x2100), 0, 28);
	peb_put(buf, peb_file_offset(0x2100) + 12, 2, 4); /* IMAGE_DEBUG_TYPE_CODEVIEW */
	peb_put(buf, peb_file_offset(0x2100) + 16, 24 + sizeof(PEB_PDB_NAME), 4);
	peb_put(buf, peb_file_offset(0x2100) + 20, 0x2140, 4);
	peb_put(buf, peb_file_offset(0x2100) + 24, cv, 4);
	memcpy(buf + cv, "RSDS", 4);
	memcpy(buf + cv + 4, guid, 16);
	peb_put(buf, cv + 20, 1, 4);
	memcpy(buf + cv + 24, PEB_PDB_NAME, sizeof(PEB_PDB_NAME));
}

static void build_relocations(uint8_t *buf)
{
	static const uint16_t entries[] = {
	    10 << 12 | (PEB_DIR64_RVA & 0xfff),
	    3 << 12 | (PEB_HIGHLOW_RVA & 0xfff),
	    1 << 12 | (PEB_HIGH_RVA & 0xfff),
	    2 << 12 | (PEB_LOW_RVA & 0xfff),
	    0,
	    0,
	};

	peb_put(buf, PEB_RELOC_FILE, 0x2000, 4);
	peb_put(buf, PEB_RELOC_FILE + 4, PEB_RELOC_SIZE, 4);
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		peb_put(buf, PEB_RELOC_FILE + 8 + 2 * i, entries[i], 2);
}

void peb_build(uint8_t buf[PEB_FILE_SIZE])
{
	memset(buf, 0, PEB_FILE_SIZE);
	build_headers(buf);
	build_data(buf);
	build_relocations(buf);
}
