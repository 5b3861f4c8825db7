/* The variable store (varstore/store_*.c) on a simulated NOR flash: mounting, writing,
 * deleting, appending, compaction, and what mounting makes of damage and interruptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_varstore.h"
#include "../../varstore/format.h"
#include <ember/lib/str.h>

#define SIZE (2 * 8192)
#define BLOCK 1024
#define AREA (SIZE / 2)

static const EFI_GUID g = {0x11111111, 0x2222, 0x3333, {4, 4, 5, 5, 6, 6, 7, 7}};

static EFI_STATUS write_str(struct vstore *s, const CHAR16 *name, const char *text)
{
	return vstore_write(s, name, (UINT32)str16_size(name), &g, 7, text, (UINT32)strlen(text),
			    false);
}

static const char *read_str(struct vstore *s, const CHAR16 *name)
{
	return test_store_read_str(s, name, &g);
}

TEST(varstore_mount_blank_formats_quietly)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(t.s.report.formatted);
	EXPECT(!t.s.report.reformatted);
	EXPECT_EQ(vstore_next(&t.s, 0), VSTORE_NONE);
	EXPECT_EQ(t.s.active, 0);
	EXPECT_EQ(t.s.generation, 1);
	test_store_unmount(&t);
	/* Mounting again finds the formatted area and formats nothing. */
	UINT64 steps = f.steps;
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(!t.s.report.formatted);
	EXPECT_EQ(f.steps, steps);
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_write_update_delete_survive_remount)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT_STATUS(write_str(&t.s, u"A", "first"), EFI_SUCCESS);
	EXPECT_STATUS(write_str(&t.s, u"B", "bee"), EFI_SUCCESS);
	EXPECT_STATUS(write_str(&t.s, u"A", "second"), EFI_SUCCESS);
	EXPECT_STATUS(write_str(&t.s, u"C", "sea"), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"C", 4, &g, 7, NULL, 0, false), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"C", 4, &g, 7, NULL, 0, false), EFI_NOT_FOUND);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "second"));
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "second"));
	EXPECT(!strcmp(read_str(&t.s, u"B"), "bee"));
	EXPECT(!strcmp(read_str(&t.s, u"C"), ""));
	EXPECT_EQ(t.s.report.damaged + t.s.report.torn + t.s.report.garbage, 0);
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_append_keeps_old_data_first)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"L", 4, &g, 7, "abc", 3, true), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"L", 4, &g, 7, "def", 3, true), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"L"), "abcdef"));
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"L"), "abcdef"));
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_compaction_keeps_every_variable)
{
	struct nor_sim f;
	struct test_store t;
	char text[64];

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	for (int round = 0; round < 40; round++)
		for (int v = 0; v < 10; v++) {
			CHAR16 name[] = {u'V', (CHAR16)(u'0' + v), 0};
			snprintf(text, sizeof(text), "value %d of %d, some padding", round, v);
			ASSERT_STATUS(write_str(&t.s, name, text), EFI_SUCCESS);
		}
	EXPECT(t.s.compactions >= 3);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	for (int v = 0; v < 10; v++) {
		CHAR16 name[] = {u'V', (CHAR16)(u'0' + v), 0};
		snprintf(text, sizeof(text), "value %d of %d, some padding", 39, v);
		EXPECT(!strcmp(read_str(&t.s, name), text));
	}
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_full_only_after_compaction)
{
	struct nor_sim f;
	struct test_store t;
	static UINT8 big[1000];
	UINT32 n = 0;
	EFI_STATUS status;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	memset(big, 0x5a, sizeof(big));
	do {
		CHAR16 name[] = {u'B', (CHAR16)(u'A' + n++), 0};
		status = vstore_write(&t.s, name, 6, &g, 7, big, sizeof(big), false);
	} while (status == EFI_SUCCESS && n < 26);
	EXPECT_STATUS(status, EFI_OUT_OF_RESOURCES);
	EXPECT(t.s.live_bytes[0] + vstore_record_size(6, sizeof(big)) > vstore_usable(&t.s));
	/* Deleting makes room; the delete itself never needs room the store lacks. */
	EXPECT_STATUS(vstore_write(&t.s, u"BA", 6, &g, 7, NULL, 0, false), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"BB", 6, &g, 7, NULL, 0, false), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"ZZ", 6, &g, 7, big, sizeof(big), false), EFI_SUCCESS);
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

