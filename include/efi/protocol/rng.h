/* EFI_RNG_PROTOCOL (UEFI 2.10, section 37.5): random numbers by algorithm. */
#ifndef EFI_PROTOCOL_RNG_H
#define EFI_PROTOCOL_RNG_H

#include <efi/types.h>
#include <efi/status.h>

#define EFI_RNG_PROTOCOL_GUID                                                                      \
	EFI_GUID_INIT(0x3152bca5, 0xeade, 0x433d, 0x86, 0x2e, 0xc0, 0x1c, 0xdc, 0x29, 0x1f, 0x44)

/* EFI_RNG_ALGORITHM: a GUID naming an algorithm (37.5.2). */
typedef EFI_GUID EFI_RNG_ALGORITHM;

/* Raw output of a hardware entropy source, unprocessed. */
#define EFI_RNG_ALGORITHM_RAW                                                                      \
	EFI_GUID_INIT(0xe43176d7, 0xb6e8, 0x4827, 0xb7, 0x84, 0x7f, 0xfd, 0xc4, 0xb6, 0x85, 0x61)

typedef struct _EFI_RNG_PROTOCOL EFI_RNG_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_RNG_GET_INFO)(EFI_RNG_PROTOCOL *This, UINTN *RNGAlgorithmListSize,
					     EFI_RNG_ALGORITHM *RNGAlgorithmList);
typedef EFI_STATUS(EFIAPI *EFI_RNG_GET_RNG)(EFI_RNG_PROTOCOL *This, EFI_RNG_ALGORITHM *RNGAlgorithm,
					    UINTN RNGValueLength, UINT8 *RNGValue);

struct _EFI_RNG_PROTOCOL {
	EFI_RNG_GET_INFO GetInfo;
	EFI_RNG_GET_RNG GetRNG;
};
_Static_assert(sizeof(EFI_RNG_PROTOCOL) == 16, "EFI_RNG_PROTOCOL layout");

#endif
