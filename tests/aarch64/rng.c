/* Draws 32 bytes twice from EFI_RNG_PROTOCOL (the default algorithm) and says whether the
 * protocol is there, the draws worked, and they differ (on virt with cortex-a57, which has
 * no RNDR, the source is virtio-rng-pci). */
#include <stdbool.h>
#include <efi/protocol/rng.h>
#include <efi/system_table.h>

#define DRAW 32

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static bool differ(const UINT8 *a, const UINT8 *b)
{
	for (int i = 0; i < DRAW; i++)
		if (a[i] != b[i])
			return true;
	return false;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_GUID guid = EFI_RNG_PROTOCOL_GUID;
	EFI_RNG_PROTOCOL *rng;
	UINT8 first[DRAW], second[DRAW];

	if (st->BootServices->LocateProtocol(&guid, NULL, (void **)&rng) != EFI_SUCCESS) {
		st->ConOut->OutputString(st->ConOut, u"rng: no protocol\r\n");
		return EFI_NOT_FOUND;
	}
	if (rng->GetRNG(rng, NULL, DRAW, first) != EFI_SUCCESS ||
	    rng->GetRNG(rng, NULL, DRAW, second) != EFI_SUCCESS) {
		st->ConOut->OutputString(st->ConOut, u"rng: GetRNG failed\r\n");
		return EFI_DEVICE_ERROR;
	}
	st->ConOut->OutputString(st->ConOut, differ(first, second) ? u"rng: two draws differ\r\n"
								   : u"rng: two equal draws\r\n");
	return EFI_SUCCESS;
}
