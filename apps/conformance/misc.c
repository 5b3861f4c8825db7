/* Miscellaneous boot services (UEFI 2.10, 7.5): CalculateCrc32, CopyMem, SetMem,
 * GetNextMonotonicCount, SetWatchdogTimer, InstallConfigurationTable. Stall is tested
 * against a timer in timer.c. */
#define APP_TEST_SUITE "80_misc"
#include "conformance.h"
#include <ember/lib/crc32.h>

APP_TEST(crc32_known_vectors)
{
	static const struct {
		const char *data;
		UINTN len;
		UINT32 crc;
	} v[] = {
	    {"123456789", 9, 0xcbf43926},
	    {"a", 1, 0xe8b7be43},
	    {"\0", 1, 0xd202ef8d},
	    {"The quick brown fox jumps over the lazy dog", 43, 0x414fa339},
	    {"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 32, 0x190a55ad},
	};

	for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
		UINT32 crc = 0;
		CHECK_STATUS(app_bs->CalculateCrc32((void *)v[i].data, v[i].len, &crc),
			     EFI_SUCCESS);
		CHECK_EQ(crc, v[i].crc);
	}
}

APP_TEST(crc32_large_buffer)
{
	UINTN size = 3 * 4096 + 123;
	UINT8 *buf = app_alloc(size);
	UINT32 x = 0x12345678, crc = 0;

	if (!CHECK(buf))
		return;
	for (UINTN i = 0; i < size; i++) {
		x = x * 1103515245 + 12345;
		buf[i] = (UINT8)(x >> 16);
	}
	CHECK_STATUS(app_bs->CalculateCrc32(buf, size, &crc), EFI_SUCCESS);
	CHECK_EQ(crc, crc32(buf, size));
	app_free(buf);
}

APP_TEST(crc32_argument_checks)
{
	UINT32 crc = 0x1234;
	UINT8 byte = 0;

	CHECK_STATUS(app_bs->CalculateCrc32(NULL, 4, &crc), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CalculateCrc32(&byte, 1, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->CalculateCrc32(&byte, 0, &crc), EFI_INVALID_PARAMETER);
}

static void fill(UINT8 *b, UINTN n)
{
	for (UINTN i = 0; i < n; i++)
		b[i] = (UINT8)(i * 7 + 3);
}

/* Copies as if through a temporary buffer: the result CopyMem must produce. */
static void reference_copy(UINT8 *buf, UINTN dst, UINTN src, UINTN len)
{
	UINT8 tmp[256];

	for (UINTN i = 0; i < len; i++)
		tmp[i] = buf[src + i];
	for (UINTN i = 0; i < len; i++)
		buf[dst + i] = tmp[i];
}

static bool copy_case(UINTN dst, UINTN src, UINTN len)
{
	UINT8 got[256], want[256];

	fill(got, sizeof(got));
	fill(want, sizeof(want));
	app_bs->CopyMem(got + dst, got + src, len);
	reference_copy(want, dst, src, len);
	return mem_cmp(got, want, sizeof(got)) == 0;
}

APP_TEST(copy_mem_overlapping)
{
	/* Destination above the source inside it (copy backwards), below it (forwards),
	 * identical, and empty. */
	CHECK(copy_case(10, 0, 200));
	CHECK(copy_case(1, 0, 255));
	CHECK(copy_case(0, 10, 200));
	CHECK(copy_case(0, 1, 255));
	CHECK(copy_case(37, 37, 100));
	CHECK(copy_case(5, 100, 0));
}

APP_TEST(copy_mem_sizes_and_alignments)
{
	UINTN bad = 0;

	for (UINTN len = 0; len <= 40; len++)
		for (UINTN off = 0; off < 8; off++)
			bad +=
			    !copy_case(128 + off, off, len) + !copy_case(off, 128 + off / 2, len);
	CHECK_EQ(bad, 0);
}

APP_TEST(set_mem)
{
	UINT8 buf[128];
	UINTN bad = 0;
	static const UINT8 values[] = {0x00, 0xa5, 0xff};

	for (size_t v = 0; v < ARRAY_SIZE(values); v++)
		for (UINTN off = 0; off < 8; off++)
			for (UINTN len = 0; len <= 70; len++) {
				mem_set(buf, 0x3c, sizeof(buf));
				app_bs->SetMem(buf + off, len, values[v]);
				for (UINTN i = 0; i < sizeof(buf); i++) {
					bool inside = i >= off && i < off + len;
					bad += buf[i] != (inside ? values[v] : 0x3c);
				}
			}
	CHECK_EQ(bad, 0);
}

APP_TEST(monotonic_count)
{
	UINT64 a = 0, b = 0, c = 0;

	/* At TPL_NOTIFY no notification function can take a count in between. */
	EFI_TPL old = app_bs->RaiseTPL(TPL_NOTIFY);
	EFI_STATUS sa = app_bs->GetNextMonotonicCount(&a);
	EFI_STATUS sb = app_bs->GetNextMonotonicCount(&b);
	app_bs->RestoreTPL(old);
	CHECK_STATUS(sa, EFI_SUCCESS);
	CHECK_STATUS(sb, EFI_SUCCESS);
	CHECK(b > a);
	/* The low 32 bits increase by one per call. */
	CHECK_EQ((UINT32)b, (UINT32)(a + 1));
	CHECK_STATUS(app_bs->GetNextMonotonicCount(&c), EFI_SUCCESS);
	CHECK(c > b);
	CHECK_STATUS(app_bs->GetNextMonotonicCount(NULL), EFI_INVALID_PARAMETER);
}

APP_TEST(watchdog_timer)
{
	static CHAR16 reason[] = u"ember conformance";

	CHECK_STATUS(app_bs->SetWatchdogTimer(0, 0, 0, NULL), EFI_SUCCESS);
	CHECK_STATUS(app_bs->SetWatchdogTimer(300, 0x10000, 0, NULL), EFI_SUCCESS);
	CHECK_STATUS(app_bs->SetWatchdogTimer(600, 0x10001, sizeof(reason), reason), EFI_SUCCESS);
	CHECK_STATUS(app_bs->SetWatchdogTimer(0, 0, 0, NULL), EFI_SUCCESS);
}

static void *find_table(EFI_GUID *g, UINTN *count)
{
	*count = 0;
	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++)
		if (guid_eq(&app_st->ConfigurationTable[i].VendorGuid, g)) {
			(*count)++;
			return app_st->ConfigurationTable[i].VendorTable;
		}
	return NULL;
}

