/* PE32+ parsing, loading and relocation (core/image/pe_*.c), on the reference image of
 * pe_builder.c broken one field at a time, and on a real lld-linked application. Every
 * file and image is handed over in a heap block of its exact size, so that the ASan
 * build catches any read or write past the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>
#include <limits.h>
#include <unistd.h>

#include "support/test.h"
#include "pe_builder.h"
#include "pe_sample_lld.h"
#include <ember/core/pe.h>
#include <ember/lib/util.h>

static uint8_t *dup_bytes(const uint8_t *bytes, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);

	memcpy(copy, bytes, size);
	return copy;
}

static EFI_STATUS parse(const uint8_t *file, size_t size, struct pe_image_info *info,
			const char **reason)
{
	uint8_t *copy = dup_bytes(file, size);
	EFI_STATUS status = pe_parse(copy, size, info, reason);

	free(copy);
	return status;
}

/* Parses and loads a file at load_address; returns the image (to free) or NULL. */
static uint8_t *load(const uint8_t *file, size_t size, UINT64 load_address,
		     struct pe_image_info *info, EFI_STATUS *status, const char **reason)
{
	uint8_t *copy = dup_bytes(file, size), *image = NULL;

	*status = pe_parse(copy, size, info, reason);
	if (!EFI_ERROR(*status) && info->size_of_image > (256u << 20))
		*status = EFI_BAD_BUFFER_SIZE; /* valid, but more than a test should allocate */
	if (!EFI_ERROR(*status)) {
		image = malloc(info->size_of_image);
		memset(image, 0xa5, info->size_of_image); /* pe_load must zero-fill */
		*status = pe_load(copy, size, info, image, load_address, reason);
		if (EFI_ERROR(*status)) {
			free(image);
			image = NULL;
		}
	}
	free(copy);
	return image;
}

static void expect_reason(const char *got, const char *want, int line)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "reason \"%s\" to be \"%s\"", got ? got : "(null)", want);
	test_check(got && !strcmp(got, want), msg, __FILE__, line, false);
}

/* A copy of the reference image with one field changed and the file cut to size. */
struct mutation {
	size_t offset;
	uint64_t value;
	int width; /* 0: no change */
	size_t size;
};

static void expect_refused_at(struct mutation m, EFI_STATUS want, const char *reason, int line)
{
	uint8_t file[PEB_FILE_SIZE];
	struct pe_image_info info;
	const char *got = NULL;
	EFI_STATUS status;

	peb_build(file);
	if (m.width)
		peb_put(file, m.offset, m.value, m.width);
	status = parse(file, m.size ? m.size : sizeof(file), &info, &got);
	test_check_status(status, want, "pe_parse()", __FILE__, line, false);
	expect_reason(got, reason, line);
}

#define EXPECT_REFUSED(m, status, reason) expect_refused_at(m, status, reason, __LINE__)
#define SET(off, val, w) ((struct mutation){(off), (val), (w), 0})
#define CUT(size) ((struct mutation){0, 0, 0, (size)})

TEST(pe_parse_reference_image)
{
	uint8_t file[PEB_FILE_SIZE];
	struct pe_image_info info;
	const char *reason = NULL;

	peb_build(file);
	ASSERT_STATUS(parse(file, sizeof(file), &info, &reason), EFI_SUCCESS);
	EXPECT_EQ(info.machine, IMAGE_FILE_MACHINE_X64);
	EXPECT_EQ(info.subsystem, EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION);
	EXPECT_EQ(info.characteristics, 0x22);
	EXPECT_EQ(info.number_of_sections, 3);
	EXPECT_EQ(info.image_base, PEB_IMAGE_BASE);
	EXPECT_EQ(info.size_of_image, PEB_IMAGE_SIZE);
	EXPECT_EQ(info.size_of_headers, 0x200);
	EXPECT_EQ(info.entry_point_rva, 0x1000);
	EXPECT_EQ(info.section_alignment, 0x1000);
	EXPECT_EQ(info.file_alignment, 0x200);
	EXPECT_EQ(info.pe_header_offset, PEB_PE);
	EXPECT_EQ(info.section_table_offset, PEB_SECTION(0));
	EXPECT_EQ(info.reloc_rva, PEB_RELOC_RVA);
	EXPECT_EQ(info.reloc_size, PEB_RELOC_SIZE);
	EXPECT_EQ(info.debug_rva, 0x2100);
	EXPECT_EQ(info.debug_size, 28);
	EXPECT(!info.relocs_stripped);

	/* Large alignments are the allocator's business, and FileAlignment may equal it. */
	peb_put(file, PEB_OH_SECTION_ALIGN, 0x200000, 4);
	peb_put(file, PEB_OH_FILE_ALIGN, 0x200000, 4);
	ASSERT_STATUS(parse(file, sizeof(file), &info, &reason), EFI_SUCCESS);
	EXPECT_EQ(info.section_alignment, 0x200000);
}

