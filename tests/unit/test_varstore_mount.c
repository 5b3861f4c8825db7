/* Mounting the variable store (varstore/store_mount.c, store_scan.c) over crafted and
 * damaged logs: a record whose size its own checks do not prove never hides the records
 * after it, a size they do prove is trusted, what was skipped is counted, and the scan
 * stays bounded whatever the area holds. */
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "test_varstore.h"
#include "../../varstore/format.h"
#include <ember/lib/crc32.h>
#include <ember/lib/str.h>

#define SIZE (2 * 8192)
#define BLOCK 1024
#define AREA (SIZE / 2)
#define FIRST_RECORD 32 /* after the area header */

static const EFI_GUID g = {0x11111111, 0x2222, 0x3333, {4, 4, 5, 5, 6, 6, 7, 7}};

/* A formatted, empty store (area 0 active). */
static void blank_store(struct nor_sim *f)
{
	struct test_store t;

	nor_init(f, SIZE, BLOCK);
	test_store_mount(&t, &f->dev, 0);
	test_store_unmount(&t);
}

/* Builds at dst a record as Ember writes one: name, size bytes of data, a header whose
 * data_size says claimed and whose state byte is state. Returns the bytes it fills. */
static UINT32 build_record(UINT8 *dst, const CHAR16 *name, const void *data, UINT32 size,
			   UINT32 claimed, UINT8 state)
{
	struct vs_record_header h;
	UINT32 name_size = (UINT32)str16_size(name);

	memset(&h, 0, sizeof(h));
	h.attributes = 7;
	h.name_size = name_size;
	h.data_size = claimed;
	h.guid = g;
	h.body_crc = crc32_update(crc32(name, name_size), data, size);
	vs_record_header_seal(&h);
	h.state = state;
	memcpy(dst, &h, sizeof(h));
	memcpy(dst + sizeof(h), name, name_size);
	memcpy(dst + sizeof(h) + name_size, data, size);
	return vstore_record_size(name_size, size);
}

/* Puts a complete record of a text value at *at in area 0 and moves *at past it. */
static void put(struct nor_sim *f, UINT32 *at, const CHAR16 *name, const char *text)
{
	*at += build_record(f->bytes + *at, name, text, (UINT32)strlen(text), (UINT32)strlen(text),
			    VS_COMMITTED);
}

static const char *read_str(struct vstore *s, const CHAR16 *name)
{
	return test_store_read_str(s, name, &g);
}

static bool holds(struct vstore *s, const CHAR16 *name, const char *text)
{
	return !strcmp(read_str(s, name), text);
}

/* A, then a record whose header claims far more data than follows it (state given),
 * then B and C written right after its header. */
static void hiding_store(struct nor_sim *f, UINT8 state)
{
	UINT32 at = FIRST_RECORD;

	blank_store(f);
	put(f, &at, u"A", "alpha");
	at += build_record(f->bytes + at, u"Hide", "", 0, 3000, state);
	put(f, &at, u"B", "bravo");
	put(f, &at, u"C", "charlie");
}

static void expect_abc_then_write_and_compact(struct nor_sim *f)
{
	struct test_store t;

	ASSERT_STATUS(test_store_mount(&t, &f->dev, 0), EFI_SUCCESS);
	/* New records go past the space the record claims, never inside it. */
	EXPECT(t.s.tail >= FIRST_RECORD + vstore_record_size(4, 5) + vstore_record_size(10, 3000));
	EXPECT_STATUS(vstore_write(&t.s, u"D", 4, &g, 7, "delta", 5, false), EFI_SUCCESS);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f->dev, 0), EFI_SUCCESS);
	EXPECT(holds(&t.s, u"A", "alpha") && holds(&t.s, u"B", "bravo"));
	EXPECT(holds(&t.s, u"C", "charlie") && holds(&t.s, u"D", "delta"));
	EXPECT(holds(&t.s, u"Hide", ""));
	/* Compaction keeps every valid record and leaves the claiming one behind. */
	ASSERT_STATUS(vstore_compact(&t.s), EFI_SUCCESS);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f->dev, 0), EFI_SUCCESS);
	EXPECT_EQ(t.s.active, AREA);
	EXPECT(holds(&t.s, u"A", "alpha") && holds(&t.s, u"B", "bravo"));
	EXPECT(holds(&t.s, u"C", "charlie") && holds(&t.s, u"D", "delta"));
	EXPECT_EQ(t.s.report.torn + t.s.report.damaged + t.s.report.garbage, 0);
	EXPECT_EQ(t.s.report.recovered, 0);
	test_store_unmount(&t);
	EXPECT_EQ(f->violations, 0);
}

