/* Firmware volumes (lib/fv.c, lib/fv_section.c, lib/depex.c) on volumes written by
 * tools/lib/fv_image.c: the header and file checks and their refusals (checksums,
 * truncation), erase polarity, sections inside compression and CRC-32 sections, adding
 * and removing files, and dependency expressions. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include <ember/lib/crc32.h>
#include <ember/lib/fv.h>
#include <ember/lib/str.h>
#include <ember/tools/fv_image.h>

#define VOL_SIZE (64 * 1024)

static const EFI_GUID vol_name =
    EFI_GUID_INIT(0x11111111, 0x2222, 0x3333, 0x44, 0x44, 1, 2, 3, 4, 5, 6);
static const EFI_GUID file_a = EFI_GUID_INIT(0xaaaaaaaa, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
static const EFI_GUID file_b = EFI_GUID_INIT(0xbbbbbbbb, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2);

static void *test_alloc(void *ctx, size_t size)
{
	return malloc(size);
}

static void test_release(void *ctx, void *block)
{
	free(block);
}

static const struct fv_memory heap = {test_alloc, test_release, NULL};

/* A stand-in for a PE image: text that compresses. */
static uint8_t payload[3000];

static void fill_payload(void)
{
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)("MZ a driver image "[i % 18] + i / 700);
}

static void add_file(uint8_t *vol, const EFI_GUID *name, const char *ui, bool compress)
{
	struct fv_image_file spec = {
	    *name, EFI_FV_FILETYPE_DRIVER, payload, sizeof(payload), ui, compress, NULL, 0, 7};
	size_t size;
	uint8_t *file = fv_image_make_file(&spec, 0xFF, &size);

	ASSERT(file);
	EXPECT(fv_image_append(vol, VOL_SIZE, file, size) == NULL);
	free(file);
}

static uint8_t *new_volume(void)
{
	uint8_t *vol = malloc(VOL_SIZE);

	fill_payload();
	fv_image_format(vol, VOL_SIZE, &vol_name);
	return vol;
}

/* Walks to the first file that is not the pad file. */
static enum fv_walk first_file(const struct fv_volume *fv, size_t *offset, struct fv_file *f,
			       const char **why)
{
	enum fv_walk walk;

	*offset = fv->files_start;
	do
		walk = fv_next_file(fv, offset, f, why);
	while (walk == FV_WALK_FILE && f->type == EFI_FV_FILETYPE_FFS_PAD);
	return walk;
}

TEST(fv_empty_volume_is_named_and_has_no_files)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	size_t offset;
	const char *why;

	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	EXPECT(fv.named && guid_eq(&fv.name, &vol_name));
	EXPECT_EQ(fv.erased, 0xFF);
	EXPECT_EQ(fv.size, VOL_SIZE);
	EXPECT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_END);
	free(vol);
}

TEST(fv_header_refusals)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	const char *why;

	vol[33] ^= 1; /* FvLength */
	why = fv_open(&fv, vol, VOL_SIZE);
	EXPECT(why && strstr(why, "truncated"));
	vol[33] ^= 1;
	vol[60] ^= 1; /* the block map */
	why = fv_open(&fv, vol, VOL_SIZE);
	EXPECT(why && strstr(why, "checksum"));
	vol[60] ^= 1;
	why = fv_open(&fv, vol, VOL_SIZE - 1);
	EXPECT(why && strstr(why, "truncated"));
	vol[40] = 'X';
	why = fv_open(&fv, vol, VOL_SIZE);
	EXPECT(why && strstr(why, "signature"));
	EXPECT(fv_open(&fv, vol, 10) != NULL);
	free(vol);
}

static void expect_payload_section(const struct fv_file *f)
{
	struct fv_found found;
	const char *why =
	    fv_find_section(f->data, f->data_size, EFI_SECTION_PE32, 0, &heap, &found);

	ASSERT(why == NULL);
	EXPECT_EQ(found.section.data_size, sizeof(payload));
	EXPECT(memcmp(found.section.data, payload, sizeof(payload)) == 0);
	free(found.owned);
}