static bool st_crc_ok(void)
{
	UINT32 saved = app_st->Hdr.CRC32, crc = 0;
	EFI_SYSTEM_TABLE copy;

	mem_copy(&copy, app_st, sizeof(copy));
	copy.Hdr.CRC32 = 0;
	/* The table may be longer than this application knows; CRC what HeaderSize says. */
	if (app_st->Hdr.HeaderSize != sizeof(copy)) {
		UINT8 *big = app_alloc(app_st->Hdr.HeaderSize);
		if (!big)
			return false;
		mem_copy(big, app_st, app_st->Hdr.HeaderSize);
		((EFI_TABLE_HEADER *)big)->CRC32 = 0;
		crc = crc32(big, app_st->Hdr.HeaderSize);
		app_free(big);
	} else {
		crc = crc32(&copy, sizeof(copy));
	}
	return crc == saved;
}

APP_TEST(configuration_table_add_replace_delete)
{
	static UINT64 t1 = 1, t2 = 2;
	EFI_GUID *g = tguid(G_MISC);
	UINTN n = 0, count;
	UINTN entries = app_st->NumberOfTableEntries;
	EFI_EVENT e = NULL;

	/* The table's GUID names an event group signaled on every change. */
	CHECK_STATUS(
	    app_bs->CreateEventEx(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, count_notify, &n, g, &e),
	    EFI_SUCCESS);
	CHECK_STATUS(app_bs->InstallConfigurationTable(g, &t1), EFI_SUCCESS);
	CHECK(find_table(g, &count) == &t1);
	CHECK_EQ(app_st->NumberOfTableEntries, entries + 1);
	CHECK(st_crc_ok());
	CHECK_EQ(n, 1);
	/* "The list must be allocated from pool memory with PoolType set to
	 * EfiRuntimeServicesData". */
	CHECK_EQ(memory_type_at((UINTN)app_st->ConfigurationTable), EfiRuntimeServicesData);
	CHECK_STATUS(app_bs->InstallConfigurationTable(g, &t2), EFI_SUCCESS);
	CHECK(find_table(g, &count) == &t2);
	CHECK_EQ(app_st->NumberOfTableEntries, entries + 1);
	CHECK_EQ(n, 2);
	CHECK_STATUS(app_bs->InstallConfigurationTable(g, NULL), EFI_SUCCESS);
	CHECK(find_table(g, &count) == NULL && count == 0);
	CHECK_EQ(app_st->NumberOfTableEntries, entries);
	CHECK(st_crc_ok());
	CHECK_EQ(n, 3);
	CHECK_STATUS(app_bs->InstallConfigurationTable(g, NULL), EFI_NOT_FOUND);
	CHECK_EQ(n, 3);
	if (e)
		app_bs->CloseEvent(e);
}

APP_TEST(configuration_table_checks)
{
	static UINT64 t = 3;

	CHECK_STATUS(app_bs->InstallConfigurationTable(NULL, &t), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->InstallConfigurationTable(NULL, NULL), EFI_INVALID_PARAMETER);
	CHECK_STATUS(app_bs->InstallConfigurationTable(tguid(G_MISC + 1), NULL), EFI_NOT_FOUND);
}