/* Offset of the record holding text (searching the whole flash). */
static UINT32 find_bytes(const struct nor_sim *f, const char *text)
{
	size_t n = strlen(text);

	for (UINT32 i = 0; i + n <= f->dev.size; i++)
		if (!memcmp(f->bytes + i, text, n))
			return i;
	return 0;
}

TEST(varstore_damaged_record_is_skipped_and_the_rest_survive)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "alpha-old");
	write_str(&t.s, u"B", "bravo");
	write_str(&t.s, u"A", "alpha-new");
	write_str(&t.s, u"C", "charlie");
	test_store_unmount(&t);
	f.bytes[find_bytes(&f, "alpha-new")] ^= 0x40; /* a bit flips in the data */
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT_EQ(t.s.report.damaged, 1);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "alpha-old"));
	EXPECT(!strcmp(read_str(&t.s, u"B"), "bravo"));
	EXPECT(!strcmp(read_str(&t.s, u"C"), "charlie"));
	test_store_unmount(&t);
	/* A damaged header: the record is lost, the ones after it are found again. */
	f.bytes[find_bytes(&f, "bravo") - 40] ^= 0x01;
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(t.s.report.garbage > 0);
	EXPECT(!strcmp(read_str(&t.s, u"B"), ""));
	EXPECT(!strcmp(read_str(&t.s, u"C"), "charlie"));
	EXPECT_STATUS(write_str(&t.s, u"D", "delta"), EFI_SUCCESS);
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_unparseable_region_is_reformatted)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	for (UINT32 i = 0; i < SIZE; i++)
		f.bytes[i] = (UINT8)(i * 37 + 11);
	EXPECT_STATUS(test_store_mount(&t, &f.dev, VSTORE_NO_REFORMAT), EFI_VOLUME_CORRUPTED);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(t.s.report.reformatted);
	EXPECT_STATUS(write_str(&t.s, u"A", "works"), EFI_SUCCESS);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, VSTORE_NO_REFORMAT), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "works"));
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_interrupted_record_is_ignored)
{
	struct nor_sim f;
	struct test_store t;
	UINT32 tail;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "kept");
	tail = t.s.active + t.s.tail;
	write_str(&t.s, u"A", "never committed");
	test_store_unmount(&t);
	f.bytes[tail + 40] = 0xff; /* its state byte was never programmed */
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT_EQ(t.s.report.torn, 1);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "kept"));
	EXPECT_STATUS(write_str(&t.s, u"A", "later"), EFI_SUCCESS);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "later"));
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_newest_complete_area_wins)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "before");
	ASSERT_STATUS(vstore_compact(&t.s), EFI_SUCCESS);
	EXPECT_EQ(t.s.active, AREA);
	EXPECT_EQ(t.s.generation, 2);
	write_str(&t.s, u"A", "after");
	test_store_unmount(&t);
	/* Both areas are complete (the old one is erased only when needed again). */
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT_EQ(t.s.active, AREA);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "after"));
	ASSERT_STATUS(vstore_compact(&t.s), EFI_SUCCESS);
	EXPECT_EQ(t.s.active, 0);
	EXPECT_EQ(t.s.generation, 3);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "after"));
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_device_error_leaves_old_value)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "old");
	f.fail_writes = true;
	EXPECT_STATUS(write_str(&t.s, u"A", "new"), EFI_DEVICE_ERROR);
	EXPECT_STATUS(vstore_compact(&t.s), EFI_DEVICE_ERROR);
	f.fail_writes = false;
	EXPECT(!strcmp(read_str(&t.s, u"A"), "old"));
	EXPECT_STATUS(write_str(&t.s, u"A", "newer"), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "newer"));
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_bad_geometry_is_refused)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, 3 * BLOCK, BLOCK); /* cannot split into two areas of whole blocks */
	EXPECT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_INVALID_PARAMETER);
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_record_size_and_usable)
{
	EXPECT_EQ(vstore_record_size(4, 1), 56);
	EXPECT_EQ(vstore_record_size(4, 0), 48);
	EXPECT_EQ(vstore_mem_size(VARSTORE_REGION_SIZE) % 16, 0);
}

