/* Builds the minimal PE32+ images described in pe_image.h (PE/COFF layout: DOS header,
 * "PE\0\0", COFF header, PE32+ optional header, section table, then raw sections). */
#include "pe_image.h"

#define COFF_OFFSET 0x44
#define OPT_OFFSET 0x58
#define OPT_SIZE 240
#define SECTIONS_OFFSET (OPT_OFFSET + OPT_SIZE)
#define FILE_ALIGN 0x200
#if defined(__aarch64__)
#define MACHINE_NATIVE 0xaa64
#define MACHINE_FOREIGN 0x8664
#else
#define MACHINE_NATIVE 0x8664
#define MACHINE_FOREIGN 0xaa64
#endif

static void put16(UINT8 *p, UINT16 v)
{
	p[0] = (UINT8)v;
	p[1] = (UINT8)(v >> 8);
}

static void put32(UINT8 *p, UINT32 v)
{
	put16(p, (UINT16)v);
	put16(p + 2, (UINT16)(v >> 16));
}

static void put64(UINT8 *p, UINT64 v)
{
	put32(p, (UINT32)v);
	put32(p + 4, (UINT32)(v >> 32));
}

struct section {
	const char *name;
	UINT32 rva, vsize, raw, characteristics;
};

static const struct section sections[3] = {
    {".text", PE_TEXT_RVA, 0x20, 0x200, 0x60000020},
    {".data", PE_DATA_RVA, 0x10, 0x400, 0xc0000040},
    {".reloc", 0x3000, 12, 0x600, 0x42000040},
};

static void put_headers(UINT8 *b, UINT16 subsystem)
{
	b[0] = 'M';
	b[1] = 'Z';
	put32(b + 0x3c, 0x40);
	mem_copy(b + 0x40, "PE\0\0", 4);
	put16(b + COFF_OFFSET, MACHINE_NATIVE);
	put16(b + COFF_OFFSET + 2, ARRAY_SIZE(sections));
	put16(b + COFF_OFFSET + 16, OPT_SIZE);
	put16(b + COFF_OFFSET + 18, 0x0022); /* executable, large address aware */

	UINT8 *o = b + OPT_OFFSET;
	put16(o, 0x20b);
	put32(o + 4, 0x200);		  /* SizeOfCode */
	put32(o + 8, 0x400);		  /* SizeOfInitializedData */
	put32(o + 16, PE_TEXT_RVA);	  /* AddressOfEntryPoint */
	put32(o + 20, PE_TEXT_RVA);	  /* BaseOfCode */
	put64(o + 24, PE_PREFERRED_BASE); /* ImageBase */
	put32(o + 32, 0x1000);		  /* SectionAlignment */
	put32(o + 36, FILE_ALIGN);	  /* FileAlignment */
	put16(o + 48, 1);		  /* MajorSubsystemVersion */
	put32(o + 56, PE_IMAGE_SIZE);	  /* SizeOfImage */
	put32(o + 60, FILE_ALIGN);	  /* SizeOfHeaders */
	put16(o + 68, subsystem);
	put64(o + 72, 0x10000);		/* stack reserve */
	put64(o + 80, 0x1000);		/* stack commit */
	put32(o + 108, 16);		/* NumberOfRvaAndSizes */
	put32(o + 112 + 5 * 8, 0x3000); /* base relocation directory */
	put32(o + 112 + 5 * 8 + 4, 12);
}

static void put_sections(UINT8 *b, EFI_IMAGE_ENTRY_POINT entry)
{
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++) {
		UINT8 *s = b + SECTIONS_OFFSET + i * 40;
		mem_copy(s, sections[i].name, str8_len(sections[i].name));
		put32(s + 8, sections[i].vsize);
		put32(s + 12, sections[i].rva);
		put32(s + 16, FILE_ALIGN);
		put32(s + 20, sections[i].raw);
		put32(s + 36, sections[i].characteristics);
	}
	UINT8 *text = b + 0x200;
#if defined(__aarch64__)
	/* .text: ldr x16, .+8; br x16; then the target. */
	put32(text, 0x58000050);
	put32(text + 4, 0xd61f0200);
	put64(text + 8, (UINT64)(UINTN)entry);
#else
	/* .text: movabs rax, entry; jmp rax */
	text[0] = 0x48;
	text[1] = 0xb8;
	put64(text + 2, (UINT64)(UINTN)entry);
	text[10] = 0xff;
	text[11] = 0xe0;
#endif
	/* .data: a pointer to the next field, relocated; then a marker. */
	put64(b + 0x400, PE_PREFERRED_BASE + PE_DATA_RVA + 8);
	put64(b + 0x408, PE_DATA_MAGIC);
	/* .reloc: one block for the .data page, a DIR64 entry and padding. */
	put32(b + 0x600, PE_DATA_RVA);
	put32(b + 0x604, 12);
	put16(b + 0x608, (10 << 12) | 0);
	put16(b + 0x60a, 0);
}

bool pe_is_trampoline(const UINT8 *code)
{
#if defined(__aarch64__)
	return code[0] == 0x50 && code[1] == 0x00 && code[2] == 0x00 && code[3] == 0x58;
#else
	return code[0] == 0x48 && code[1] == 0xb8;
#endif
}

static void apply_defect(UINT8 *b, enum pe_defect defect)
{
	switch (defect) {
	case PE_BAD_MZ:
		b[0] = 'X';
		break;
	case PE_BAD_SIGNATURE:
		b[0x41] = 'X';
		break;
	case PE_MACHINE_I386:
		put16(b + COFF_OFFSET, 0x014c);
		break;
	case PE_MACHINE_FOREIGN:
		put16(b + COFF_OFFSET, MACHINE_FOREIGN);
		break;
	case PE_SUBSYSTEM_CONSOLE:
		put16(b + OPT_OFFSET + 68, 3);
		break;
	case PE_IMAGE_SIZE_TOO_SMALL:
		put32(b + OPT_OFFSET + 56, 0x1000);
		break;
	case PE_TOO_MANY_SECTIONS:
		put16(b + COFF_OFFSET + 2, 0xffff);
		break;
	case PE_SECTION_BEYOND_FILE:
		put32(b + SECTIONS_OFFSET + 40 + 20, 0x100000);
		break;
	case PE_BAD_OPTIONAL_MAGIC:
		put16(b + OPT_OFFSET, 0x1234);
		break;
	case PE_OK:
		break;
	}
}

void pe_build(UINT8 *buf, EFI_IMAGE_ENTRY_POINT entry, UINT16 subsystem, enum pe_defect defect)
{
	mem_set(buf, 0, PE_FILE_SIZE);
	put_headers(buf, subsystem);
	put_sections(buf, entry);
	apply_defect(buf, defect);
}