TEST(varstore_torn_record_with_huge_size_hides_nothing)
{
	struct nor_sim f;
	struct test_store t;

	hiding_store(&f, VS_ERASED);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, VSTORE_NO_REFORMAT), EFI_SUCCESS);
	EXPECT(holds(&t.s, u"A", "alpha"));
	EXPECT(holds(&t.s, u"B", "bravo"));
	EXPECT(holds(&t.s, u"C", "charlie"));
	EXPECT_EQ(t.s.report.torn, 1);
	EXPECT_EQ(t.s.report.recovered, 2);
	EXPECT_EQ(t.s.report.garbage + t.s.report.damaged + t.s.report.unchecked, 0);
	test_store_unmount(&t);
	expect_abc_then_write_and_compact(&f);
	nor_free(&f);
}

TEST(varstore_broken_header_inside_claimed_space_is_reported)
{
	struct nor_sim f;
	struct test_store t;
	UINT32 b_at = FIRST_RECORD + vstore_record_size(4, 5) + vstore_record_size(10, 0);

	hiding_store(&f, VS_ERASED);
	f.bytes[b_at + 12] ^= 0x01; /* B's header fails its CRC */
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(holds(&t.s, u"B", "") && holds(&t.s, u"C", "charlie"));
	EXPECT_EQ(t.s.report.garbage, 1);
	EXPECT_EQ(t.s.report.recovered, 1);
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_damaged_record_with_huge_size_hides_nothing)
{
	struct nor_sim f;
	struct test_store t;

	hiding_store(&f, VS_COMMITTED);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, VSTORE_NO_REFORMAT), EFI_SUCCESS);
	EXPECT(holds(&t.s, u"A", "alpha"));
	EXPECT(holds(&t.s, u"B", "bravo"));
	EXPECT(holds(&t.s, u"C", "charlie"));
	EXPECT_EQ(t.s.report.damaged, 1);
	EXPECT_EQ(t.s.report.recovered, 2);
	EXPECT_EQ(t.s.report.garbage + t.s.report.torn, 0);
	test_store_unmount(&t);
	expect_abc_then_write_and_compact(&f);
	nor_free(&f);
}