TEST(varstore_write_refuses_bad_names_attributes_and_sizes)
{
	struct nor_sim f;
	struct test_store t;
	static UINT8 big[VARSTORE_MAX_VARIABLE];
	UINT64 steps;

	nor_init(&f, 2 * 0x10000, 0x1000);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	steps = f.steps;
	EXPECT_STATUS(vstore_write(&t.s, u"", 2, &g, 7, "x", 1, false), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(vstore_write(&t.s, u"AB", 5, &g, 7, "x", 1, false), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(vstore_write(&t.s, u"A", VARSTORE_MAX_VARIABLE + 2, &g, 7, "x", 1, false),
		      EFI_INVALID_PARAMETER);
	EXPECT_STATUS(vstore_write(&t.s, u"A", 4, &g, 0x100, "x", 1, false), EFI_INVALID_PARAMETER);
	/* Name and data together may not pass the largest variable, appends included. */
	EXPECT_STATUS(vstore_write(&t.s, u"A", 4, &g, 7, big, sizeof(big) - 4, false), EFI_SUCCESS);
	EXPECT_STATUS(vstore_write(&t.s, u"A", 4, &g, 7, "x", 1, true), EFI_INVALID_PARAMETER);
	EXPECT_EQ(vstore_entry(&t.s, vstore_find(&t.s, u"A", 4, &g))->data_size, sizeof(big) - 4);
	EXPECT(f.steps > steps);
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_read_data_stays_inside_the_value)
{
	struct nor_sim f;
	struct test_store t;
	char buf[8];
	UINT32 e;

	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "abcdef");
	e = vstore_find(&t.s, u"A", 4, &g);
	EXPECT_STATUS(vstore_read_data(&t.s, e, 2, buf, 4), EFI_SUCCESS);
	EXPECT(!memcmp(buf, "cdef", 4));
	EXPECT_STATUS(vstore_read_data(&t.s, e, 7, buf, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(vstore_read_data(&t.s, e, 2, buf, 5), EFI_INVALID_PARAMETER);
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_deleting_in_any_order_keeps_the_hash_chains)
{
	struct nor_sim f;
	struct test_store t;

	/* More variables than buckets share chains; deleting unlinks inside them. */
	nor_init(&f, 2 * 0x10000, 0x1000);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	for (int i = 0; i < 600; i++) {
		CHAR16 name[] = {u'V', (CHAR16)(u'A' + i / 26 % 26), (CHAR16)(u'A' + i % 26), 0};
		ASSERT_STATUS(write_str(&t.s, name, "v"), EFI_SUCCESS);
	}
	for (int i = 0; i < 600; i += 2) {
		CHAR16 name[] = {u'V', (CHAR16)(u'A' + i / 26 % 26), (CHAR16)(u'A' + i % 26), 0};
		ASSERT_STATUS(vstore_write(&t.s, name, 8, &g, 7, NULL, 0, false), EFI_SUCCESS);
	}
	for (int i = 0; i < 600; i++) {
		CHAR16 name[] = {u'V', (CHAR16)(u'A' + i / 26 % 26), (CHAR16)(u'A' + i % 26), 0};
		EXPECT(!strcmp(read_str(&t.s, name), i % 2 ? "v" : ""));
	}
	test_store_unmount(&t);
	nor_free(&f);
}

/* Once area 0's header is written, every later program and erase fails. */
static void fail_after_area_header(struct nor_sim *sim, enum nor_op op, UINT32 offset,
				   const void *data, UINT32 size, void *ctx)
{
	if (op == NOR_PROGRAM && offset == 0 && size == 32)
		sim->fail_writes = true;
}

TEST(varstore_compaction_that_fails_half_way_keeps_the_old_area)
{
	struct nor_sim f;
	struct test_store t;
	nor_init(&f, SIZE, BLOCK);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "alpha");
	write_str(&t.s, u"B", "bravo");
	/* Area 1 becomes the store, so the next compaction must erase area 0 first. */
	ASSERT_STATUS(vstore_compact(&t.s), EFI_SUCCESS);
	f.fail_writes = true;
	EXPECT_STATUS(vstore_compact(&t.s), EFI_DEVICE_ERROR);
	f.fail_writes = false;
	EXPECT_EQ(t.s.active, AREA);
	/* Erased and started, then the copy of the records fails. */
	f.hook = fail_after_area_header;
	EXPECT_STATUS(vstore_compact(&t.s), EFI_DEVICE_ERROR);
	f.hook = NULL;
	f.fail_writes = false;
	EXPECT_EQ(t.s.active, AREA);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "alpha") && !strcmp(read_str(&t.s, u"B"), "bravo"));
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "alpha") && !strcmp(read_str(&t.s, u"B"), "bravo"));
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_flash_ram_refuses_out_of_range_access)
{
	static UINT8 bytes[4096];
	struct flash_ram ram;
	UINT8 b = 0;

	flash_ram_init(&ram, bytes, sizeof(bytes), 1024);
	EXPECT_STATUS(ram.dev.read(&ram.dev, 4095, &b, 2), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ram.dev.program(&ram.dev, 4097, &b, 0), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ram.dev.erase(&ram.dev, 512), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ram.dev.erase(&ram.dev, 4096), EFI_INVALID_PARAMETER);
	EXPECT_STATUS(ram.dev.program(&ram.dev, 4095, &b, 1), EFI_SUCCESS);
	EXPECT_EQ(bytes[4095], 0);
}