TEST(fv_files_plain_and_compressed)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	struct fv_found found;
	size_t offset;
	const char *why;
	char ui[32];

	add_file(vol, &file_a, "Plain", false);
	add_file(vol, &file_b, "Packed", true);
	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	EXPECT(guid_eq(&f.name, &file_a));
	EXPECT_EQ(f.type, EFI_FV_FILETYPE_DRIVER);
	EXPECT(f.attributes & FFS_ATTRIB_CHECKSUM);
	expect_payload_section(&f);
	EXPECT(fv_image_file_ui(f.data, f.data_size, ui, sizeof(ui)) && !strcmp(ui, "Plain"));
	ASSERT(fv_find_section(f.data, f.data_size, EFI_SECTION_VERSION, 0, &heap, &found) == NULL);
	EXPECT_EQ(found.section.data[0], 7);
	EXPECT(fv_find_section(f.data, f.data_size, EFI_SECTION_PE32, 1, &heap, &found) != NULL);
	ASSERT_EQ(fv_next_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	EXPECT(guid_eq(&f.name, &file_b));
	/* Compressed: smaller than the image, which comes back whole. */
	EXPECT(f.data_size < sizeof(payload));
	expect_payload_section(&f);
	EXPECT_EQ(fv_next_file(&fv, &offset, &f, &why), FV_WALK_END);
	/* The same GUID twice is refused. */
	struct fv_image_file spec = {file_a, EFI_FV_FILETYPE_DRIVER, payload, 10};
	size_t size;
	uint8_t *again = fv_image_make_file(&spec, 0xFF, &size);
	EXPECT(fv_image_append(vol, VOL_SIZE, again, size) != NULL);
	free(again);
	free(vol);
}

TEST(fv_damaged_file_is_skipped_and_walk_goes_on)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	size_t offset;
	const char *why = NULL;

	add_file(vol, &file_a, "A", false);
	add_file(vol, &file_b, "B", false);
	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	((uint8_t *)f.data)[100] ^= 0x40; /* a byte of A's image */
	EXPECT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_DAMAGED);
	EXPECT(why && strstr(why, "data checksum"));
	EXPECT(guid_eq(&f.name, &file_a));
	ASSERT_EQ(fv_next_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	EXPECT(guid_eq(&f.name, &file_b));
	free(vol);
}

TEST(fv_truncated_or_bad_header_stops_the_walk)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	size_t offset, at;
	const char *why = NULL;
	EFI_FFS_FILE_HEADER *h;

	add_file(vol, &file_a, "A", false);
	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	at = f.offset;
	h = (EFI_FFS_FILE_HEADER *)(vol + at);
	/* A size past the volume's end, the header's checksum right. */
	fv_put_size3(h->Size, (uint32_t)(VOL_SIZE - at + 8));
	fv_seal_file(h, f.size, 0xFF);
	EXPECT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_BROKEN);
	EXPECT(why && strstr(why, "truncated"));
	/* The header's checksum wrong. */
	fv_put_size3(h->Size, 100);
	EXPECT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_BROKEN);
	EXPECT(why && strstr(why, "header's checksum"));
	free(vol);
}

TEST(fv_deleted_file_is_not_a_file)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	size_t offset;
	const char *why;

	add_file(vol, &file_a, "A", false);
	add_file(vol, &file_b, "B", false);
	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	/* Erase polarity 1: deleting clears the bit. */
	vol[f.offset + 23] &= (uint8_t)~EFI_FILE_DELETED;
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	EXPECT(guid_eq(&f.name, &file_b));
	free(vol);
}

TEST(fv_remove_moves_later_files_down)
{
	uint8_t *vol = new_volume();
	uint8_t *fresh = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	size_t offset;
	const char *why;

	add_file(vol, &file_a, "A", true);
	add_file(vol, &file_b, "B", false);
	add_file(fresh, &file_b, "B", false);
	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	EXPECT(fv_image_remove(vol, VOL_SIZE, f.offset, f.size) == NULL);
	/* The volume is then the one B alone was added to, byte for byte. */
	EXPECT(memcmp(vol, fresh, VOL_SIZE) == 0);
	EXPECT(fv_image_remove(vol, VOL_SIZE, 3, 10) != NULL);
	free(vol);
	free(fresh);
}

/* A CRC-32 GUID-defined section around a PE32 section, checked then damaged. */
TEST(fv_crc32_guided_section)
{
	static const EFI_GUID crc_guid = EFI_CRC32_GUIDED_SECTION_EXTRACTION_GUID;
	uint8_t buf[64] = {0};
	struct fv_found found;
	uint32_t crc;

	/* Guided header: size, type, GUID, DataOffset 28, Attributes, CRC; then PE32. */
	fv_put_size3(buf, 28 + 8);
	buf[3] = EFI_SECTION_GUID_DEFINED;
	memcpy(buf + 4, &crc_guid, 16);
	buf[20] = 28;
	buf[22] = EFI_GUIDED_SECTION_AUTH_STATUS_VALID;
	fv_put_size3(buf + 28, 8);
	buf[31] = EFI_SECTION_PE32;
	memcpy(buf + 32, "MZ!!", 4);
	crc = crc32(buf + 28, 8);
	memcpy(buf + 24, &crc, 4);
	ASSERT(fv_find_section(buf, 36, EFI_SECTION_PE32, 0, &heap, &found) == NULL);
	EXPECT(memcmp(found.section.data, "MZ!!", 4) == 0);
	buf[33] ^= 1;
	EXPECT(fv_find_section(buf, 36, EFI_SECTION_PE32, 0, &heap, &found) != NULL);
	/* A section longer than its file. */
	EXPECT(fv_find_section(buf, 30, EFI_SECTION_PE32, 0, &heap, &found) != NULL);
}

