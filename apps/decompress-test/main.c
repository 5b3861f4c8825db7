/* decompress-test: EFI_DECOMPRESS_PROTOCOL (UEFI 2.10, 19.5) on the firmware it runs on,
 * fed streams that Ember's encoder made at build time (streams.h): each decodes to its
 * input. Then the argument checks: a source shorter than its header or than the
 * compressed size it gives, a destination or scratch buffer smaller than GetInfo said,
 * NULL buffers, and a corrupt stream all answer EFI_INVALID_PARAMETER. On OVMF, whose
 * protocol is EDK II's, the same streams decoding proves the encoder right. Ends with a
 * summary line and powers the machine off, as scripts/run-ovmf expects. */
#include "../lib/check.h"
#include "streams.h"
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/decompress.h>

static EFI_DECOMPRESS_PROTOCOL *proto;

/* One block whose Extra set has three 1-bit codes: an over-subscribed code. */
static UINT8 corrupt[] = {5, 0, 0, 0, 4, 0, 0, 0, 0x00, 0x01, 0x19, 0x24, 0x00};

static void check_stream(const struct decompress_stream *s)
{
	UINT32 dst_size = 0, scratch_size = 0;
	UINT8 *dst, *scratch;
	VOID *src = (VOID *)s->packed;

	if (!CHECK_STATUS(proto->GetInfo(proto, src, s->packed_size, &dst_size, &scratch_size),
			  EFI_SUCCESS))
		return;
	CHECK_EQ(dst_size, s->orig_size);
	dst = app_alloc(dst_size + 1);
	scratch = app_alloc(scratch_size);
	if (!CHECK(dst && scratch))
		goto out;
	if (CHECK_STATUS(
		proto->Decompress(proto, src, s->packed_size, dst, dst_size, scratch, scratch_size),
		EFI_SUCCESS) &&
	    !CHECK(mem_cmp(dst, s->orig, s->orig_size) == 0))
		app_print("  %s: the data differs\n", s->name);
	app_print("decompress-test: %s: %u bytes from %u\n", s->name, s->orig_size, s->packed_size);
out:
	app_free(scratch);
	app_free(dst);
}

static void check_bad_arguments(const struct decompress_stream *s)
{
	UINT32 dst_size = 0, scratch_size = 0, d, sc;
	VOID *src = (VOID *)s->packed;
	UINT8 *dst, *scratch;

	CHECK_STATUS(proto->GetInfo(proto, src, 7, &d, &sc), EFI_INVALID_PARAMETER);
	CHECK_STATUS(proto->GetInfo(proto, src, s->packed_size - 1, &d, &sc),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(proto->GetInfo(proto, NULL, s->packed_size, &d, &sc), EFI_INVALID_PARAMETER);
	CHECK_STATUS(proto->GetInfo(proto, src, s->packed_size, NULL, &sc), EFI_INVALID_PARAMETER);
	CHECK_STATUS(proto->GetInfo(proto, src, s->packed_size, &d, NULL), EFI_INVALID_PARAMETER);
	if (!CHECK_STATUS(proto->GetInfo(proto, src, s->packed_size, &dst_size, &scratch_size),
			  EFI_SUCCESS))
		return;
	dst = app_alloc(dst_size);
	scratch = app_alloc(scratch_size);
	if (!CHECK(dst && scratch))
		goto out;
	CHECK_STATUS(
	    proto->Decompress(proto, src, s->packed_size, dst, dst_size - 1, scratch, scratch_size),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    proto->Decompress(proto, src, s->packed_size, dst, dst_size, scratch, scratch_size - 1),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(proto->Decompress(proto, src, 7, dst, dst_size, scratch, scratch_size),
		     EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    proto->Decompress(proto, NULL, s->packed_size, dst, dst_size, scratch, scratch_size),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    proto->Decompress(proto, src, s->packed_size, NULL, dst_size, scratch, scratch_size),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(
	    proto->Decompress(proto, src, s->packed_size, dst, dst_size, NULL, scratch_size),
	    EFI_INVALID_PARAMETER);
	CHECK_STATUS(proto->GetInfo(proto, corrupt, sizeof(corrupt), &d, &sc), EFI_SUCCESS);
	CHECK_STATUS(proto->Decompress(proto, corrupt, sizeof(corrupt), dst, dst_size, scratch,
				       scratch_size),
		     EFI_INVALID_PARAMETER);
out:
	app_free(scratch);
	app_free(dst);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	app_init(image, st);
	app_print("decompress-test on %ls\n", st->FirmwareVendor);
	if (CHECK_STATUS(app_bs->LocateProtocol((EFI_GUID *)&efi_decompress_protocol_guid, NULL,
						(VOID **)&proto),
			 EFI_SUCCESS)) {
		for (UINTN i = 0; i < decompress_stream_count; i++)
			check_stream(&decompress_streams[i]);
		check_bad_arguments(&decompress_streams[0]);
	}
	check_print_summary("decompress-test");
	app_rt->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