/* The loaded layout, whatever the address: headers, sections, zeros in between. */
static void expect_layout(const uint8_t *file, const uint8_t *image)
{
	EXPECT(!memcmp(image, file, PEB_OH_IMAGE_BASE));
	EXPECT(!memcmp(image + PEB_OH_IMAGE_BASE + 8, file + PEB_OH_IMAGE_BASE + 8,
		       0x200 - PEB_OH_IMAGE_BASE - 8));
	EXPECT(!memcmp(image + 0x1000, file + 0x200, 0x80));
	EXPECT(!memcmp(image + 0x2000, file + 0x400, 0x10));
	EXPECT(!memcmp(image + 0x2100, file + 0x500, 0x100));
	EXPECT(!memcmp(image + PEB_RELOC_RVA, file + PEB_RELOC_FILE, PEB_RELOC_SIZE));
	for (size_t i = 0x200; i < 0x1000; i++)
		ASSERT_EQ(image[i], 0);
	/* .text beyond its VirtualSize, .data beyond its raw data, the gap before .reloc. */
	for (size_t i = 0x1080; i < 0x2000; i++)
		ASSERT_EQ(image[i], 0);
	for (size_t i = 0x2200; i < PEB_RELOC_RVA; i++)
		ASSERT_EQ(image[i], 0);
	for (size_t i = PEB_RELOC_RVA + PEB_RELOC_SIZE; i < PEB_IMAGE_SIZE; i++)
		ASSERT_EQ(image[i], 0);
}

static void expect_relocated(const uint8_t *image, UINT64 delta)
{
	uint32_t high = ((PEB_HIGH_VALUE << 16) + (uint32_t)delta) >> 16;

	EXPECT_EQ(peb_get(image, PEB_DIR64_RVA, 8), PEB_DIR64_VALUE + delta);
	EXPECT_EQ(peb_get(image, PEB_HIGHLOW_RVA, 4), (uint32_t)(PEB_HIGHLOW_VALUE + delta));
	EXPECT_EQ(peb_get(image, PEB_HIGH_RVA, 2), high & 0xffff);
	EXPECT_EQ(peb_get(image, PEB_LOW_RVA, 2), (uint16_t)(PEB_LOW_VALUE + delta));
	EXPECT_EQ(peb_get(image, PEB_OH_IMAGE_BASE, 8), PEB_IMAGE_BASE + delta);
}