static bool installed(void *ctx, const EFI_GUID *guid)
{
	return guid_eq(guid, &file_a);
}

static size_t push(uint8_t *p, const EFI_GUID *g)
{
	p[0] = EFI_DEP_PUSH;
	memcpy(p + 1, g, 16);
	return 17;
}

TEST(depex_shapes_and_values)
{
	uint8_t e[64];
	size_t n = 0;
	enum depex_kind kind;
	EFI_GUID target;

	n += push(e + n, &file_a);
	n += push(e + n, &file_b);
	e[n++] = EFI_DEP_AND;
	e[n++] = EFI_DEP_END;
	ASSERT(depex_check(e, n, &kind, &target) == NULL);
	EXPECT_EQ(kind, DEPEX_NORMAL);
	EXPECT(!depex_eval(e, n, installed, NULL));
	e[n - 2] = EFI_DEP_OR;
	EXPECT(depex_eval(e, n, installed, NULL));
	e[n - 1] = EFI_DEP_NOT;
	e[n++] = EFI_DEP_END;
	ASSERT(depex_check(e, n, &kind, &target) == NULL);
	EXPECT(!depex_eval(e, n, installed, NULL));
	/* Refused shapes: no END, too few operands, a cut GUID, END early, unknown opcode. */
	EXPECT(depex_check(e, n - 1, &kind, &target) != NULL);
	EXPECT(depex_check((const uint8_t[]){EFI_DEP_TRUE, EFI_DEP_AND, EFI_DEP_END}, 3, &kind,
			   &target) != NULL);
	EXPECT(depex_check(e, 10, &kind, &target) != NULL);
	EXPECT(depex_check((const uint8_t[]){EFI_DEP_TRUE, EFI_DEP_END, EFI_DEP_END}, 3, &kind,
			   &target) != NULL);
	EXPECT(depex_check((const uint8_t[]){0x42, EFI_DEP_END}, 2, &kind, &target) != NULL);
	EXPECT(depex_check(e, 0, &kind, &target) != NULL);
	/* TRUE, FALSE, SOR, BEFORE. */
	ASSERT(depex_check((const uint8_t[]){EFI_DEP_SOR, EFI_DEP_FALSE, EFI_DEP_NOT, EFI_DEP_END},
			   4, &kind, &target) == NULL);
	EXPECT_EQ(kind, DEPEX_SOR);
	EXPECT(depex_eval((const uint8_t[]){EFI_DEP_SOR, EFI_DEP_FALSE, EFI_DEP_NOT, EFI_DEP_END},
			  4, installed, NULL));
	n = push(e, &file_b);
	e[0] = EFI_DEP_BEFORE;
	e[n++] = EFI_DEP_END;
	ASSERT(depex_check(e, n, &kind, &target) == NULL);
	EXPECT_EQ(kind, DEPEX_BEFORE);
	EXPECT(guid_eq(&target, &file_b));
	e[n++] = EFI_DEP_END;
	EXPECT(depex_check(e, n, &kind, &target) != NULL);
}

/* A file after the removed one whose data must stay 4 KiB-aligned is not moved. */
TEST(fv_remove_keeps_alignment_or_refuses)
{
	uint8_t *vol = new_volume();
	struct fv_volume fv;
	struct fv_file f;
	size_t offset;
	const char *why;
	EFI_FFS_FILE_HEADER *h;

	add_file(vol, &file_a, "A", false);
	add_file(vol, &file_b, "B", false);
	ASSERT(fv_open(&fv, vol, VOL_SIZE) == NULL);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	ASSERT_EQ(fv_next_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	h = (EFI_FFS_FILE_HEADER *)(vol + f.offset);
	h->Attributes |= 5 << 3; /* 4 KiB */
	fv_seal_file(h, f.size, 0xFF);
	ASSERT_EQ(first_file(&fv, &offset, &f, &why), FV_WALK_FILE);
	why = fv_image_remove(vol, VOL_SIZE, f.offset, f.size);
	EXPECT(why && strstr(why, "alignment"));
	free(vol);
}