TEST(varstore_proven_size_is_trusted_over_records_in_the_data)
{
	struct nor_sim f;
	struct test_store t;
	UINT8 inner[128];
	UINT32 inner_size, at = FIRST_RECORD;

	/* A value that holds a whole, valid record: part of the data, never a variable,
	 * whether its own record is complete or its state byte was cut. */
	blank_store(&f);
	memset(inner, 0xee, sizeof(inner));
	inner_size = build_record(inner + 4, u"Evil", "injected", 8, 8, VS_COMMITTED) + 4;
	for (int state = 0; state < 2; state++) {
		at += build_record(f.bytes + at, u"Box", inner, inner_size, inner_size,
				   state ? 0x7f : VS_COMMITTED);
		ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
		EXPECT(holds(&t.s, u"Evil", ""));
		EXPECT_EQ(vstore_find(&t.s, u"Box", 8, &g) != VSTORE_NONE, 1);
		EXPECT_EQ(t.s.report.torn, (UINT32)state);
		EXPECT_EQ(t.s.report.recovered + t.s.report.garbage, 0);
		test_store_unmount(&t);
	}
	put(&f, &at, u"After", "found");
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(holds(&t.s, u"After", "found") && holds(&t.s, u"Evil", ""));
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_write_cut_in_its_data_is_one_torn_record)
{
	struct nor_sim f;
	struct test_store t;
	static char big[1500];
	UINT32 at = FIRST_RECORD, torn_at, torn_size;

	blank_store(&f);
	put(&f, &at, u"A", "alpha");
	memset(big, 'x', sizeof(big) - 1);
	torn_at = at;
	torn_size =
	    build_record(f.bytes + at, u"Big", big, sizeof(big) - 1, sizeof(big) - 1, VS_ERASED);
	/* The power went off half way through the data. */
	memset(f.bytes + torn_at + torn_size / 2, 0xff, torn_size - torn_size / 2);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT_EQ(t.s.report.torn, 1);
	EXPECT_EQ(t.s.report.garbage + t.s.report.recovered + t.s.report.damaged, 0);
	EXPECT(holds(&t.s, u"A", "alpha") && holds(&t.s, u"Big", ""));
	/* The next record goes where the interrupted one would have ended, as always. */
	EXPECT_EQ(t.s.tail, torn_at + torn_size);
	EXPECT_STATUS(vstore_write(&t.s, u"C", 4, &g, 7, "charlie", 7, false), EFI_SUCCESS);
	test_store_unmount(&t);
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(holds(&t.s, u"A", "alpha") && holds(&t.s, u"C", "charlie"));
	EXPECT_EQ(t.s.report.torn, 1);
	EXPECT_EQ(t.s.report.recovered, 0);
	test_store_unmount(&t);
	EXPECT_EQ(f.violations, 0);
	nor_free(&f);
}

TEST(varstore_scan_of_nested_claims_stays_bounded)
{
	struct nor_sim f;
	struct probe_flash p;
	struct test_store t;
	UINT32 at = FIRST_RECORD, last = 0;

	/* Headers one after the other, each claiming (with a wrong CRC) up to near the end of
	 * the area, so each lies inside the space the ones before claim. */
	blank_store(&f);
	while (at + 64 < 5000) {
		UINT32 claimed = 6000 - at - 64;
		last = at;
		at += build_record(f.bytes + at, u"N", "", 0, claimed, VS_COMMITTED);
	}
	at = 6000;
	put(&f, &at, u"After", "found");
	p = probe_of(&f);
	ASSERT_STATUS(test_store_mount(&t, &p.dev, 0), EFI_SUCCESS);
	EXPECT(last > 4000);
	/* Checking every claim would read ~100 areas; the scan reads a few. */
	EXPECT(p.read_bytes < 12 * AREA);
	EXPECT(t.s.report.unchecked > 0);
	EXPECT(t.s.report.damaged > 0);
	EXPECT(holds(&t.s, u"After", "found"));
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_read_error_while_scanning_fails_the_mount)
{
	struct nor_sim f;
	struct probe_flash p;
	struct test_store t;
	UINT32 at = FIRST_RECORD;
	UINT8 before[SIZE];

	blank_store(&f);
	put(&f, &at, u"A", "alpha");
	memcpy(before, f.bytes, SIZE);
	p = probe_of(&f);
	p.fail_from = at + 8;
	EXPECT_STATUS(test_store_mount(&t, &p.dev, 0), EFI_DEVICE_ERROR);
	test_store_unmount(&t);
	/* The header after A reads erased, the rest of the area does not read at all: the
	 * scan moves on (it used to loop there for ever) and fails. */
	p.fail_from = at + 100;
	EXPECT_STATUS(test_store_mount(&t, &p.dev, 0), EFI_DEVICE_ERROR);
	test_store_unmount(&t);
	/* An unreadable area header is no area: with nothing else, the region is refused
	 * rather than formatted over. */
	p.fail_from = 8;
	EXPECT_STATUS(test_store_mount(&t, &p.dev, VSTORE_NO_REFORMAT), EFI_VOLUME_CORRUPTED);
	test_store_unmount(&t);
	EXPECT(!memcmp(before, f.bytes, SIZE));
	nor_free(&f);
}