TEST(varstore_append_that_cannot_read_the_old_data_changes_nothing)
{
	struct nor_sim f;
	struct probe_flash p;
	struct test_store t;
	UINT32 tail;

	nor_init(&f, SIZE, BLOCK);
	p = probe_of(&f);
	ASSERT_STATUS(test_store_mount(&t, &p.dev, 0), EFI_SUCCESS);
	write_str(&t.s, u"A", "alpha");
	tail = t.s.tail;
	p.fail_from = tail - 4; /* the end of A's data */
	EXPECT_STATUS(vstore_write(&t.s, u"A", 4, &g, 7, "beta", 4, true), EFI_DEVICE_ERROR);
	p.fail_from = 0;
	EXPECT_EQ(t.s.tail, tail);
	EXPECT(!strcmp(read_str(&t.s, u"A"), "alpha"));
	test_store_unmount(&t);
	nor_free(&f);
}

/* The scan for the first programmed byte steps four words at a time: a single programmed
 * byte anywhere (inside a step, at its edges, across the 1 KiB scratch copies, in a tail
 * shorter than a step) is found at its exact offset. */
TEST(varstore_first_programmed_finds_every_single_byte)
{
	static const UINT32 at[] = {0,	       1,	  7,	     8,	       31,	32,   33,
				    63,	       64,	  1000,	     1023,     1024,	1025, 2047,
				    AREA - 40, AREA - 33, AREA - 32, AREA - 9, AREA - 1};
	struct nor_sim f;

	nor_init(&f, SIZE, BLOCK);
	struct test_store t;
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	for (UINT32 i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		EXPECT_EQ(vs_first_programmed(&t.s, AREA, AREA), AREA);
		f.bytes[AREA + at[i]] = 0x7f;
		EXPECT_EQ(vs_first_programmed(&t.s, AREA, AREA), at[i]);
		EXPECT_EQ(vs_first_programmed(&t.s, AREA, at[i]), at[i]);
		EXPECT(!vs_is_erased(&t.s, AREA, AREA));
		f.bytes[AREA + at[i]] = 0xff;
	}
	test_store_unmount(&t);
	nor_free(&f);
}
