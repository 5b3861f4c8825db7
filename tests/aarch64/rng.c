/* Draws 32 bytes twice from EFI_RNG_PROTOCOL (the default algorithm) and says whether the
 * protocol is there, the draws worked, and they differ (on virt with cortex-a57, which has
 * no RNDR, the source is virtio-rng-pci; on `-cpu max`, RNDR); then whether GetInfo lists
 * the raw algorithm, and a raw draw works. */
#include <stdbool.h>
#include <efi/protocol/rng.h>
#include <efi/system_table.h>

#define DRAW 32
#define MAX_ALGORITHMS 8

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);

static bool differ(const UINT8 *a, const UINT8 *b)
{
	for (int i = 0; i < DRAW; i++)
		if (a[i] != b[i])
			return true;
	return false;
}

static bool same_guid(const EFI_GUID *a, const EFI_GUID *b)
{
	const UINT8 *x = (const UINT8 *)a, *y = (const UINT8 *)b;

	for (UINTN i = 0; i < sizeof(EFI_GUID); i++)
		if (x[i] != y[i])
			return false;
	return true;
}

/* Whether GetInfo lists the raw algorithm and a raw draw of DRAW bytes works. */
static bool raw_works(EFI_RNG_PROTOCOL *rng, UINT8 *buffer)
{
	EFI_RNG_ALGORITHM list[MAX_ALGORITHMS], raw = EFI_RNG_ALGORITHM_RAW;
	UINTN size = sizeof(list);

	if (rng->GetInfo(rng, &size, list) != EFI_SUCCESS)
		return false;
	for (UINTN i = 0; i < size / sizeof(list[0]); i++)
		if (same_guid(&list[i], &raw))
			return rng->GetRNG(rng, &raw, DRAW, buffer) == EFI_SUCCESS;
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
	st->ConOut->OutputString(st->ConOut, raw_works(rng, first) ? u"rng: raw draw works\r\n"
								   : u"rng: no raw algorithm\r\n");
	return EFI_SUCCESS;
}