TEST(varstore_report_text_says_what_was_lost)
{
	struct vstore_report r = {0};
	char text[256];

	EXPECT_EQ(vstore_report_text(&r, text, sizeof(text)), 0);
	EXPECT(!strcmp(text, ""));
	r.torn = 3; /* interrupted writes lose nothing that was committed */
	EXPECT_EQ(vstore_report_text(&r, text, sizeof(text)), 0);
	r = (struct vstore_report){.damaged = 2, .garbage = 3, .recovered = 1};
	EXPECT(vstore_report_text(&r, text, sizeof(text)) > 0);
	EXPECT(strstr(text, "2 damaged record(s)") != NULL);
	EXPECT(strstr(text, "24 byte(s)") != NULL);
	EXPECT(strstr(text, "1 record(s) found again") != NULL);
	r = (struct vstore_report){.reformatted = true, .dropped = 1, .unchecked = 4};
	vstore_report_text(&r, text, sizeof(text));
	EXPECT(strstr(text, "formatted again") != NULL);
	EXPECT(strstr(text, "1 variable(s) did not fit") != NULL);
	EXPECT(strstr(text, "4 record header(s)") != NULL);
	/* A short buffer gets a terminated prefix. */
	EXPECT(vstore_report_text(&r, text, 8) > 8);
	EXPECT_EQ(strlen(text), 7);
}

TEST(varstore_mount_refuses_memory_it_cannot_use)
{
	struct nor_sim f;
	struct vstore s;
	UINTN size = vstore_mem_size(SIZE);
	UINT64 *mem = malloc(size + 8);

	nor_init(&f, SIZE, BLOCK);
	EXPECT_STATUS(vstore_mount(&s, &f.dev, mem, size - 8, 0), EFI_BUFFER_TOO_SMALL);
	EXPECT_STATUS(vstore_mount(&s, &f.dev, (UINT8 *)mem + 4, size, 0), EFI_BUFFER_TOO_SMALL);
	EXPECT_EQ(f.steps, 0);
	/* A region too small for two areas needs only the scratch buffer (and is refused). */
	EXPECT_EQ(vstore_mem_size(64), 1024);
	free(mem);
	nor_free(&f);
}

TEST(varstore_format_that_fails_fails_the_mount)
{
	struct nor_sim f;
	struct test_store t;

	nor_init(&f, SIZE, BLOCK);
	f.fail_writes = true;
	EXPECT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_DEVICE_ERROR);
	test_store_unmount(&t);
	EXPECT_STATUS(test_store_mount(&t, &f.dev, VSTORE_ERASED), EFI_DEVICE_ERROR);
	test_store_unmount(&t);
	f.fail_writes = false;
	ASSERT_STATUS(test_store_mount(&t, &f.dev, 0), EFI_SUCCESS);
	EXPECT(t.s.report.formatted);
	test_store_unmount(&t);
	nor_free(&f);
}

TEST(varstore_unreadable_record_body_is_not_trusted)
{
	struct nor_sim f;
	struct probe_flash p;
	struct test_store t;
	UINT32 at = FIRST_RECORD;

	/* A's header reads, its name and data do not: A is not applied, and the scan, which
	 * cannot read on either, fails rather than guess. */
	blank_store(&f);
	put(&f, &at, u"A", "alpha");
	p = probe_of(&f);
	p.fail_from = FIRST_RECORD + 48;
	EXPECT_STATUS(test_store_mount(&t, &p.dev, 0), EFI_DEVICE_ERROR);
	EXPECT_EQ(t.s.report.damaged, 1);
	test_store_unmount(&t);
	nor_free(&f);
}