static void load_reference_at(UINT64 load_address)
{
	uint8_t file[PEB_FILE_SIZE], *image;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	peb_build(file);
	image = load(file, sizeof(file), load_address, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	expect_layout(file, image);
	expect_relocated(image, load_address - PEB_IMAGE_BASE);
	EXPECT(!strcmp(pe_debug_name(image, info.size_of_image), PEB_PDB_NAME));
	free(image);
}

TEST(pe_load_at_image_base)
{
	load_reference_at(PEB_IMAGE_BASE);
}

TEST(pe_load_positive_delta)
{
	load_reference_at(PEB_IMAGE_BASE + 0x12345000);
	/* A delta that wraps the LOW field around. */
	load_reference_at(PEB_IMAGE_BASE + 0x10);
}

TEST(pe_load_negative_delta)
{
	load_reference_at(0x100000);
	load_reference_at(PEB_IMAGE_BASE - 0x10);
}

TEST(pe_relocate_back_and_forth)
{
	uint8_t file[PEB_FILE_SIZE], *image, *before;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;
	UINT64 delta = 0xffff800000000000ULL - PEB_IMAGE_BASE;

	peb_build(file);
	image = load(file, sizeof(file), PEB_IMAGE_BASE, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	before = dup_bytes(image, PEB_IMAGE_SIZE);
	EXPECT_STATUS(
	    pe_relocate(image, PEB_IMAGE_SIZE, info.reloc_rva, info.reloc_size, delta, &reason),
	    EFI_SUCCESS);
	EXPECT_EQ(peb_get(image, PEB_DIR64_RVA, 8), PEB_DIR64_VALUE + delta);
	EXPECT_STATUS(
	    pe_relocate(image, PEB_IMAGE_SIZE, info.reloc_rva, info.reloc_size, -delta, &reason),
	    EFI_SUCCESS);
	EXPECT(!memcmp(image, before, PEB_IMAGE_SIZE));
	free(before);
	free(image);
}

TEST(pe_refuses_non_pe)
{
	EXPECT_REFUSED(SET(0, 'X', 1), EFI_LOAD_ERROR, "not a PE32+ image");
	EXPECT_REFUSED(CUT(1), EFI_LOAD_ERROR, "not a PE32+ image");
	EXPECT_REFUSED(CUT(0x3f), EFI_LOAD_ERROR, "not a PE32+ image");
	EXPECT_REFUSED(SET(PEB_LFANEW, 0x7fe, 4), EFI_LOAD_ERROR, "not a PE32+ image");
	EXPECT_REFUSED(SET(PEB_LFANEW, 0xfffffffe, 4), EFI_LOAD_ERROR, "not a PE32+ image");
	EXPECT_REFUSED(SET(PEB_PE + 2, 1, 1), EFI_LOAD_ERROR, "not a PE32+ image");
	EXPECT_REFUSED(SET(PEB_OH_MAGIC, 0x10b, 2), EFI_LOAD_ERROR, "not a PE32+ image");
	/* An object file: no optional header at all. */
	EXPECT_REFUSED(SET(PEB_FH_OPT_SIZE, 0, 2), EFI_LOAD_ERROR, "not a PE32+ image");
}

TEST(pe_refuses_other_machines)
{
	uint8_t file[PEB_FILE_SIZE];
	struct pe_image_info info;
	const char *reason = NULL;

	/* A PE32 image for x86 is named by its machine, not as "not PE32+". */
	peb_build(file);
	peb_put(file, PEB_FH_MACHINE, IMAGE_FILE_MACHINE_I386, 2);
	peb_put(file, PEB_OH_MAGIC, 0x10b, 2);
	EXPECT_STATUS(parse(file, sizeof(file), &info, &reason), EFI_UNSUPPORTED);
	expect_reason(reason, "unsupported machine type 0x14c", __LINE__);
	EXPECT_REFUSED(SET(PEB_FH_MACHINE, IMAGE_FILE_MACHINE_ARM64, 2), EFI_UNSUPPORTED,
		       "unsupported machine type 0xaa64");
	EXPECT_REFUSED(SET(PEB_FH_MACHINE, 0, 2), EFI_UNSUPPORTED, "unsupported machine type 0x0");
}

TEST(pe_refuses_truncated_headers)
{
	EXPECT_REFUSED(CUT(PEB_PE + 4), EFI_LOAD_ERROR, "truncated headers");
	EXPECT_REFUSED(CUT(PEB_FH + 19), EFI_LOAD_ERROR, "truncated headers");
	EXPECT_REFUSED(CUT(PEB_OH + 1), EFI_LOAD_ERROR, "truncated optional header");
	EXPECT_REFUSED(CUT(PEB_OH + 100), EFI_LOAD_ERROR, "truncated optional header");
	EXPECT_REFUSED(SET(PEB_FH_OPT_SIZE, 111, 2), EFI_LOAD_ERROR, "truncated optional header");
	EXPECT_REFUSED(SET(PEB_OH_DIR_COUNT, 17, 4), EFI_LOAD_ERROR, "truncated optional header");
	EXPECT_REFUSED(CUT(PEB_SECTION(2) + 39), EFI_LOAD_ERROR, "truncated section table");
	EXPECT_REFUSED(SET(PEB_FH_SECTIONS, 0xffff, 2), EFI_LOAD_ERROR, "truncated section table");
}

TEST(pe_refuses_bad_header_fields)
{
	EXPECT_REFUSED(SET(PEB_OH_SUBSYSTEM, 3, 2), EFI_UNSUPPORTED, "unsupported subsystem 3");
	EXPECT_REFUSED(SET(PEB_OH_SUBSYSTEM, 13, 2), EFI_UNSUPPORTED, "unsupported subsystem 13");
	EXPECT_REFUSED(SET(PEB_OH_SECTION_ALIGN, 0, 4), EFI_LOAD_ERROR, "invalid SectionAlignment");
	EXPECT_REFUSED(SET(PEB_OH_SECTION_ALIGN, 0x1800, 4), EFI_LOAD_ERROR,
		       "invalid SectionAlignment");
	EXPECT_REFUSED(SET(PEB_OH_FILE_ALIGN, 0x300, 4), EFI_LOAD_ERROR, "invalid FileAlignment");
	EXPECT_REFUSED(SET(PEB_OH_FILE_ALIGN, 0x2000, 4), EFI_LOAD_ERROR, "invalid FileAlignment");
	EXPECT_REFUSED(SET(PEB_OH_SIZE_OF_HEADERS, 0x801, 4), EFI_LOAD_ERROR,
		       "SizeOfHeaders beyond the end of the file");
	EXPECT_REFUSED(SET(PEB_OH_SIZE_OF_IMAGE, 0x100, 4), EFI_LOAD_ERROR,
		       "SizeOfHeaders beyond SizeOfImage");
	EXPECT_REFUSED(SET(PEB_OH_SIZE_OF_HEADERS, PEB_SECTION(2) + 39, 4), EFI_LOAD_ERROR,
		       "section table beyond SizeOfHeaders");
	EXPECT_REFUSED(SET(PEB_OH_ENTRY, PEB_IMAGE_SIZE, 4), EFI_LOAD_ERROR,
		       "entry point outside the image");
	EXPECT_REFUSED(SET(PEB_OH_ENTRY, 0, 4), EFI_LOAD_ERROR, "entry point outside the image");
	EXPECT_REFUSED(SET(PEB_OH_DIR(5) + 4, PEB_IMAGE_SIZE, 4), EFI_LOAD_ERROR,
		       "relocation directory outside the image");
	EXPECT_REFUSED(SET(PEB_OH_DIR(5), 0xfffffff0, 4), EFI_LOAD_ERROR,
		       "relocation directory outside the image");
}

TEST(pe_refuses_bad_sections)
{
	size_t text = PEB_SECTION(0), data = PEB_SECTION(1), reloc = PEB_SECTION(2);

	EXPECT_REFUSED(SET(text + PEB_SEC_VADDR, 0x100, 4), EFI_LOAD_ERROR,
		       "section overlaps the headers");
	EXPECT_REFUSED(SET(data + PEB_SEC_VADDR, 0x1040, 4), EFI_LOAD_ERROR,
		       "sections overlap or are out of order");
	EXPECT_REFUSED(SET(reloc + PEB_SEC_VADDR, 0x1800, 4), EFI_LOAD_ERROR,
		       "sections overlap or are out of order");
	EXPECT_REFUSED(SET(data + PEB_SEC_VSIZE, 0x3001, 4), EFI_LOAD_ERROR,
		       "section beyond SizeOfImage");
	EXPECT_REFUSED(SET(reloc + PEB_SEC_VADDR, 0xfffffff0, 4), EFI_LOAD_ERROR,
		       "section beyond SizeOfImage");
	EXPECT_REFUSED(SET(data + PEB_SEC_RAW_PTR, 0x601, 4), EFI_LOAD_ERROR,
		       "section data beyond the end of the file");
	EXPECT_REFUSED(SET(data + PEB_SEC_RAW_PTR, 0xffffff00, 4), EFI_LOAD_ERROR,
		       "section data beyond the end of the file");
	EXPECT_REFUSED(CUT(PEB_RELOC_FILE + PEB_RELOC_SIZE - 1), EFI_LOAD_ERROR,
		       "section data beyond the end of the file");
}

TEST(pe_section_sizes)
{
	uint8_t file[PEB_FILE_SIZE], *image;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	/* VirtualSize 0: the raw size is the size. All of SizeOfRawData must be in the file,
	 * even the part beyond what is loaded: a shorter file is a truncated one. */
	peb_build(file);
	peb_put(file, PEB_SECTION(0) + PEB_SEC_VSIZE, 0, 4);
	EXPECT_STATUS(parse(file, PEB_RELOC_FILE + PEB_RELOC_SIZE, &info, &reason), EFI_LOAD_ERROR);
	image = load(file, sizeof(file), PEB_IMAGE_BASE, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	EXPECT(!memcmp(image + 0x1000, file + 0x200, 0x200));
	EXPECT_EQ(image[0x1200], 0);
	free(image);

	/* Empty sections take no room, wherever they claim to be. */
	peb_build(file);
	peb_put(file, PEB_SECTION(0) + PEB_SEC_VSIZE, 0, 4);
	peb_put(file, PEB_SECTION(0) + PEB_SEC_RAW_SIZE, 0, 4);
	peb_put(file, PEB_SECTION(0) + PEB_SEC_VADDR, 0x10, 4);
	peb_put(file, PEB_OH_ENTRY, 0x2000, 4);
	image = load(file, sizeof(file), PEB_IMAGE_BASE, &info, &status, &reason);
	EXPECT_STATUS(status, EFI_SUCCESS);
	free(image);
}

/* Loads the reference image, changed at the given file offset, 0x1000 above its base. */
static void expect_load_refused(size_t offset, uint64_t value, int width, const char *want,
				int line)
{
	uint8_t file[PEB_FILE_SIZE], *image;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	peb_build(file);
	peb_put(file, offset, value, width);
	image = load(file, sizeof(file), PEB_IMAGE_BASE + 0x1000, &info, &status, &reason);
	test_check_status(status, EFI_LOAD_ERROR, "pe_load()", __FILE__, line, false);
	expect_reason(reason, want, line);
	free(image);
}

#define EXPECT_LOAD_REFUSED(off, val, w, reason) expect_load_refused(off, val, w, reason, __LINE__)

TEST(pe_refuses_bad_relocations)
{
	size_t block = PEB_RELOC_FILE, entry = PEB_RELOC_FILE + 8;

	EXPECT_LOAD_REFUSED(entry, 4 << 12, 2, "unknown relocation type");
	EXPECT_LOAD_REFUSED(entry, 9 << 12, 2, "unknown relocation type");
	EXPECT_LOAD_REFUSED(entry + 2, 11 << 12, 2, "unknown relocation type");
	EXPECT_LOAD_REFUSED(block, PEB_IMAGE_SIZE - 0x10, 4, "relocation outside the image");
	EXPECT_LOAD_REFUSED(block, 0xfffff000, 4, "relocation outside the image");
	EXPECT_LOAD_REFUSED(block + 4, 7, 4, "malformed relocation block");
	EXPECT_LOAD_REFUSED(block + 4, 0, 4, "malformed relocation block");
	EXPECT_LOAD_REFUSED(block + 4, PEB_RELOC_SIZE + 2, 4, "malformed relocation block");
	/* A second block whose header is cut by the end of the directory. */
	EXPECT_LOAD_REFUSED(block + 4, PEB_RELOC_SIZE - 4, 4, "malformed relocation block");
}

TEST(pe_relocations_at_the_edge)
{
	uint8_t file[PEB_FILE_SIZE], *image;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	peb_build(file);
	peb_put(file, PEB_RELOC_FILE, PEB_IMAGE_SIZE - 0x1000, 4);
	peb_put(file, PEB_RELOC_FILE + 8, 10 << 12 | 0xff8, 2);
	peb_put(file, PEB_RELOC_FILE + 10, 3 << 12 | 0xff4, 2);
	peb_put(file, PEB_RELOC_FILE + 12, 2 << 12 | 0xff2, 2);
	peb_put(file, PEB_RELOC_FILE + 14, 1 << 12 | 0xff0, 2);
	image = load(file, sizeof(file), PEB_IMAGE_BASE + 0x10000, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	EXPECT_EQ(peb_get(image, PEB_IMAGE_SIZE - 8, 8), 0x10000);
	EXPECT_EQ(peb_get(image, PEB_IMAGE_SIZE - 12, 4), 0x10000);
	EXPECT_EQ(peb_get(image, PEB_IMAGE_SIZE - 14, 2), 0);
	EXPECT_EQ(peb_get(image, PEB_IMAGE_SIZE - 16, 2), 1);
	free(image);

	/* One byte further, each of them is refused. */
	static const uint16_t past_end[] = {10 << 12 | 0xff9, 3 << 12 | 0xffd, 2 << 12 | 0xfff,
					    1 << 12 | 0xfff};
	for (size_t i = 0; i < ARRAY_SIZE(past_end); i++) {
		peb_put(file, PEB_RELOC_FILE + 8, past_end[i], 2);
		image = load(file, sizeof(file), PEB_IMAGE_BASE + 0x10000, &info, &status, &reason);
		EXPECT_STATUS(status, EFI_LOAD_ERROR);
		expect_reason(reason, "relocation outside the image", __LINE__);
		free(image);
	}
}

TEST(pe_relocate_validates_before_writing)
{
	uint8_t file[PEB_FILE_SIZE], *image, *before;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	peb_build(file);
	image = load(file, sizeof(file), PEB_IMAGE_BASE, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	/* The last entry of the block becomes bad; the good ones before it must not run. */
	peb_put(image, PEB_RELOC_RVA + PEB_RELOC_SIZE - 2, 5 << 12, 2);
	before = dup_bytes(image, PEB_IMAGE_SIZE);
	EXPECT_STATUS(
	    pe_relocate(image, PEB_IMAGE_SIZE, info.reloc_rva, info.reloc_size, 0x1000, &reason),
	    EFI_LOAD_ERROR);
	expect_reason(reason, "unknown relocation type", __LINE__);
	EXPECT(!memcmp(image, before, PEB_IMAGE_SIZE));
	EXPECT_STATUS(pe_relocate(image, PEB_IMAGE_SIZE, 0x4ff0, 0x20, 0x1000, &reason),
		      EFI_LOAD_ERROR);
	expect_reason(reason, "relocation directory outside the image", __LINE__);
	EXPECT_STATUS(pe_relocate(image, PEB_IMAGE_SIZE, 0, 0, 0x1000, &reason), EFI_SUCCESS);
	free(before);
	free(image);
}

TEST(pe_stripped_relocations)
{
	uint8_t file[PEB_FILE_SIZE], *image;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	peb_build(file);
	peb_put(file, PEB_FH_CHARACTERISTICS, 0x23, 2);
	peb_put(file, PEB_OH_DIR(5) + 4, 0, 4);
	image = load(file, sizeof(file), PEB_IMAGE_BASE, &info, &status, &reason);
	EXPECT_STATUS(status, EFI_SUCCESS);
	EXPECT(info.relocs_stripped);
	free(image);
	image = load(file, sizeof(file), PEB_IMAGE_BASE + 0x1000, &info, &status, &reason);
	EXPECT_STATUS(status, EFI_LOAD_ERROR);
	expect_reason(reason, "relocations required but stripped", __LINE__);
	free(image);

	/* The flag with a relocation directory: the directory wins. */
	peb_build(file);
	peb_put(file, PEB_FH_CHARACTERISTICS, 0x23, 2);
	image = load(file, sizeof(file), PEB_IMAGE_BASE + 0x1000, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	expect_relocated(image, 0x1000);
	free(image);
}

/* Like the Linux kernel's EFI stub: ImageBase 0, no relocation directory, no stripped
 * flag. It relocates itself, so it loads anywhere, untouched. */
TEST(pe_self_relocating_image)
{
	uint8_t file[PEB_FILE_SIZE], *image;
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	peb_build(file);
	peb_put(file, PEB_OH_IMAGE_BASE, 0, 8);
	peb_put(file, PEB_OH_DIR(5), 0, 4);
	peb_put(file, PEB_OH_DIR(5) + 4, 0, 4);
	peb_put(file, PEB_OH_DIR_COUNT, 6, 4);
	image = load(file, sizeof(file), 0x7f3a2000, &info, &status, &reason);
	ASSERT_STATUS(status, EFI_SUCCESS);
	EXPECT_EQ(info.reloc_size, 0);
	EXPECT_EQ(info.debug_size, 0); /* directory 6 is past NumberOfRvaAndSizes */
	EXPECT_EQ(peb_get(image, PEB_DIR64_RVA, 8), PEB_DIR64_VALUE);
	EXPECT_EQ(peb_get(image, PEB_OH_IMAGE_BASE, 8), 0x7f3a2000);
	EXPECT(pe_debug_name(image, info.size_of_image) == NULL);
	free(image);
}

static const char *debug_name_of(uint8_t *file, UINT32 image_size)
{
	struct pe_image_info info;
	EFI_STATUS status;
	const char *reason, *name;
	uint8_t *image = load(file, PEB_FILE_SIZE, PEB_IMAGE_BASE, &info, &status, &reason);
	static char copy[64];

	if (!image)
		return "(load failed)";
	name = pe_debug_name(image, MIN(image_size, info.size_of_image));
	if (name)
		snprintf(copy, sizeof(copy), "%s", name);
	free(image);
	return name ? copy : NULL;
}

TEST(pe_debug_names)
{
	uint8_t file[PEB_FILE_SIZE];
	size_t cv = peb_file_offset(0x2140), entry = peb_file_offset(0x2100);

	peb_build(file);
	EXPECT(!strcmp(debug_name_of(file, PEB_IMAGE_SIZE), PEB_PDB_NAME));
	/* Cut short of the record's terminator. */
	EXPECT(debug_name_of(file, 0x2140 + 24 + sizeof(PEB_PDB_NAME) - 1) == NULL);
	EXPECT(debug_name_of(file, 0x100) == NULL);
	EXPECT(pe_debug_name(NULL, 0) == NULL);

	memcpy(file + cv, "NB10", 4);
	memcpy(file + cv + 16, "nb10.pdb", 9);
	EXPECT(!strcmp(debug_name_of(file, PEB_IMAGE_SIZE), "nb10.pdb"));
	memcpy(file + cv, "XXXX", 4);
	EXPECT(debug_name_of(file, PEB_IMAGE_SIZE) == NULL);

	peb_build(file);
	peb_put(file, entry + 16, 24 + sizeof(PEB_PDB_NAME) - 1, 4); /* no terminator */
	EXPECT(debug_name_of(file, PEB_IMAGE_SIZE) == NULL);
	peb_put(file, entry + 16, 0xffffffff, 4);
	EXPECT(debug_name_of(file, PEB_IMAGE_SIZE) == NULL);

	peb_build(file);
	peb_put(file, entry + 12, 16, 4); /* a different debug type */
	EXPECT(debug_name_of(file, PEB_IMAGE_SIZE) == NULL);

	peb_build(file);
	peb_put(file, PEB_OH_DIR(6), 0x4ffc, 4); /* directory past the end: ignored */
	EXPECT(debug_name_of(file, PEB_IMAGE_SIZE) == NULL);
}

TEST(pe_lld_sample)
{
	static const UINT64 addresses[] = {0x10000000, 0x10000000 + 0x7ff000, 0x200000};
	struct pe_image_info info;
	const char *reason = NULL;
	EFI_STATUS status;

	for (size_t i = 0; i < ARRAY_SIZE(addresses); i++) {
		UINT64 delta = addresses[i] - 0x10000000;
		uint8_t *image = load(pe_sample_lld, sizeof(pe_sample_lld), addresses[i], &info,
				      &status, &reason);

		ASSERT_STATUS(status, EFI_SUCCESS);
		EXPECT_EQ(info.image_base, 0x10000000);
		EXPECT_EQ(info.size_of_image, 0x5000);
		EXPECT_EQ(info.subsystem, EFI_IMAGE_SUBSYSTEM_EFI_APPLICATION);
		EXPECT_EQ(peb_get(image, 0x3000, 4), 0x1000300c + delta);
		EXPECT_EQ(peb_get(image, 0x3008, 8), 0x1122334455667788ULL);
		EXPECT_EQ(peb_get(image, 0x3010, 8), 0x10003008 + delta);
		EXPECT_EQ(peb_get(image, 0x3018, 8), 0x10003010 + delta);
		EXPECT_EQ(peb_get(image, 0x3020, 8), 0);
		EXPECT(!strcmp(pe_debug_name(image, info.size_of_image), "sample.pdb"));
		free(image);
	}
}

TEST(pe_every_truncation)
{
	uint8_t file[PEB_FILE_SIZE];
	struct pe_image_info info;
	const char *reason;

	/* The file is complete once the last section's raw data (.reloc's) is all in it. */
	peb_build(file);
	for (size_t size = 0; size <= sizeof(file); size++) {
		EFI_STATUS want = size == sizeof(file) ? EFI_SUCCESS : EFI_LOAD_ERROR;

		ASSERT_STATUS(parse(file, size, &info, &reason), want);
	}
}

/* Parses and loads a file at two addresses, and checks every section landed whole. */
static void expect_loads(const uint8_t *file, size_t size, const char *path)
{
	static const UINT64 addresses[] = {0x7f0000000000ULL, 0x1000000};
	struct pe_image_info info;
	const char *reason = "";
	EFI_STATUS status;

	for (size_t i = 0; i < ARRAY_SIZE(addresses); i++) {
		uint8_t *image = load(file, size, addresses[i], &info, &status, &reason);

		if (!test_check_status(status, EFI_SUCCESS, path, __FILE__, __LINE__, false)) {
			printf("    %s: %s\n", path, reason);
			return;
		}
		for (UINT32 s = 0; s < info.number_of_sections; s++) {
			size_t at = info.section_table_offset + 40 * s;
			uint32_t vsize = peb_get(file, at + 8, 4), rva = peb_get(file, at + 12, 4);
			uint32_t raw = peb_get(file, at + 16, 4), ptr = peb_get(file, at + 20, 4);
			uint32_t copied = MIN(vsize ? vsize : raw, raw);

			/* Relocations change bytes; only an image that has none stays equal. */
			if (!info.reloc_size)
				EXPECT(!memcmp(image + rva, file + ptr, copied));
		}
		free(image);
	}
}

/* The gnu-efi test programs the Makefile builds next to this test binary (BUILD/tests/programs,
 * or one directory up for the instrumented build in BUILD/cov), and any files listed in
 * EMBER_PE_FILES (colon-separated), such as a Linux kernel or shim. Finding no program is a
 * failure: the test would otherwise check nothing. */
static void glob_programs(glob_t *found)
{
	char exe[PATH_MAX], pattern[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return;
	exe[n] = 0;
	*strrchr(exe, '/') = 0;
	snprintf(pattern, sizeof(pattern), "%s/tests/programs/*.efi", exe);
	if (glob(pattern, 0, NULL, found) == 0)
		return;
	snprintf(pattern, sizeof(pattern), "%s/../tests/programs/*.efi", exe);
	glob(pattern, 0, NULL, found);
}

TEST(pe_real_binaries)
{
	glob_t found = {0};
	char *list = getenv("EMBER_PE_FILES") ? strdup(getenv("EMBER_PE_FILES")) : NULL;

	glob_programs(&found);
	EXPECT(found.gl_pathc >= 4); /* hello, exit_status, gop_mode, test_driver ... */
	for (char *path = list ? strtok(list, ":") : NULL; path; path = strtok(NULL, ":"))
		glob(path, GLOB_APPEND | GLOB_NOCHECK, NULL, &found);
	for (size_t i = 0; i < found.gl_pathc; i++) {
		FILE *f = fopen(found.gl_pathv[i], "rb");
		uint8_t *file;
		long size;

		if (!test_check(f != NULL, found.gl_pathv[i], __FILE__, __LINE__, false))
			continue;
		fseek(f, 0, SEEK_END);
		size = ftell(f);
		rewind(f);
		file = malloc(size);
		if (fread(file, 1, size, f) == (size_t)size)
			expect_loads(file, size, found.gl_pathv[i]);
		fclose(f);
		free(file);
	}
	globfree(&found);
	free(list);
}

static uint32_t next_random(uint32_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* Damages the reference image at random (header fields, relocation blocks, debug records)
 * and runs everything on it: under ASan, nothing may go out of bounds. A deterministic
 * cousin of tests/fuzz/fuzz_pe.c. */
TEST(pe_random_damage)
{
	static const uint32_t values[] = {0,	      1,	  7,	     8,	     0x200,
					  0xfff,      0x1000,	  0x4ff8,    0x5000, 0x7fffffff,
					  0x80000000, 0xfffffff8, 0xffffffff};
	static const size_t regions[][2] = {{0, 0x200}, {0x400, 0x600}, {0x600, 0x620}};
	uint32_t state = 0x12345678;
	int loaded = 0;

	for (int round = 0; round < 20000; round++) {
		uint8_t file[PEB_FILE_SIZE], *image;
		struct pe_image_info info;
		const char *reason;
		EFI_STATUS status;

		peb_build(file);
		for (int n = 1 + next_random(&state) % 3; n > 0; n--) {
			const size_t *region = regions[next_random(&state) % ARRAY_SIZE(regions)];
			size_t at = region[0] + next_random(&state) % (region[1] - region[0] - 4);

			if (next_random(&state) & 1)
				file[at] = (uint8_t)next_random(&state);
			else
				peb_put(file, at, values[next_random(&state) % ARRAY_SIZE(values)],
					4);
		}
		image =
		    load(file, sizeof(file), next_random(&state) & 1 ? 0x12340000 : PEB_IMAGE_BASE,
			 &info, &status, &reason);
		if (image) {
			pe_debug_name(image, info.size_of_image);
			loaded++;
			free(image);
		}
	}
	EXPECT(loaded > 100); /* some damage is harmless; the loading paths did run */
}
