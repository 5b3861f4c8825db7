/* The system table, boot services table and runtime services table (UEFI 2.10, 4.2-4.5):
 * signatures, revisions, sizes, CRCs and the console handles. */
#define APP_TEST_SUITE "05_tables"
#include "conformance.h"
#include <ember/lib/crc32.h>

/* Recomputes a table's CRC: over HeaderSize bytes with the CRC32 field taken as zero. */
static bool header_crc_ok(const EFI_TABLE_HEADER *hdr)
{
	UINT8 *copy = app_alloc(hdr->HeaderSize);
	UINT32 fw = 0;
	bool ok = false;

	if (!copy)
		return false;
	mem_copy(copy, hdr, hdr->HeaderSize);
	((EFI_TABLE_HEADER *)copy)->CRC32 = 0;
	if (app_bs->CalculateCrc32(copy, hdr->HeaderSize, &fw) == EFI_SUCCESS)
		ok = fw == hdr->CRC32 && crc32(copy, hdr->HeaderSize) == hdr->CRC32;
	app_free(copy);
	return ok;
}

static void check_header(const EFI_TABLE_HEADER *hdr, UINT64 signature, UINT32 min_size)
{
	CHECK_EQ(hdr->Signature, signature);
	/* Major 2; the minor part is two BCD-like decimals, except that 2.10 itself is
	 * (2 << 16) | 100. */
	CHECK_EQ(hdr->Revision >> 16, 2);
	CHECK((hdr->Revision & 0xffff) <= 100);
	CHECK(hdr->HeaderSize >= min_size);
	CHECK_EQ(hdr->Reserved, 0);
	CHECK(header_crc_ok(hdr));
}

APP_TEST(system_table_header)
{
	check_header(&app_st->Hdr, EFI_SYSTEM_TABLE_SIGNATURE, sizeof(EFI_SYSTEM_TABLE));
	CHECK(app_st->FirmwareVendor && app_st->FirmwareVendor[0]);
	CHECK(app_st->BootServices != NULL);
	CHECK(app_st->RuntimeServices != NULL);
	CHECK(app_st->NumberOfTableEntries == 0 || app_st->ConfigurationTable != NULL);
}

APP_TEST(boot_services_table)
{
	const EFI_BOOT_SERVICES *bs = app_bs;
	void *const *fn = (void *const *)&bs->RaiseTPL;
	UINTN missing = 0;

	check_header(&bs->Hdr, EFI_BOOT_SERVICES_SIGNATURE, sizeof(EFI_BOOT_SERVICES));
	CHECK_EQ(bs->Hdr.Revision, app_st->Hdr.Revision);
	for (UINTN i = 0; i < 44; i++)
		if (&fn[i] != (void *const *)&bs->Reserved)
			missing += fn[i] == NULL;
	CHECK_EQ(missing, 0);
}

APP_TEST(runtime_services_table)
{
	const EFI_RUNTIME_SERVICES *rt = app_rt;
	void *const *fn = (void *const *)&rt->GetTime;
	UINTN missing = 0;

	check_header(&rt->Hdr, EFI_RUNTIME_SERVICES_SIGNATURE, sizeof(EFI_RUNTIME_SERVICES));
	CHECK_EQ(rt->Hdr.Revision, app_st->Hdr.Revision);
	for (UINTN i = 0; i < 14; i++)
		missing += fn[i] == NULL;
	CHECK_EQ(missing, 0);
}

APP_TEST(console_handles)
{
	void *i = NULL;

	CHECK(app_st->ConIn && app_st->ConOut && app_st->StdErr);
	/* Each console handle carries the protocol its table pointer names (4.3). */
	if (CHECK_STATUS(app_bs->HandleProtocol(app_st->ConsoleInHandle, &guid_text_in, &i),
			 EFI_SUCCESS))
		CHECK(i == app_st->ConIn);
	CHECK_STATUS(app_bs->HandleProtocol(app_st->ConsoleInHandle, &guid_text_in_ex, &i),
		     EFI_SUCCESS);
	if (CHECK_STATUS(app_bs->HandleProtocol(app_st->ConsoleOutHandle, &guid_text_out, &i),
			 EFI_SUCCESS))
		CHECK(i == app_st->ConOut);
	if (CHECK_STATUS(app_bs->HandleProtocol(app_st->StandardErrorHandle, &guid_text_out, &i),
			 EFI_SUCCESS))
		CHECK(i == app_st->StdErr);
}

APP_TEST(configuration_table_guids_unique)
{
	UINTN dups = 0;

	for (UINTN i = 0; i < app_st->NumberOfTableEntries; i++)
		for (UINTN j = i + 1; j < app_st->NumberOfTableEntries; j++)
			dups += guid_eq(&app_st->ConfigurationTable[i].VendorGuid,
					&app_st->ConfigurationTable[j].VendorGuid);
	CHECK_EQ(dups, 0);
}
